// The page of a table of four AI players: what its read-only connection says, as anyone at
// the table sees it (the cards played, each hand's size, whose turn it is, the running score;
// the hands once the deal is over), on the play page's felt.

import { _, ngettext } from "./i18n.js";
import { GAME, SEATS, api, backImg, cardImg, cardsRow, el, pack, root, trickLabel } from "./common.js";

const PING_MS = 10_000; // the server closes a connection silent for 30 s
const RETRY_MS = 1_000;
const BACKS_SHOWN = 5; // a hand is drawn as a few backs and its count, as on the play page
let version = -1;

function renderSeats(v) {
  for (let s = 0; s < 4; s++) {
    const box = root.querySelector(`.seat[data-seat="${s}"]`);
    const n = v.hand_sizes[s];
    box.querySelector(".backs").replaceChildren(...Array.from({ length: Math.min(n, BACKS_SHOWN) }, backImg));
    box.querySelector(".count").textContent = ngettext("%(n)d card", "%(n)d cards", n);
    box.querySelector(".dealer-badge").hidden = v.dealer !== s;
    box.querySelector(".turn-badge").hidden = v.to_move !== s || v.over;
    box.classList.toggle("to-move", v.to_move === s && !v.over);
  }
}

// the trick on the felt (a finished one stays in view until the next card), the trick's
// number and the running score, as the server counts it
function renderTrick(v) {
  const last = v.tricks[v.tricks.length - 1];
  const trick = v.trick.length || !last ? v.trick : last.plays;
  for (let s = 0; s < 4; s++) {
    const played = trick.find((p) => p.seat === s);
    const slot = root.querySelector(`.slot[data-seat="${s}"]`);
    slot.replaceChildren(...(played ? [cardImg(played.card)] : []));
    slot.classList.toggle("winner", !v.trick.length && Boolean(last) && last.winner === s);
  }
  el("trick-no").textContent = trickLabel(v);
  const score = v.score || { NS: 0, EW: 0, unit: "points" };
  el("ns-score").textContent = score.NS;
  el("ew-score").textContent = score.EW;
  el("score-unit").textContent = score.unit === "resti" ? "resti" : _("points");
}

function render(m) {
  const v = m.view;
  renderSeats(v);
  renderTrick(v);
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
