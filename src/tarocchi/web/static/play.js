// The play page: shows what the server's view says and sends the player's choices.
// It never decides legality: legal cards, refusals and results all come from the API.

const root = document.getElementById("game");
const GAME = root.dataset.game;

// -- the reader's language: the page carries the translations of this file's strings
// (tarocchi.web.lang.js_catalog); the keys are the English strings, %(name)s placeholders
const I18N = JSON.parse(document.getElementById("i18n").textContent);
// the language's plural rule: the catalog's forms are CLDR's categories in CLDR's order
// (tarocchi.catalogs), so the browser's own CLDR rules pick the form (no eval: the CSP)
const PLURALS = new Intl.PluralRules(document.documentElement.lang);
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"].filter((c) =>
  PLURALS.resolvedOptions().pluralCategories.includes(c));
const pluralIndex = (n) => Math.max(0, CATEGORIES.indexOf(PLURALS.select(n)));

function fill(text, vars) {
  return vars ? text.replace(/%\((\w+)\)[sd]/g, (m, k) => String(vars[k])) : text;
}

function _(msgid, vars) {
  const t = I18N.messages[msgid];
  return fill(typeof t === "string" && t ? t : msgid, vars);
}

function ngettext(singular, plural, n, vars) {
  const forms = I18N.messages[singular];
  const t = Array.isArray(forms) ? forms[pluralIndex(n)] : "";
  return fill(t || (n === 1 ? singular : plural), { n, ...vars });
}

const SEATS = [_("South"), _("East"), _("North"), _("West")];
// what the rules allow in a discard, in words (the server decides; this only explains)
const DISCARD_RULES = {
  piedicavallo: _("Kings, T1, T21 and the Matto may never be discarded; other trumps only if the rest of your hand is all trumps, Kings and the Matto, or holds no trump. The number of trumps you discard is announced."),
  ottocento: _("Kings, the Angel, the World, the Bégato and the Matto may never be discarded."),
  minchiate: _("Only cards worth nothing may be discarded: never Kings, counting trumps, the Matto or trump 29."),
};
const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const el = (id) => document.getElementById(id);
const state = {
  id: null, token: null, version: 0, view: null, cards: {}, busy: false, record: null,
};

// -- helpers ------------------------------------------------------------------------------

function speed() {
  return Number(el("speed").value);
}

function sleep(ms) {
  const factor = reduceMotion.matches ? Math.min(speed(), 0.5) : speed();
  return new Promise((resolve) => setTimeout(resolve, ms * factor));
}

function cardName(code) {
  return state.cards[code] ? state.cards[code].name : code;
}

function cardImg(code, extraClass = "") {
  const img = document.createElement("img");
  img.src = `/cards/${GAME}/${encodeURIComponent(code)}.svg?lang=${document.documentElement.lang}`;
  img.alt = cardName(code);
  img.className = `card ${extraClass}`.trim();
  img.width = 90;
  img.height = 144;
  img.draggable = false;
  return img;
}

function backImg() {
  const img = document.createElement("img");
  img.src = `/cards/${GAME}/back.svg`;
  img.alt = "";
  img.className = "card back";
  img.width = 90;
  img.height = 144;
  return img;
}

function actionLabel(code) {
  const fixed = {
    DECLARE: _("Declare"),
    PASS: _("Pass"),
    "DECL-DONE": _("Done declaring"),
    "DECL-SEQ-LOW": _("Declare the sequence of trumps 1-5"),
    "DECL-SEQ-HIGH-1": _("Declare the first sequence of trumps 28-40"),
    "DECL-SEQ-HIGH-2": _("Declare the second sequence of trumps 28-40"),
    "DECL-SEQ-HIGH-3": _("Declare the third sequence of trumps 28-40"),
    "DECL-MATTO": _("Declare the Matto versicola"),
    "DECL-THIRTEEN": _("Declare the Thirteen"),
    "DECL-TENS": _("Declare the Tens"),
    "DECL-KINGS": _("Declare the Kings"),
  };
  return fixed[code] || code;
}

