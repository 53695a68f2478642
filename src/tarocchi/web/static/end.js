// The end of a deal: the result dialog (headline first, then the breakdown, the hands and
// the piles; a practice deal's margin beside the original's), the record's download, and the
// trick-by-trick replay (of the deal, or of the AI's own deal on your cards), which can open at
// one of your decisions as you saw it.

import { _, ngettext } from "./i18n.js";
import { GAME, SEATS, api, cardImg, cardsRow, el, inUnit, session, signedNumber } from "./common.js";
import { teamName, winnersText } from "./table.js";

let record = null;
// the replay: its record (the deal's, or the AI's own), its history, the trick shown, and the
// decision shown before it (null: the whole trick)
const replay = { record: null, history: [], tricks: [], at: 0, position: null, standIns: new Set() };

export function resetEnd() {
  record = null;
  for (const id of ["end-dialog", "replay-dialog", "last-dialog", "review-dialog"]) el(id).close();
}

export async function fetchRecord() {
  if (!record) record = await api("GET", `/api/games/${session.id}/record`);
  return record;
}

function fillBreakdown(r) {
  const table = el("breakdown");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of ["", teamName("NS"), teamName("EW")]) {
    const th = document.createElement(h ? "th" : "td");
    if (h) th.scope = "col";
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
}

async function fillHands(r) {
  const piles = el("end-piles");
  piles.replaceChildren();
  for (const t of ["NS", "EW"]) {
    const h = document.createElement("h4");
    h.textContent = teamName(t);
    piles.append(h, cardsRow(r.piles[t]));
  }
  const hands = el("end-hands");
  hands.replaceChildren();
  try {
    const rec = await fetchRecord();
    showStandIns(rec);
    rec.hands.forEach((hand, seat) => {
      const h = document.createElement("h4");
      h.textContent = seat === rec.dealer ? _("%(seat)s (dealer)", { seat: SEATS[seat] }) : SEATS[seat];
      hands.append(h, cardsRow(hand));
    });
  } catch (err) {
    hands.textContent = _("The record is not available: %(reason)s", { reason: err.message });
  }
}

// Open the result at its headline (the heading focused, the dialog scrolled to its top).
export function openEnd(view) {
  const r = view.result;
  const winner = winnersText(r.winner);
  const score = r.ns_resti === undefined ? _("%(ns)s to %(ew)s.", { ns: r.ns, ew: r.ew })
    : _("%(ns)s resti to %(ew)s.", { ns: r.ns_resti, ew: r.ew_resti });
  el("end-winner").textContent = [winner, score].join(" ");
  fillBreakdown(r);
  el("end-how").textContent = view.score ? view.score.how : "";
  showPractice(view);
  showDaily(view);
  const dialog = el("end-dialog");
  if (!dialog.open) dialog.showModal();
  dialog.scrollTop = 0;
  el("end-title").focus();
  fillHands(r);
}

// A practice deal's result beside the deal it started from.
function showPractice(view) {
  const line = el("end-practice");
  const p = view.practice;
  line.hidden = !p;
  if (!p) return;
  const r = view.result;
  const unit = view.score ? view.score.unit : "points";
  const margin = r.ns_resti === undefined ? r.ns - r.ew : r.ns_resti - r.ew_resti;
  const signed = (v) => inUnit(v, unit, signedNumber.format(v));
  line.textContent = _("A practice deal: your margin now %(now)s; in the deal you played, %(then)s.",
    { now: signed(margin), then: signed(p.margin) });
}

// The decisions the AI made for an absent human at a friends' table, as the record marks them.
function showStandIns(rec) {
  const counts = [0, 0, 0, 0];
  for (const a of rec.actions) if (a.stand_in) counts[a.seat] += 1;
  const line = el("end-stand-in");
  line.textContent = counts.flatMap((n, seat) => (n ? [ngettext(
    "The AI made %(n)d decision for %(seat)s, who was away.",
    "The AI made %(n)d decisions for %(seat)s, who was away.", n, { seat: SEATS[seat] })] : [])).join(" ");
  line.hidden = !line.textContent;
}

