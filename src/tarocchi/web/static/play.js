// The play page: shows what the server's view says and sends the player's choices.
// It never decides legality: legal cards, refusals, scores and results come from the API.

import { _, ngettext } from "./i18n.js";
import {
  GAME, SEATS, api, backImg, cardImg, cardName, el, inUnit, pack, root, session,
  signedNumber, trickLabel,
} from "./common.js";
import { KEYS, MIN_CARD_PX, place } from "./hand.js";
import { openEnd, openReplay, replayKey, resetEnd } from "./end.js";
import { openReview, resetReview, showAiLine } from "./review.js";
import { animate, logDeal, logLine, logged, renderTrick, speed } from "./story.js";
import {
  agree, connect, handSeat, openedSeats, savedSeat, send, showTable, table, takeSeat, turnTable, watchTable,
  wireInvites,
} from "./table.js";

const BACKS_SHOWN = 5; // an opponent's hand is drawn as a few backs and its count
// why a seat's card is shown, by the kind of the public event that showed it
const SHOWN_WHY = {
  declare: _("declared"), rob: _("robbed"), expose: _("dealt face up"), take: _("from the Fola"),
  fola: _("from the Fola"),
};
// the guided deal (/learn/<game>): its seed and AI level, kept apart from the real deals
const LESSON = root.dataset.lesson;
const SAVED = `tarocchi-${LESSON === undefined ? "" : "learn-"}${GAME}`;

const state = { version: 0, view: null, busy: false };

// -- helpers ------------------------------------------------------------------------------

// a non-card action: the server's sentence for it and the cards it shows (action_details)
function actionDetail(code) {
  return (state.view?.action_details || []).find((d) => d.code === code) || { label: code, cards: [] };
}

function setPrompt(text, kind = "") {
  const p = el("prompt");
  p.textContent = text;
  p.className = `prompt ${kind}`.trim();
}

function save() {
  localStorage.setItem(SAVED, JSON.stringify({ id: session.id, token: session.token }));
}

// -- rendering the view -----------------------------------------------------------------------

function render(view) {
  state.view = view;
  root.dataset.phase = view.over ? "over" : view.phase;
  for (let seat = 0; seat < 4; seat++) {
    const box = root.querySelector(`.seat[data-seat="${seat}"]`);
    box.querySelector(".dealer-badge").hidden = view.dealer !== seat;
    box.querySelector(".turn-badge").hidden = view.to_move !== seat || view.over;
    box.classList.toggle("to-move", view.to_move === seat && !view.over);
    if (seat === table.seat) continue;
    const n = view.hand_sizes[seat];
    box.querySelector(".backs").replaceChildren(...Array.from({ length: Math.min(n, BACKS_SHOWN) }, backImg));
    box.querySelector(".count").textContent = ngettext("%(n)d card", "%(n)d cards", n);
    box.querySelector(".shown").replaceChildren(...shownCards(view, seat));
  }
  renderTrick(view.trick);
  renderHand(view);
  renderScore(view);
  renderLastTrick(view);
  el("result").hidden = !view.over;
  showHintButton();
  if (view.over) {
    setPrompt(_("The deal is over."));
    openEnd(view);
    showAiLine(view); // (at a table, each human's own seat)
  }
  // the guided deal (learn.js) explains what this view shows
  root.dispatchEvent(new CustomEvent("tarocchi-view", { detail: view }));
}

// The cards a seat has shown, each by its corner and named with why (the last event that
// showed it), under a caption of those reasons.
function shownCards(view, seat) {
  const why = new Map();
  for (const e of view.events) {
    if (e.seat === seat && SHOWN_WHY[e.kind]) for (const c of e.cards) why.set(c, SHOWN_WHY[e.kind]);
  }
  const codes = view.shown[seat];
  if (!codes.length) return [];
  const caption = document.createElement("p");
  caption.className = "shown-why";
  caption.textContent = [...new Set(codes.map((c) => why.get(c)).filter(Boolean))].join(", ");
  const fan = document.createElement("div");
  fan.className = "shown-cards";
  fan.append(...codes.map((c) => {
    const corner = document.createElement("span");
    corner.className = "shown-corner";
    corner.append(cardImg(c));
    if (why.has(c)) corner.firstChild.alt = _("%(card)s (%(why)s)", { card: cardName(c), why: why.get(c) });
    return corner;
  }));
  return [caption, fan];
}

