// The page of a table of four AI players: what its read-only connection says, as anyone at
// the table sees it (the cards played, each hand's size; the hands once the deal is over).

import { _, ngettext } from "./i18n.js";
import { GAME, SEATS, api, cardImg, cardsRow, el, pack, root } from "./common.js";

const PING_MS = 10_000; // the server closes a connection silent for 30 s
const RETRY_MS = 1_000;
let version = -1;

function render(m) {
  const v = m.view;
  const last = v.tricks[v.tricks.length - 1];
  const trick = v.trick.length || !last ? v.trick : last.plays; // a finished trick stays in view
  for (let s = 0; s < 4; s++) {
    const box = root.querySelector(`.watch-seat[data-seat="${s}"]`);
    box.querySelector(".count").textContent = ngettext("%(n)d card", "%(n)d cards", v.hand_sizes[s]);
    box.querySelector(".watch-dealer").hidden = v.dealer !== s;
    box.classList.toggle("to-move", v.to_move === s);
    const played = trick.find((p) => p.seat === s);
    root.querySelector(`.watch-slot[data-seat="${s}"]`).replaceChildren(...(played ? [cardImg(played.card)] : []));
  }
  el("watch-score").textContent = `${_("North & South")}: ${v.score.NS} · ${_("East & West")}: ${v.score.EW}`;
  el("watch-status").textContent = v.over ? v.result.headline : _("It is %(seat)s's turn.", { seat: SEATS[v.to_move] });
  el("watch-end").hidden = !m.hands;
  if (m.hands) {
    el("watch-hands").replaceChildren(...m.hands.flatMap((hand, seat) => {
      const h = document.createElement("h3");
      h.textContent = seat === v.dealer ? _("%(seat)s (dealer)", { seat: SEATS[seat] }) : SEATS[seat];
      return [h, cardsRow(hand)];
    }));
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const lang = document.documentElement.lang;
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${root.dataset.id}/watch?lang=${lang}`);
  const ping = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), PING_MS);
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "error") el("watch-status").textContent = m.reason;
    if (m.type === "watch" && m.version > version) {
      version = m.version;
      render(m);
    }
  });
  ws.addEventListener("close", (e) => {
    clearInterval(ping);
    if (e.code === 4404) return; // no such table: asking again is refused alike
    el("watch-status").textContent = _("Connection lost; reconnecting…");
    setTimeout(connect, RETRY_MS);
  });
}

async function start() {
  const cards = await api("GET", `/api/packs/${GAME}`);
  for (const c of cards.cards) pack[c.code] = c;
  connect();
}

start();