// The deal of the day: whether this try counted, and the way to the field's results.
function showDaily(view) {
  const line = el("end-daily");
  const d = view.daily;
  line.hidden = !d;
  if (!d) return;
  const link = document.createElement("a");
  link.href = `/daily/${GAME}/${d.date}`;
  link.textContent = _("See how the field played it");
  line.replaceChildren(d.scored ? _("The deal of the day: this try counts.")
    : _("The deal of the day, as practice: this try does not count."), " ", link);
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

// -- the replay: one step per trick, from the record; the texts from the deal's history -----------

function trickEntries(history) {
  return history.filter((h) => h.type === "trick");
}

// the plays the AI made for an absent human at a friends' table, as the record marks their actions
// (a card is played once, so its seat and code name its play)
function standIns(rec) {
  return new Set(rec.actions.filter((a) => a.stand_in).map((a) => `${a.seat} ${a.action}`));
}

// one card played, its seat (with notes: led, won) under it, and a badge if the AI played it
// for its absent human
function playFigure(play, notes = []) {
  const fig = document.createElement("figure");
  fig.className = `replay-seat seat-${play.seat}`;
  const cap = document.createElement("figcaption");
  cap.textContent = notes.length ? `${SEATS[play.seat]} (${notes.join(", ")})` : SEATS[play.seat];
  if (replay.standIns.has(`${play.seat} ${play.card}`)) {
    const badge = document.createElement("span");
    badge.className = "badge stand-in-badge";
    badge.textContent = _("AI for the absent player");
    badge.setAttribute("aria-hidden", "true");
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.textContent = _("The AI played this card for %(seat)s, who was away.", { seat: SEATS[play.seat] });
    cap.append(" ", badge, said);
  }
  fig.append(cardImg(play.card), cap);
  return fig;
}

// one of your decisions as you saw it: the trick so far and your hand
function showPosition(box, p) {
  box.className = "replay-table position";
  el("replay-step").textContent = p.trick ? _("Trick %(trick)s, your turn: the trick so far and your hand.", { trick: p.trick })
    : _("Before the first trick, your turn: your hand.");
  if (p.plays.length) {
    const table = document.createElement("div");
    table.className = "replay-table cross";
    table.append(...p.plays.map((play) => playFigure(play)));
    box.append(table);
  }
  const h = document.createElement("h4");
  h.textContent = _("Your hand");
  box.append(h, cardsRow(p.hand));
  el("replay-score").textContent = "";
}

function showStep() {
  const { tricks, at } = replay;
  const box = el("replay-table");
  box.replaceChildren();
  if (replay.position) {
    showPosition(box, replay.position);
    return;
  }
  if (at === 0) {
    el("replay-step").textContent = _("Before the first trick: the hands as dealt.");
    replay.record.hands.forEach((hand, seat) => {
      const h = document.createElement("h4");
      h.textContent = SEATS[seat];
      box.append(h, cardsRow(hand));
    });
    box.className = "replay-table hands";
    el("replay-score").textContent = "";
    return;
  }
  const t = tricks[at - 1];
  box.className = "replay-table cross";
  t.plays.forEach((p, i) => {
    const fig = playFigure(p, [i === 0 ? _("led") : "", p.seat === t.winner ? _("won") : ""].filter(Boolean));
    fig.classList.toggle("won", p.seat === t.winner);
    box.append(fig);
  });
  el("replay-step").textContent = _("Trick %(trick)s of %(tricks)s: %(leader)s led, %(winner)s won.", {
    trick: at, tricks: tricks.length, leader: SEATS[t.plays[0].seat], winner: SEATS[t.winner] });
  // the running score from the tricks, as the game counts them (the server's trick entries)
  const done = trickEntries(replay.history).slice(0, at);
  const sum = (team) => Math.round(done.reduce((a, e) => a + e.scores[team], 0) * 2) / 2;
  el("replay-score").textContent = done.length === at ? [done[at - 1].text,
    _("From the tricks so far: You & North %(ns)s, East & West %(ew)s.", { ns: sum("NS"), ew: sum("EW") })].join(" ") : "";
}

// Open the replay at a trick (0: the hands as dealt), from the result or the review; history:
// the deal's entries as the page's log told them (a reload's, then each answer's). With a
// position (one of your decisions: its trick, the plays so far, your hand), it shows that first;
// with another deal (the AI's own: its record and history), it steps through that one.
export async function openReplay(history, at = 1, { position = null, deal = null } = {}) {
  replay.record = deal ? deal.record : await fetchRecord();
  replay.history = deal ? deal.history : history;
  replay.tricks = replay.record.tricks;
  replay.standIns = standIns(replay.record);
  replay.at = Math.max(0, Math.min(replay.tricks.length, position ? position.trick : at));
  replay.position = position;
  el("replay-title").textContent = deal ? _("The AI's deal on your cards") : _("Replay");
  showStep();
  for (const id of ["end-dialog", "review-dialog"]) el(id).close();
  el("replay-dialog").showModal();
}

function step(to) {
  replay.position = null;
  replay.at = Math.max(0, Math.min(replay.tricks.length, to));
  showStep();
}

// the next step: from a decision, its whole trick; else the next trick
const nextStep = () => (replay.position ? replay.at : replay.at + 1);

export function replayKey(event) {
  const to = { ArrowLeft: replay.at - 1, ArrowRight: nextStep(), Home: 0, End: replay.tricks.length }[event.key];
  if (to === undefined) return;
  step(to);
  event.preventDefault();
}

el("end-close").addEventListener("click", () => el("end-dialog").close());
el("end-download").addEventListener("click", download);
el("replay-first").addEventListener("click", () => step(0));
el("replay-prev").addEventListener("click", () => step(replay.at - 1));
el("replay-next").addEventListener("click", () => step(nextStep()));
el("replay-last").addEventListener("click", () => step(replay.tricks.length));
el("replay-close").addEventListener("click", () => el("replay-dialog").close());