function renderLastTrick(view) {
  const last = view.tricks[view.tricks.length - 1];
  const button = el("last-trick");
  button.disabled = !last;
  button.hidden = view.over;
  el("last-mini").replaceChildren(...(last ? last.plays.map((p) => cardImg(p.card, "mini")) : []));
  el("trick-no").textContent = trickLabel(view);
}

function handButton(code, view, myTurn, legal) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "hand-card";
  b.dataset.code = code;
  const isLegal = myTurn && legal.has(code);
  b.classList.toggle("legal", isLegal);
  b.classList.toggle("illegal", myTurn && !isLegal);
  b.classList.toggle("shown-card", view.shown[view.seat].includes(code));
  const name = cardName(code);
  b.setAttribute("aria-label", isLegal || !myTurn ? name : _("%(card)s (not playable now)", { card: name }));
  b.append(cardImg(code));
  b.addEventListener("click", () => choose(code));
  return b;
}

function renderHand(view) {
  const myTurn = view.to_move === view.seat && !view.over;
  const legal = new Set(view.legal);
  const buttons = view.hand.map((code) => handButton(code, view, myTurn, legal));
  el("hand").replaceChildren(...buttons);
  el("hints").hidden = true;

  const others = myTurn ? view.legal.filter((c) => !view.hand.includes(c)) : [];
  el("actions").replaceChildren(...others.map((code) => actionButton(code)));
  // shortcut keys: the legal cards left to right, then the actions
  const keyed = [...buttons.filter((b) => b.classList.contains("legal")), ...el("actions").children];
  keyed.slice(0, KEYS.length).forEach((b, i) => {
    b.dataset.key = KEYS[i];
    b.setAttribute("aria-keyshortcuts", KEYS[i]);
  });
  const waiting = view.to_move === null ? _("The cards are dealt…") : _("Waiting for %(seat)s…", { seat: SEATS[view.to_move] });
  setPrompt(myTurn ? promptText(view) : view.over ? "" : waiting);
  fitTable();
  // the option "Play a single legal card by itself": the server's legal list has one card
  if (myTurn && el("auto-play").checked && view.legal.length === 1 && view.hand.includes(view.legal[0])) {
    setTimeout(() => { if (state.view === view) choose(view.legal[0]); }, 400 * speed());
  }
}

function actionButton(code) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "button action";
  b.dataset.code = code;
  const label = document.createElement("span");
  const detail = actionDetail(code);
  label.textContent = detail.label;
  b.append(label);
  if (detail.cards.length) b.append(...detail.cards.map((c) => cardImg(c, "mini")));
  b.addEventListener("click", () => choose(code));
  return b;
}

