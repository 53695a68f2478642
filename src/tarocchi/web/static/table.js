// Friends' tables on the page: inviting friends to seats, taking a seat from its link, and
// the seat's live connection (a WebSocket). The page shows what each message says.

import { _ } from "./i18n.js";
import { GAME, SEATS, api, el, root, session } from "./common.js";

const PING_MS = 10_000; // the server closes a connection silent for 30 s
const RETRY_MS = 1_000;
const FINAL = [4401, 4403, 4404, 4429]; // refusals: connecting again would be refused alike
// the live table: on once this deal is played with friends; seat: the one at the bottom
// hints: whether the table's creator allows them (the server refuses a hint otherwise)
export const table = { on: false, seat: 0, token: null, socket: null, sent: 0, hints: true };

// Open a seat to a friend: its link, with the invitation's secret after the # (never sent
// to a server, so no log holds it).
export async function invite(seat) {
  const data = await api("POST", `/api/games/${session.id}/seats/${seat}/invitation`);
  return `${location.origin}/play/${GAME}?table=${session.id}&seat=${seat}#${data.secret}`;
}

export async function openedSeats() {
  return (await api("GET", `/api/games/${session.id}/seats`)).seats;
}

const savedKey = (id) => `tarocchi-table-${id}`;

// Take the seat a link opens; keep its token for this browser's reloads.
export async function takeSeat(id, seat, secret) {
  const data = await api("POST", `/api/games/${id}/seats/${seat}`, { secret });
  localStorage.setItem(savedKey(id), JSON.stringify({ token: data.token, seat }));
  return data.token;
}

export function savedSeat(id) {
  return JSON.parse(localStorage.getItem(savedKey(id)) || "null");
}

// A team's name as the seat at the bottom says it (the creator, South, as ever).
export function teamName(team) {
  if (table.seat === 0) return team === "NS" ? _("You & North") : _("East & West");
  if (team === (table.seat % 2 === 0 ? "NS" : "EW")) {
    return _("You & %(partner)s", { partner: SEATS[(table.seat + 2) % 4] });
  }
  return team === "NS" ? _("North & South") : _("East & West");
}

// The winners as the seat at the bottom says it.
export function winnersText(winner) {
  if (winner === "draw") return _("A draw.");
  if (table.seat === 0) return winner === "NS" ? _("You and North win!") : _("East and West win.");
  if (winner === (table.seat % 2 === 0 ? "NS" : "EW")) {
    return _("You and %(partner)s win!", { partner: SEATS[(table.seat + 2) % 4] });
  }
  return winner === "NS" ? _("North and South win.") : _("East and West win.");
}

// A seat's role as the seat at the bottom says it (p places round from it): who plays it,
// and whether its human is away and the AI plays for them, as the server says.
function roleOf(p, seat, humans, away, aiFor) {
  if (p === 0) return aiFor.includes(seat) ? _("you: the AI plays for you") : _("you");
  if (!humans.includes(seat)) return p === 2 ? _("partner (AI)") : _("opponent (AI)");
  if (aiFor.includes(seat)) {
    return p === 2 ? _("partner, away: the AI plays for them") : _("opponent, away: the AI plays for them");
  }
  if (away.includes(seat)) return p === 2 ? _("partner, away") : _("opponent, away");
  return p === 2 ? _("partner") : _("opponent");
}

// Turn the table so that the seat sits at the bottom: each place (bottom, right, top, left)
// holds the seat that far round from it, named with who plays it.
export function turnTable(me, humans, away = [], aiFor = []) {
  const places = [".south", ".seat-e", ".seat-n", ".seat-w"].map((s) => root.querySelector(s));
  for (let p = 0; p < 4; p++) {
    const seat = (me + p) % 4;
    const role = roleOf(p, seat, humans, away, aiFor);
    places[p].classList.toggle("away", p > 0 && away.includes(seat));
    places[p].dataset.seat = seat;
    places[p].querySelector(".name").textContent = SEATS[seat];
    places[p].querySelector(".role").textContent = role;
    places[p].setAttribute("aria-label", _("%(seat)s, %(role)s", { seat: SEATS[seat], role }));
    root.querySelector(`.slot-${p}`).dataset.seat = seat;
  }
  // the teams as this seat says them: in the tally and in the panel's score
  const score = document.querySelectorAll("#score tbody th");
  for (const names of [root.querySelectorAll(".tally-name"), score]) {
    names[0].textContent = teamName("NS");
    names[1].textContent = teamName("EW");
  }
}