function log(text, kind = "") {
  const li = document.createElement("li");
  li.textContent = text;
  if (kind) li.className = kind;
  el("log").prepend(li);
}

function setPrompt(text, kind = "") {
  const p = el("prompt");
  p.textContent = text;
  p.className = `prompt ${kind}`.trim();
}

// seeds are 64-bit integers, past the 2^53 a Number holds exactly: keep their digits (as raw
// JSON, which JSON.stringify writes back unchanged, e.g. for "the same deal again")
const exactSeed = (key, value, ctx) => (key === "seed" && ctx?.source ? JSON.rawJSON(ctx.source) : value);

async function api(method, path, body) {
  // the API answers in the page's language (the texts of events, refusals, hints, errors)
  const headers = { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang };
  if (state.token) headers.Authorization = `Bearer ${state.token}`;
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.text().then((text) => JSON.parse(text, exactSeed)).catch(() => ({}));
  if (!res.ok) {
    const detail = typeof data.detail === "string" ? data.detail : res.statusText;
    const err = new Error(detail);
    err.status = res.status;
    throw err;
  }
  return data;
}

function save() {
  localStorage.setItem(`tarocchi-${GAME}`, JSON.stringify({ id: state.id, token: state.token }));
}

// -- rendering the view -----------------------------------------------------------------------

function render(view) {
  state.view = view;
  for (let seat = 0; seat < 4; seat++) {
    const box = root.querySelector(`.seat[data-seat="${seat}"]`);
    box.querySelector(".dealer-badge").hidden = view.dealer !== seat;
    box.classList.toggle("to-move", view.to_move === seat);
    const backs = box.querySelector(".backs");
    if (backs) {
      backs.replaceChildren(...Array.from({ length: view.hand_sizes[seat] }, backImg));
      backs.dataset.count = view.hand_sizes[seat];
    }
    const shown = box.querySelector(".shown");
    shown.replaceChildren(...view.shown[seat].map((c) => cardImg(c, "small")));
  }
  renderTrick(view.trick);
  renderHand(view);
  renderScore(view);
  el("last-trick").disabled = view.tricks.length === 0;
  if (view.over) {
    setPrompt(_("The deal is over."));
    showEnd(view);
  }
}

function renderTrick(plays) {
  for (let seat = 0; seat < 4; seat++) root.querySelector(`.slot-${seat}`).replaceChildren();
  for (const p of plays) placeCard(p.seat, p.card, false);
}

function placeCard(seat, code, animate) {
  const slot = root.querySelector(`.slot-${seat}`);
  const img = cardImg(code, animate && !reduceMotion.matches && speed() > 0 ? `from-${seat}` : "");
  slot.replaceChildren(img);
}

function renderHand(view) {
  const hand = el("hand");
  const myTurn = view.to_move === 0 && !view.over;
  const legal = new Set(view.legal);
  const buttons = view.hand.map((code) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "hand-card";
    b.dataset.code = code;
    const isLegal = myTurn && legal.has(code);
    b.classList.toggle("legal", isLegal);
    b.classList.toggle("illegal", myTurn && !isLegal);
    const label = isLegal || !myTurn ? cardName(code) : _("%(card)s (not playable now)", { card: cardName(code) });
    b.setAttribute("aria-label", label);
    b.append(cardImg(code));
    b.addEventListener("click", () => choose(code));
    return b;
  });
  hand.replaceChildren(...buttons);
  el("hints").hidden = true;
  hand.style.setProperty("--n", buttons.length);

  const others = myTurn ? view.legal.filter((c) => !view.hand.includes(c)) : [];
  el("actions").replaceChildren(...others.map((code, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "button action";
    b.textContent = actionLabel(code);
    b.dataset.code = code;
    b.title = _("key %(n)s", { n: i + 1 });
    b.addEventListener("click", () => choose(code));
    return b;
  }));
  const waiting = view.to_move === null ? _("The cards are dealt…") : _("Waiting for %(seat)s…", { seat: SEATS[view.to_move] });
  setPrompt(myTurn ? promptText(view) : view.over ? "" : waiting);
}