function promptText(view) {
  const n = view.legal.length;
  if (view.phase === "discard") {
    return [ngettext("Choose a card to lay aside face down: %(n)d card still to lay aside.",
      "Choose a card to lay aside face down: %(n)d cards still to lay aside.", view.to_lay_aside),
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

// The running score as the game counts it (the server's), with its parts and how it counts.
function renderScore(view) {
  const tricks = [0, 0];
  for (const t of view.tricks) tricks[t.winner % 2] += 1;
  el("ns-tricks").textContent = tricks[0];
  el("ew-tricks").textContent = tricks[1];
  const score = view.score || { NS: 0, EW: 0, unit: "points", how: "", parts: [] };
  const resti = score.unit === "resti";
  for (const [id, value] of [["ns-points", score.NS], ["ew-points", score.EW], ["ns-score", score.NS],
    ["ew-score", score.EW], ["score-unit", resti ? "resti" : _("points")],
    ["score-col", resti ? "resti" : _("Points")], ["score-how", score.how]]) {
    el(id).textContent = value;
  }
  const parts = el("score-parts");
  parts.replaceChildren(...score.parts.filter((p) => score.parts.length > 1 || p.note).map((p) => {
    const row = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = p.label;
    if (p.note) {
      // what the part counts, in the deal's own numbers (the combinations, the pair counting)
      const note = document.createElement("span");
      note.className = "part-note";
      note.textContent = p.note;
      th.append(note);
    }
    row.append(th);
    for (const v of [p.NS, p.EW]) row.insertCell().textContent = v;
    return row;
  }));
  const ledger = view.events.filter((e) => e.kind === "score" || e.kind === "resto");
  const box = el("ledger");
  box.hidden = ledger.length === 0;
  if (ledger.length) box.textContent = _("Ledger: %(text)s", { text: ledger[ledger.length - 1].text });
}

// Size the hand to the room the table leaves it (the hand first: it must always show whole).
function fitTable() {
  const table = el("table");
  const hand = el("hand");
  const cards = [...hand.children];
  if (!cards.length) {
    hand.style.height = "";
    return;
  }
  const south = table.querySelector(".south");
  const above = south.offsetHeight - hand.offsetHeight;
  const room = table.clientHeight * (cards.length > 20 ? 0.5 : 0.42) - above;
  const suits = cards.map((b) => (pack[b.dataset.code] || {}).suit);
  place(hand, cards, suits, room, table.clientHeight);
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
  if (view.to_move !== view.seat) {
    setPrompt(_("It is %(seat)s's turn.", { seat: SEATS[view.to_move] }), "warn");
    return;
  }
  if (!view.legal.includes(code)) {
    setPrompt(view.illegal[code] ? _("Not allowed: %(reason)s.", { reason: view.illegal[code] }) : _("Not allowed now."), "warn");
    return;
  }
  setBusy(true);
  setPrompt("…");
  if (table.on) { // the answer comes as the table's update (or a refusal)
    send(code, state.version);
    return;
  }
  try {
    const data = await api("POST", `/api/games/${session.id}/actions`, { action: code, version: state.version });
    el("hints").hidden = true;
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

function show(data) {
  state.version = data.version;
  logDeal(data.view, data.view.history);
  render(data.view);
}

async function reload() {
  show(await api("GET", `/api/games/${session.id}`));
}

// New deal: a deal in progress is abandoned only once the player says so.
function askNewDeal() {
  if (state.view && !state.view.over) el("abandon-dialog").showModal();
  else newDeal();
}

// A practice deal the review started (a new game at one of South's decisions): the table
// takes it up as it takes up a reloaded game.
function practice(data) {
  resetEnd();
  resetReview();
  session.id = data.id;
  session.token = data.token;
  save();
  show(data);
}

async function newDeal(seed) {
  if (table.on) { // a deal of one's own, away from the friends' table
    location.assign(`/play/${GAME}?new`);
    return;
  }
  resetEnd();
  resetReview();
  session.token = null;
  setBusy(true);
  setPrompt(_("Shuffling…"));
  try {
    const body = LESSON === undefined ? { game: GAME, level: el("level").value }
      : { game: GAME, level: root.dataset.lessonLevel, seed: Number(LESSON) };
    if (seed !== undefined && LESSON === undefined) body.seed = seed;
    const data = await api("POST", "/api/games", body);
    session.id = data.id;
    session.token = data.token;
    state.version = data.version;
    save();
    // the table before the AI's first moves: give back the cards they have played
    const sizes = [...data.view.hand_sizes];
    for (const ev of data.events) {
      if (ev.changes.some((c) => ["play", "aside"].includes(c.type) && c.seat === ev.seat)) sizes[ev.seat] += 1;
    }
    const first = { ...data.view, hand_sizes: sizes, trick: [], tricks: [], shown: [[], [], [], []],
      events: [], to_move: null, legal: [], over: false, won: { NS: [], EW: [] }, score: undefined };
    render(first);
    logDeal(data.view);
    await animate(data.events);
    render(data.view);
  } catch (err) {
    setPrompt(_("Could not start a deal: %(reason)s", { reason: err.message }), "warn");
  } finally {
    setBusy(false);
  }
}

// -- a table with friends: invitations and the live connection --------------------------------

// Play this deal live from a seat: its connection tells each change, the table turned to it.
function goLive(token, seat) {
  table.on = true;
  table.token = token;
  table.seat = seat;
  el("hint").hidden = true;
  el("invite").hidden = seat !== 0;
  const lost = () => setPrompt(_("Connection lost; reconnecting…"), "warn");
  connect(() => (state.view ? state.version : null), onLive, lost);
}

let told = Promise.resolve(); // the messages, shown one after another
function onLive(message) {
  told = told.then(() => liveMessage(message)).catch((err) => setPrompt(err.message, "warn"));
}

async function liveMessage(m) {
  if (m.humans && m.type !== "table") showSeats(m);
  if (m.type === "state") {
    show(m);
  } else if (m.type === "update" && m.version > state.version) {
    await animate(m.events);
    for (const seat of m.stood_in || []) {
      logLine("log-event").textContent = _("The AI played for %(seat)s, who is away.", { seat: SEATS[seat] });
    }
    state.version = m.version;
    render(m.view);
    setBusy(false);
  } else if (m.type === "table") {
    showTable(m);
    showHintButton();
  } else if (m.type === "answer" && !m.ok) {
    setBusy(false);
    render(state.view);
    setPrompt(_("The server refused: %(reason)s", { reason: m.reason }), "warn");
  } else if (m.type === "error") {
    setPrompt(m.reason, "warn");
  }
}

// Who plays each seat, who is away and whom the AI plays for; the seat's own hand-over buttons.
function showSeats(m) {
  turnTable(table.seat, m.humans, m.away, m.ai_for);
  const mine = m.ai_for.includes(table.seat);
  const over = m.view ? m.view.over : Boolean(state.view?.over);
  el("hand-ai").hidden = over || mine;
  el("take-back").hidden = over || !mine;
}

// Take the seat a friend's link opens (its secret after the #), or this browser's seat there.
async function joinTable(id, seat, secret) {
  session.id = id;
  el("new-deal").hidden = true;
  let token = savedSeat(id)?.token;
  if (secret) {
    history.replaceState(null, "", `${location.pathname}${location.search}`); // out of sight
    try {
      token = await takeSeat(id, seat, secret);
    } catch (err) {
      if (!token) {
        setPrompt(_("Could not take the seat: %(reason)s", { reason: err.message }), "warn");
        return;
      }
    }
  }
  if (!token) {
    setPrompt(_("This link has no secret left: ask your friend for a new one."), "warn");
    return;
  }
  session.token = token;
  goLive(token, savedSeat(id)?.seat ?? seat);
}

// -- hints, the last trick, keys ------------------------------------------------------------------

// The Hint button: wanted, the deal going on, and at a table allowed by its creator.
function showHintButton() {
  el("hint").hidden = !el("hints-on").checked || Boolean(state.view?.over) || (table.on && !table.hints);
}

function hintValue(value) {
  if (value === null) return "";
  return inUnit(value, state.view.score.unit, signedNumber.format(value));
}

async function showHint() {
  const view = state.view;
  if (!view || view.to_move !== view.seat || state.busy) return;
  const box = el("hints");
  box.hidden = false;
  el("hint-list").replaceChildren();
  setPrompt(_("Thinking about your choices…"));
  try {
    const data = await api("GET", `/api/games/${session.id}/hint`);
    if (data.version !== state.version) return;
    el("hint-list").replaceChildren(...data.suggestions.slice(0, 4).map((h) => {
      const li = document.createElement("li");
      // a card with the reason to play it; an action is its own sentence (the reason repeats it)
      const what = pack[h.action] ? `${cardName(h.action)}: ${h.reason}` : actionDetail(h.action).label;
      const value = hintValue(h.value);
      li.textContent = value ? `${what} (${value})` : what;
      return li;
    }));
    const best = data.suggestions[0];
    const target = best && root.querySelector(`#hand [data-code="${CSS.escape(best.action)}"], #actions [data-code="${CSS.escape(best.action)}"]`);
    if (target) target.classList.add("hinted");
    setPrompt(promptText(view));
  } catch (err) {
    setPrompt(_("No hint: %(reason)s", { reason: err.message }), "warn");
  }
}

function showLastTrick() {
  const view = state.view;
  if (!view || !view.tricks.length) return;
  const last = view.tricks[view.tricks.length - 1];
  el("last-cards").replaceChildren(...last.plays.map((p, i) => {
    const fig = document.createElement("figure");
    const cap = document.createElement("figcaption");
    const who = i === 0 ? _("%(seat)s (led)", { seat: SEATS[p.seat] }) : SEATS[p.seat];
    cap.textContent = p.seat === last.winner ? _("%(seat)s (won)", { seat: who }) : who;
    fig.classList.toggle("won", p.seat === last.winner);
    fig.append(cardImg(p.card), cap);
    return fig;
  }));
  el("last-dialog").showModal();
}

function onKey(event) {
  if (event.key === "Escape" && panelOpen() && !document.querySelector("dialog[open]")) {
    setPanel(false);
    event.preventDefault();
    return;
  }
  if (el("replay-dialog").open) {
    replayKey(event);
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (["SELECT", "INPUT", "SUMMARY"].includes(event.target.tagName) || document.querySelector("dialog[open]")) return;
  const view = state.view;
  if (!view) return;
  const keyed = root.querySelector(`[data-key="${CSS.escape(event.key.toLowerCase())}"]`);
  if (keyed && view.to_move === view.seat) {
    document.body.classList.add("keyboard");
    keyed.click();
    event.preventDefault();
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

// -- wiring ----------------------------------------------------------------------------------

// The score and log drawer (narrow screens): its Close button, Escape and a tap outside
// close it; the keyboard's focus goes in with it and back to its toggle.
function setPanel(open) {
  const was = el("panel").classList.contains("open");
  el("panel").classList.toggle("open", open);
  el("panel-toggle").setAttribute("aria-expanded", String(open));
  if (open && !was) el("panel-close").focus();
  if (!open && was && el("panel").contains(document.activeElement)) el("panel-toggle").focus();
}

function panelOpen() {
  return el("panel").classList.contains("open");
}

function wire() {
  el("new-deal").addEventListener("click", askNewDeal);
  el("abandon-dialog").addEventListener("close", () => {
    if (el("abandon-dialog").returnValue === "new") newDeal();
  });
  el("last-trick").addEventListener("click", showLastTrick);
  el("hint").addEventListener("click", showHint);
  el("hints-close").addEventListener("click", () => { el("hints").hidden = true; });
  el("result").addEventListener("click", () => openEnd(state.view));
  el("hand-ai").addEventListener("click", () => {
    el("menu").open = false;
    handSeat(true);
  });
  el("take-back").addEventListener("click", () => handSeat(false));
  el("panel-toggle").addEventListener("click", () => setPanel(!panelOpen()));
  el("panel-close").addEventListener("click", () => setPanel(false));
  document.addEventListener("pointerdown", (e) => {
    if (panelOpen() && !e.target.closest("#panel, #panel-toggle")) setPanel(false);
  });
  el("hints-on").checked = localStorage.getItem("tarocchi-hints") === "on";
  showHintButton();
  el("hints-on").addEventListener("change", () => {
    localStorage.setItem("tarocchi-hints", el("hints-on").checked ? "on" : "off");
    showHintButton();
  });
  // at a table, the next deal is everyone's wish
  el("end-new").addEventListener("click", () => (table.on ? agree("new") : newDeal()));
  wireInvites(() => { if (!table.on) goLive(session.token, 0); });
  el("watch").addEventListener("click", () => watchTable(el("level").value).catch((err) => {
    setPrompt(_("Could not start a deal: %(reason)s", { reason: err.message }), "warn");
  }));
  el("end-again").addEventListener("click", () => (table.on ? agree("same") : newDeal(state.view.seed)));
  el("end-replay").addEventListener("click", () => openReplay(logged.history));
  el("end-review").addEventListener("click", () => openReview(state.view, logged.history));
  document.addEventListener("tarocchi:practice", (e) => practice(e.detail));
  el("replay-review").addEventListener("click", () => openReview(state.view, logged.history));
  el("level").value = localStorage.getItem("tarocchi-level") || "normal";
  el("level").addEventListener("change", () => {
    localStorage.setItem("tarocchi-level", el("level").value);
    if (state.view && !state.view.over) setPrompt(_("The %(level)s level plays from your next deal.", { level: el("level").selectedOptions[0].textContent.trim() }));
  });
  el("auto-play").checked = localStorage.getItem("tarocchi-auto-play") === "on";
  el("auto-play").addEventListener("change", () => {
    localStorage.setItem("tarocchi-auto-play", el("auto-play").checked ? "on" : "off");
    if (el("auto-play").checked && state.view) render(state.view);
  });
  el("speed").value = localStorage.getItem("tarocchi-speed") || "1";
  el("speed").addEventListener("change", () => localStorage.setItem("tarocchi-speed", el("speed").value));
  document.addEventListener("keydown", onKey);
  // shortcut keys show while the keyboard is in use, and hide at the first pointer
  document.addEventListener("keydown", (e) => { if (e.key === "Tab" || e.key.startsWith("Arrow")) document.body.classList.add("keyboard"); });
  document.addEventListener("pointerdown", () => document.body.classList.remove("keyboard"));
  new ResizeObserver(() => {
    fitTable();
    el("log").scrollTop = el("log").scrollHeight; // the newest entry stays in view
  }).observe(el("table"));
}

async function start() {
  wire();
  root.style.setProperty("--readable-h", `${MIN_CARD_PX}px`);
  const cards = await api("GET", `/api/packs/${GAME}`);
  for (const c of cards.cards) pack[c.code] = c;

  const joining = new URLSearchParams(location.search);
  if (joining.has("table") && LESSON === undefined) { // a friend's link, or this seat's reload
    await joinTable(joining.get("table"), Number(joining.get("seat")), location.hash.slice(1));
    return;
  }
  // a deal of the history (?deal=ID): opened by this browser's player cookie, no token
  const deal = new URLSearchParams(location.search).get("deal");
  if (deal && /^[\w-]{1,64}$/.test(deal)) {
    session.id = deal;
    try {
      show(await api("GET", `/api/games/${deal}`));
      return;
    } catch (err) {
      session.id = null; // not this player's (or gone): a new deal instead
    }
  }
  const saved = JSON.parse(localStorage.getItem(SAVED) || "null");
  const fresh = new URLSearchParams(location.search).has("new");
  if (saved && !fresh) {
    session.id = saved.id;
    session.token = saved.token;
    try {
      // a deal in progress resumes; a finished one shows again with its result
      show(await api("GET", `/api/games/${session.id}`));
      if (LESSON === undefined && (await openedSeats()).length) goLive(session.token, 0);
      return;
    } catch (err) {
      // the stored game is gone or not ours: start a new one
    }
  }
  const params = new URLSearchParams(location.search);
  const seed = params.get("seed");
  // a reload resumes this deal: the address no longer asks for a new one
  params.delete("new");
  params.delete("seed");
  params.delete("deal");
  history.replaceState(null, "", `${location.pathname}${params.size ? `?${params}` : ""}`);
  await newDeal(seed !== null && /^\d{1,20}$/.test(seed) ? JSON.rawJSON(seed) : undefined);
}

start();
