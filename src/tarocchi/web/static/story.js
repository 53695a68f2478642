// The deal as it happens on the play page: the log of what each seat did (in play order, from
// the view's history and each answer's events) and the cards' moves on the table, paced by
// the player's speed. What is told comes from the server; nothing here decides anything.

import { _ } from "./i18n.js";
import { SEATS, cardImg, cardName, el, reduceMotion, root } from "./common.js";
import { table } from "./table.js";

export function speed() {
  return Number(el("speed").value);
}

function sleep(ms) {
  const factor = reduceMotion.matches ? Math.min(speed(), 0.5) : speed();
  return new Promise((resolve) => setTimeout(resolve, ms * factor));
}

function moving() {
  return !reduceMotion.matches && speed() > 0;
}

// -- the log: the deal in play order, from the view's history and each answer's events --------

let openTrick = null; // the log line of the trick being played
// history: every entry the log has told (a reload's history, then each answer's events)
export const logged = { history: [] };

export function logLine(kind) {
  const li = document.createElement("li");
  li.className = kind;
  el("log").append(li);
  return li;
}

function logChange(ch) {
  logged.history.push(ch);
  if (ch.type === "event") {
    const named = ch.seat === null || ch.text.startsWith(SEATS[ch.seat]);
    logLine("log-event").textContent = named ? ch.text : `${SEATS[ch.seat]}: ${ch.text}`;
  } else if (ch.type === "aside") {
    logLine("log-aside").textContent = ch.text;
  } else if (ch.type === "play") {
    // one line a trick: who played what, in order, then who won it and what it scores
    if (!openTrick) openTrick = { li: logLine("log-trick"), trick: ch.trick, plays: [] };
    openTrick.plays.push(_("%(seat)s: %(card)s", { seat: SEATS[ch.seat], card: cardName(ch.card) }));
    openTrick.li.textContent = _("Trick %(trick)s: %(plays)s.", { trick: openTrick.trick, plays: openTrick.plays.join("; ") });
  } else if (ch.type === "trick") {
    const won = document.createElement("strong");
    won.textContent = ch.text;
    (openTrick ? openTrick.li : logLine("log-trick")).append(" ", won);
    openTrick = null;
  }
  const log = el("log");
  log.scrollTop = log.scrollHeight;
}

// Start the log of a deal (from its view: who deals and who leads), then tell its history.
export function logDeal(view, history = []) {
  logged.history = [];
  el("log").replaceChildren();
  openTrick = null;
  logLine("log-event").textContent = _("Deal begins. %(dealer)s deals; %(leader)s leads.", { dealer: SEATS[view.dealer], leader: SEATS[(view.dealer + 1) % 4] });
  for (const ch of history) logChange(ch);
}

// -- the trick on the table --------------------------------------------------------------------

// the trick's place of a seat's card (the table turns with the seat at its bottom)
function slot(seat) {
  return root.querySelector(`.slot[data-seat="${seat}"]`);
}

export function renderTrick(plays) {
  for (let seat = 0; seat < 4; seat++) slot(seat).replaceChildren();
  for (const p of plays) slot(p.seat).replaceChildren(cardImg(p.card));
}

// -- animating what happened --------------------------------------------------------------------

// Move an element from where another box is to where it lies now (the Web Animations API).
function flyFrom(img, from, duration = 320) {
  if (!moving() || !from) return;
  const a = from.getBoundingClientRect();
  const b = img.getBoundingClientRect();
  if (!b.width) return;
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  img.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${a.width / b.width})` }, { transform: "none" }],
    { duration: duration * speed(), easing: "ease-out" });
}

async function gatherTrick(winner) {
  const target = root.querySelector(winner === table.seat ? ".south .seat-name" : `.seat[data-seat="${winner}"] .backs`);
  slot(winner).classList.add("winner");
  await sleep(700);
  if (moving() && target) {
    const t = target.getBoundingClientRect();
    const runs = [...root.querySelectorAll(".slot .card")].map((img) => {
      const b = img.getBoundingClientRect();
      const dx = t.left + t.width / 2 - (b.left + b.width / 2);
      const dy = t.top + t.height / 2 - (b.top + b.height / 2);
      return img.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 }],
        { duration: 380 * speed(), easing: "ease-in", fill: "forwards" }).finished;
    });
    await Promise.all(runs);
  }
  slot(winner).classList.remove("winner");
  renderTrick([]);
}

export async function animate(events) {
  for (const ev of events) {
    for (const ch of ev.changes) {
      logChange(ch);
      if (ch.type === "event" || ch.type === "aside") {
        await sleep(500);
      } else if (ch.type === "play") {
        let from;
        if (ch.seat !== table.seat) {
          const backs = root.querySelector(`.seat[data-seat="${ch.seat}"] .backs`);
          from = backs.lastChild || backs;
        } else {
          from = el("hand").querySelector(`[data-code="${CSS.escape(ch.card)}"]`);
        }
        const img = cardImg(ch.card);
        slot(ch.seat).replaceChildren(img);
        flyFrom(img, from);
        if (ch.seat === table.seat && from) from.remove();
        await sleep(450);
      } else if (ch.type === "trick") {
        await gatherTrick(ch.winner);
      }
    }
  }
}