function promptText(view) {
  const n = view.legal.length;
  if (view.phase === "discard") {
    return [_("Choose a card to lay aside face down."), DISCARD_RULES[GAME] || "",
      _("Click a card that is not highlighted to see why it cannot be discarded.")].join(" ");
  }
  if (view.phase === "declare") return _("Declare your combinations, or pass: choose below.");
  if (view.phase === "play") {
    return view.trick.length ? ngettext("Your turn: %(n)d playable card highlighted.", "Your turn: %(n)d playable cards highlighted.", n)
      : _("Your lead: play any card.");
  }
  if (view.legal.some((c) => !view.hand.includes(c))) return _("Your decision: choose below.");
  return _("Your turn.");
}

function teamPoints(codes) {
  return codes.reduce((sum, c) => sum + (state.cards[c] ? state.cards[c].points : 0), 0);
}

function renderScore(view) {
  const tricks = [0, 0];
  for (const t of view.tricks) tricks[t.winner % 2] += 1;
  el("ns-tricks").textContent = tricks[0];
  el("ew-tricks").textContent = tricks[1];
  el("ns-points").textContent = teamPoints(view.won.NS);
  el("ew-points").textContent = teamPoints(view.won.EW);
  const ledger = view.events.filter((e) => e.kind === "score" || e.kind === "resto");
  const box = el("ledger");
  box.hidden = ledger.length === 0;
  if (ledger.length) {
    const last = ledger[ledger.length - 1];
    box.textContent = _("Ledger: %(text)s", { text: last.text });
  }
}

// -- animating what happened --------------------------------------------------------------------

async function animate(events) {
  for (const ev of events) {
    if (!ev.changes.length && ev.seat !== 0) {
      // the only moves that show nothing to South are cards laid aside face down
      log(_("%(seat)s lays a card aside.", { seat: SEATS[ev.seat] }));
      await sleep(250);
    }
    for (const ch of ev.changes) {
      if (ch.type === "event") {
        const named = ch.seat === null || ch.text.startsWith(SEATS[ch.seat]);
        const who = named ? "" : `${SEATS[ch.seat]}: `;
        const cards = ch.cards.length ? ` (${ch.cards.map(cardName).join(", ")})` : "";
        log(`${who}${ch.text}${cards}`, "log-event");
        await sleep(500);
      } else if (ch.type === "play") {
        if (ch.seat !== 0) {
          const backs = root.querySelector(`.seat[data-seat="${ch.seat}"] .backs`);
          if (backs && backs.lastChild) backs.lastChild.remove();
        } else {
          const mine = el("hand").querySelector(`[data-code="${CSS.escape(ch.card)}"]`);
          if (mine) mine.remove();
        }
        placeCard(ch.seat, ch.card, true);
        await sleep(450);
      } else if (ch.type === "trick") {
        log(ngettext("%(seat)s wins trick %(trick)s (%(n)d point).", "%(seat)s wins trick %(trick)s (%(n)d points).", ch.points, { seat: SEATS[ch.winner], trick: ch.trick }), "log-trick");
        root.querySelector(`.slot-${ch.winner}`).classList.add("winner");
        await sleep(1100);
        root.querySelector(`.slot-${ch.winner}`).classList.remove("winner");
        renderTrick([]);
      }
    }
  }
}

// -- the player's choices -----------------------------------------------------------------------

// While a request is out, nothing in the hand is playable and the hint waits for the answer.
function setBusy(on) {
  state.busy = on;
  el("hint").disabled = on;
  if (on) for (const card of el("hand").querySelectorAll(".legal")) card.classList.remove("legal");
}

