// The end of a deal: the result dialog (headline first, then the breakdown, the hands and
// the piles), the record's download, and the trick-by-trick replay.

import { _ } from "./i18n.js";
import { GAME, SEATS, api, cardImg, cardsRow, el, session } from "./common.js";

let record = null;
const replay = { history: [], tricks: [], at: 0 };

export function resetEnd() {
  record = null;
  for (const id of ["end-dialog", "replay-dialog", "last-dialog", "review-dialog"]) el(id).close();
}

export async function fetchRecord() {
  if (!record) record = await api("GET", `/api/games/${session.id}/record`);
  return record;
}

function team(t) {
  return t === "NS" ? _("You & North") : _("East & West");
}

function fillBreakdown(r) {
  const table = el("breakdown");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of ["", team("NS"), team("EW")]) {
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
    h.textContent = team(t);
    piles.append(h, cardsRow(r.piles[t]));
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
}

// Open the result at its headline (the heading focused, the dialog scrolled to its top).
export function openEnd(view) {
  const r = view.result;
  const winner = { NS: _("You and North win!"), EW: _("East and West win."), draw: _("A draw.") }[r.winner];
  const score = r.ns_resti === undefined ? _("%(ns)s to %(ew)s.", { ns: r.ns, ew: r.ew })
    : _("%(ns)s resti to %(ew)s.", { ns: r.ns_resti, ew: r.ew_resti });
  el("end-winner").textContent = [winner, score].join(" ");
  fillBreakdown(r);
  el("end-how").textContent = view.score ? view.score.how : "";
  const dialog = el("end-dialog");
  if (!dialog.open) dialog.showModal();
  dialog.scrollTop = 0;
  el("end-title").focus();
  fillHands(r);
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

function showStep() {
  const { tricks, at } = replay;
  const box = el("replay-table");
  box.replaceChildren();
  if (at === 0) {
    el("replay-step").textContent = _("Before the first trick: the hands as dealt.");
    record.hands.forEach((hand, seat) => {
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
    const fig = document.createElement("figure");
    fig.className = `replay-seat seat-${p.seat}`;
    fig.classList.toggle("won", p.seat === t.winner);
    const cap = document.createElement("figcaption");
    const notes = [i === 0 ? _("led") : "", p.seat === t.winner ? _("won") : ""].filter(Boolean);
    cap.textContent = notes.length ? `${SEATS[p.seat]} (${notes.join(", ")})` : SEATS[p.seat];
    fig.append(cardImg(p.card), cap);
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
// the deal's entries as the page's log told them (a reload's, then each answer's)
export async function openReplay(history, at = 1) {
  await fetchRecord();
  replay.history = history;
  replay.tricks = record.tricks;
  replay.at = Math.max(0, Math.min(record.tricks.length, at));
  showStep();
  for (const id of ["end-dialog", "review-dialog"]) el(id).close();
  el("replay-dialog").showModal();
}

function step(to) {
  replay.at = Math.max(0, Math.min(replay.tricks.length, to));
  showStep();
}

export function replayKey(event) {
  const to = { ArrowLeft: replay.at - 1, ArrowRight: replay.at + 1, Home: 0, End: replay.tricks.length }[event.key];
  if (to === undefined) return;
  step(to);
  event.preventDefault();
}

el("end-close").addEventListener("click", () => el("end-dialog").close());
el("end-download").addEventListener("click", download);
el("replay-first").addEventListener("click", () => step(0));
el("replay-prev").addEventListener("click", () => step(replay.at - 1));
el("replay-next").addEventListener("click", () => step(replay.at + 1));
el("replay-last").addEventListener("click", () => step(replay.tricks.length));
el("replay-close").addEventListener("click", () => el("replay-dialog").close());