// Connect the seat (again after a loss, from the last version seen: since()); each message
// goes to handle, a lost connection to lost.
export function connect(since, handle, lost) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const lang = document.documentElement.lang;
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${session.id}/live?lang=${lang}`);
  table.socket = ws;
  let ping;
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", token: table.token, since: since() }));
    ping = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), PING_MS);
  });
  ws.addEventListener("message", (e) => handle(JSON.parse(e.data)));
  ws.addEventListener("close", (e) => {
    clearInterval(ping);
    if (table.socket !== ws || FINAL.includes(e.code)) return;
    lost();
    setTimeout(() => connect(since, handle, lost), RETRY_MS);
  });
}

// Hand the seat to the AI (it plays the seat's turns from now), or take it back (ai false).
export function handSeat(ai) {
  table.socket.send(JSON.stringify({ type: "hand", ai }));
}

// Send the seat's action with an id of its own (the server applies an id once).
export function send(code, version) {
  table.sent += 1;
  const id = `${Date.now().toString(36)}-${table.sent}`;
  table.socket.send(JSON.stringify({ type: "act", id, action: code, version }));
}

// -- the end of a deal: the next one, once every seated human wishes the same ---------------------

const WISHES = { same: () => _("the same deal again"), new: () => _("a new deal") };

// Wish for the next deal ("same" or "new"); the server tells every seat (a table message).
export function agree(kind) {
  table.socket.send(JSON.stringify({ type: "agree", kind }));
}

// Show a table message: whether hints are allowed and who wishes what; once everyone agreed,
// go to the next game (the same token opens it: keep it under the new game's id).
export function showTable(m) {
  table.hints = m.hints;
  el("table-hints").checked = m.hints;
  const wishes = m.humans.map((s) => {
    const who = s === table.seat ? _("you") : SEATS[s];
    const wish = m.agreed[s] ? WISHES[m.agreed[s]]() : _("not yet");
    return _("%(seat)s: %(wish)s", { seat: who, wish });
  });
  const line = el("end-table");
  line.hidden = m.humans.length < 2;
  line.textContent = _("The next deal starts when everyone at the table wishes the same (%(wishes)s).",
    { wishes: wishes.join("; ") });
  if (!m.next) return;
  line.textContent = _("Everyone agreed: the next deal starts…");
  localStorage.setItem(savedKey(m.next), JSON.stringify({ token: table.token, seat: table.seat }));
  table.socket = null; // (its close is no loss)
  location.assign(`/play/${GAME}?table=${m.next}&seat=${table.seat}`);
}

// -- the invitation dialog (the creator's): the seats opened, their links, the hints allowed ------

function inviteRow(seat) {
  return el("invite-dialog").querySelector(`li[data-seat="${seat}"]`);
}

async function openInvites() {
  el("menu").open = false; // chosen from the menu: closed, it would stay open over the table
  el("invite-dialog").showModal();
  try {
    for (const s of await openedSeats()) {
      inviteRow(s.seat).querySelector(".invite-state").textContent = s.taken ? _("taken") : _("invited");
    }
  } catch (err) {
    // a deal not started yet: nothing is open
  }
}

// Open a seat and show its link; opened tells the page (its live connection starts).
async function openSeat(seat, opened) {
  const row = inviteRow(seat);
  const said = row.querySelector(".invite-state");
  try {
    const input = row.querySelector(".invite-link");
    input.value = await invite(seat);
    input.hidden = false;
    input.select();
    said.textContent = _("Send this link to one friend: it seats one person.");
    opened();
  } catch (err) {
    said.textContent = _("Could not open the seat: %(reason)s", { reason: err.message });
  }
}

// The creator allows or forbids hints at the table (the server tells every seat).
async function setHints(box) {
  const said = el("table-hints-state");
  said.textContent = "";
  try {
    await api("PUT", `/api/games/${session.id}/table`, { hints: box.checked });
  } catch (err) {
    box.checked = !box.checked;
    said.textContent = _("The server refused: %(reason)s", { reason: err.message });
  }
}

export function wireInvites(opened) {
  el("invite").addEventListener("click", openInvites);
  for (const b of el("invite-dialog").querySelectorAll(".invite-open")) {
    b.addEventListener("click", () => openSeat(Number(b.dataset.seat), opened));
  }
  el("table-hints").addEventListener("change", () => setHints(el("table-hints")));
}

// Deal a table of four AI players at a level and go and watch it (its own page).
export async function watchTable(level) {
  const data = await api("POST", "/api/watch", { game: GAME, level });
  location.assign(data.link);
}