async function choose(code) {
  const view = state.view;
  if (!view || state.busy || view.over) return;
  if (view.to_move !== 0) {
    setPrompt(_("It is %(seat)s's turn.", { seat: SEATS[view.to_move] }), "warn");
    return;
  }
  if (!view.legal.includes(code)) {
    setPrompt(view.illegal[code] ? _("Not allowed: %(reason)s.", { reason: view.illegal[code] }) : _("Not allowed now."), "warn");
    return;
  }
  setBusy(true);
  setPrompt("…");
  try {
    const data = await api("POST", `/api/games/${state.id}/actions`, { action: code, version: state.version });
    await animate(data.events);
    state.version = data.version;
    render(data.view);
  } catch (err) {
    setPrompt(_("The server refused: %(reason)s", { reason: err.message }), "warn");
    if (err.status === 409) await reload();
  } finally {
    setBusy(false);
  }
}

async function reload() {
  const data = await api("GET", `/api/games/${state.id}`);
  state.version = data.version;
  render(data.view);
}

async function newDeal(seed) {
  el("end-dialog").close();
  el("log").replaceChildren();
  state.record = null;
  state.token = null;
  setBusy(true);
  setPrompt(_("Shuffling…"));
  try {
    const body = { game: GAME, level: el("level").value };
    if (seed !== undefined) body.seed = seed;
    const data = await api("POST", "/api/games", body);
    state.id = data.id;
    state.token = data.token;
    state.version = data.version;
    save();
    // the table before the AI's first moves: give back the cards they have played
    const sizes = [...data.view.hand_sizes];
    for (const ev of data.events) {
      const played = ev.changes.some((c) => c.type === "play" && c.seat === ev.seat);
      if (played || !ev.changes.length) sizes[ev.seat] += 1;
    }
    const first = { ...data.view, hand_sizes: sizes, trick: [], tricks: [], shown: [[], [], [], []],
      events: [], to_move: null, legal: [], over: false, won: { NS: [], EW: [] } };
    render(first);
    log(_("Deal begins. %(dealer)s deals; %(leader)s leads.", { dealer: SEATS[data.view.dealer], leader: SEATS[(data.view.dealer + 1) % 4] }));
    await animate(data.events);
    render(data.view);
  } catch (err) {
    setPrompt(_("Could not start a deal: %(reason)s", { reason: err.message }), "warn");
  } finally {
    setBusy(false);
  }
}

// -- end of the deal -------------------------------------------------------------------------

async function fetchRecord() {
  if (!state.record) state.record = await api("GET", `/api/games/${state.id}/record`);
  return state.record;
}

function cardsRow(codes) {
  const div = document.createElement("div");
  div.className = "card-row";
  div.append(...codes.map((c) => cardImg(c, "small")));
  return div;
}

async function showEnd(view) {
  const r = view.result;
  const winner = { NS: _("You and North win!"), EW: _("East and West win."), draw: _("A draw.") }[r.winner];
  el("end-winner").textContent = [winner, _("%(ns)s to %(ew)s.", { ns: r.ns, ew: r.ew })].join(" ");
  const table = el("breakdown");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of ["", _("You & North"), _("East & West")]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const line of [...r.lines, { label: _("Total"), ns: r.ns, ew: r.ew, note: "" }]) {
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = line.note ? `${line.label} (${line.note})` : line.label;
    row.append(th);
    row.insertCell().textContent = line.ns;
    row.insertCell().textContent = line.ew;
  }
  const piles = el("end-piles");
  piles.replaceChildren();
  for (const team of ["NS", "EW"]) {
    const h = document.createElement("h4");
    h.textContent = team === "NS" ? _("You & North") : _("East & West");
    piles.append(h, cardsRow(r.piles[team]));
  }
  const hands = el("end-hands");
  hands.replaceChildren();
  try {
    const rec = await fetchRecord();
    rec.hands.forEach((hand, seat) => {
      const h = document.createElement("h4");
      h.textContent = seat === rec.dealer ? _("%(seat)s (dealer)", { seat: SEATS[seat] }) : SEATS[seat];
      hands.append(h, cardsRow(hand));
    });
  } catch (err) {
    hands.textContent = _("The record is not available: %(reason)s", { reason: err.message });
  }
  if (!el("end-dialog").open) el("end-dialog").showModal();
}

async function download() {
  const rec = await fetchRecord();
  const blob = new Blob([JSON.stringify(rec, null, 1)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `tarocchi-${GAME}-${rec.seed.rawJSON}.json`;
  document.body.append(a);
  a.click();
  a.remove();
}

// -- step-through replay of a finished deal (from its record) -----------------------------------

const replay = { rec: null, steps: [], at: 0 };

function replaySteps(rec) {
  const plays = rec.tricks.flatMap((t, i) => t.plays.map((p) => ({ ...p, trick: i, winner: t.winner })));
  let p = 0;
  return rec.actions.map((a) => {
    const next = plays[p];
    if (next && next.seat === a.seat && next.card === a.action) {
      p += 1;
      return { ...a, play: true, trick: next.trick, last: p % 4 === 0, winner: next.winner };
    }
    return { ...a, play: false };
  });
}

function showReplay() {
  const { rec, steps, at } = replay;
  const hands = rec.hands.map((h) => [...h]);
  let trick = [];
  let text = _("The deal as dealt.");
  for (let i = 0; i < at; i++) {
    const s = steps[i];
    const h = hands[s.seat];
    const k = h.indexOf(s.action);
    if (k >= 0) h.splice(k, 1);
    if (s.play) {
      if (trick.length === 4) trick = [];
      trick.push(s);
      text = _("%(seat)s plays %(card)s.", { seat: SEATS[s.seat], card: cardName(s.action) });
      if (s.last) text = [text, _("%(seat)s wins trick %(trick)s.", { seat: SEATS[s.winner], trick: s.trick + 1 })].join(" ");
    } else {
      text = state.cards[s.action]
        ? _("%(seat)s: %(action)s (%(card)s).", { seat: SEATS[s.seat], action: actionLabel(s.action), card: cardName(s.action) })
        : _("%(seat)s: %(action)s.", { seat: SEATS[s.seat], action: actionLabel(s.action) });
    }
  }
  el("replay-step").textContent = [_("Step %(at)s of %(steps)s.", { at, steps: steps.length }), text].join(" ");
  const box = el("replay-table");
  box.replaceChildren();
  hands.forEach((h, seat) => {
    const row = document.createElement("div");
    row.className = "replay-seat";
    const name = document.createElement("h4");
    name.textContent = SEATS[seat];
    row.append(name, cardsRow(h));
    box.append(row);
  });
  const t = document.createElement("div");
  t.className = "replay-trick";
  const title = document.createElement("h4");
  title.textContent = _("Trick");
  t.append(title, cardsRow(trick.map((s) => s.action)));
  box.append(t);
}

async function openReplay() {
  replay.rec = await fetchRecord();
  replay.steps = replaySteps(replay.rec);
  replay.at = 0;
  showReplay();
  el("end-dialog").close();
  el("replay-dialog").showModal();
}

function stepReplay(to) {
  replay.at = Math.max(0, Math.min(replay.steps.length, to));
  showReplay();
}

// -- wiring ----------------------------------------------------------------------------------

async function showHint() {
  const view = state.view;
  if (!view || view.to_move !== 0 || state.busy) return;
  const box = el("hints");
  box.hidden = false;
  box.replaceChildren();
  setPrompt(_("Thinking about your choices…"));
  try {
    const data = await api("GET", `/api/games/${state.id}/hint`);
    if (data.version !== state.version) return;
    box.replaceChildren(...data.suggestions.slice(0, 4).map((h) => {
      const li = document.createElement("li");
      const value = h.value === null ? "" : ` (${h.value > 0 ? "+" : ""}${h.value})`;
      li.textContent = `${state.cards[h.action] ? cardName(h.action) : actionLabel(h.action)}${value}: ${h.reason}`;
      return li;
    }));
    const best = data.suggestions[0];
    const card = best && el("hand").querySelector(`[data-code="${CSS.escape(best.action)}"]`);
    if (card) card.classList.add("hinted");
    setPrompt(promptText(view));
  } catch (err) {
    setPrompt(_("No hint: %(reason)s", { reason: err.message }), "warn");
  }
}

function showLastTrick() {
  const view = state.view;
  if (!view || !view.tricks.length) return;
  const last = view.tricks[view.tricks.length - 1];
  const box = el("last-cards");
  box.replaceChildren(...last.plays.map((p) => {
    const fig = document.createElement("figure");
    const cap = document.createElement("figcaption");
    cap.textContent = p.seat === last.winner ? _("%(seat)s (won)", { seat: SEATS[p.seat] }) : SEATS[p.seat];
    fig.append(cardImg(p.card), cap);
    return fig;
  }));
  el("last-dialog").showModal();
}

function onKey(event) {
  if (event.target.tagName === "SELECT" || document.querySelector("dialog[open]")) return;
  const view = state.view;
  if (!view) return;
  if (/^[1-9]$/.test(event.key) && view.to_move === 0) {
    const code = view.legal[Number(event.key) - 1];
    if (code) choose(code);
    return;
  }
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    const cards = [...el("hand").querySelectorAll(".hand-card")];
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const step = event.key === "ArrowLeft" ? -1 : 1;
    const next = i < 0 ? (step > 0 ? 0 : cards.length - 1) : (i + step + cards.length) % cards.length;
    cards[next].focus();
    event.preventDefault();
  }
}

async function start() {
  el("new-deal").addEventListener("click", () => newDeal());
  el("last-trick").addEventListener("click", showLastTrick);
  el("hint").addEventListener("click", showHint);
  el("hints-on").checked = localStorage.getItem("tarocchi-hints") === "on";
  el("hint").hidden = !el("hints-on").checked;
  el("hints-on").addEventListener("change", () => {
    localStorage.setItem("tarocchi-hints", el("hints-on").checked ? "on" : "off");
    el("hint").hidden = !el("hints-on").checked;
  });
  el("end-new").addEventListener("click", () => newDeal());
  el("end-again").addEventListener("click", () => newDeal(state.view.seed));
  el("end-download").addEventListener("click", download);
  el("end-replay").addEventListener("click", openReplay);
  el("end-close").addEventListener("click", () => el("end-dialog").close());
  el("replay-first").addEventListener("click", () => stepReplay(0));
  el("replay-prev").addEventListener("click", () => stepReplay(replay.at - 1));
  el("replay-next").addEventListener("click", () => stepReplay(replay.at + 1));
  el("replay-last").addEventListener("click", () => stepReplay(replay.steps.length));
  el("replay-close").addEventListener("click", () => el("replay-dialog").close());
  el("level").value = localStorage.getItem("tarocchi-level") || "normal";
  el("level").addEventListener("change", () => {
    localStorage.setItem("tarocchi-level", el("level").value);
    if (state.view && !state.view.over) setPrompt(_("The %(level)s level plays from your next deal.", { level: el("level").selectedOptions[0].textContent.trim() }));
  });
  el("speed").value = localStorage.getItem("tarocchi-speed") || "1";
  el("speed").addEventListener("change", () => localStorage.setItem("tarocchi-speed", el("speed").value));
  document.addEventListener("keydown", onKey);

  const pack = await api("GET", `/api/packs/${GAME}`);
  for (const c of pack.cards) state.cards[c.code] = c;

  const saved = JSON.parse(localStorage.getItem(`tarocchi-${GAME}`) || "null");
  const fresh = new URLSearchParams(location.search).has("new");
  if (saved && !fresh) {
    state.id = saved.id;
    state.token = saved.token;
    try {
      const data = await api("GET", `/api/games/${state.id}`);
      if (!data.view.over) {
        state.version = data.version;
        log(_("Resuming your deal."));
        render(data.view);
        return;
      }
    } catch (err) {
      // the stored game is gone or not ours: start a new one
    }
  }
  const seed = new URLSearchParams(location.search).get("seed");
  await newDeal(seed !== null && /^\d{1,20}$/.test(seed) ? JSON.rawJSON(seed) : undefined);
}

start();
