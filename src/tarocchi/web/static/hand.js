// Fitting the hand to the screen: the largest cards that leave every card's corner index
// readable, in one to three overlapping rows, suits a little apart; keys for the keyboard.

import { root } from "./common.js";

const ASPECT = 0.625; // a card's width over its height (the SVG's 200 x 320)
const MIN_INDEX_PX = 11; // the smallest legible corner index, in CSS pixels
const MAX_CARD_PX = 260;
const MAX_CARD_SHARE = 0.3; // of the table's height: the trick keeps the larger share
const ROW_STEP = 0.36; // a row shows this much of the row behind it: the index and suit mark
const GROUP_GAP = 0.6; // the extra room between two suits, in strips
const LIFT = 0.16; // how far a lifted (hovered, focused) card rises, in card heights
// the keys that choose the legal cards, left to right, then the action buttons
export const KEYS = "1234567890qwertyuiopasdfghjklzxcvbnm";

// the corner index's height and its right edge, as fractions of the card (tarocchi.web.svg)
const INDEX_HEIGHT = Number(root.dataset.indexHeight);
const INDEX_WIDTH = Number(root.dataset.indexWidth);
export const MIN_CARD_PX = Math.ceil(MIN_INDEX_PX / INDEX_HEIGHT);

function rows(n, r) {
  const per = Math.ceil(n / r);
  return Array.from({ length: r }, (_, i) => [i * per, Math.min(n, (i + 1) * per)]).filter(([a, b]) => b > a);
}

// strips a row needs: one per card after the first, and a part more at each change of suit
function units(suits, [a, b]) {
  let u = b - a - 1;
  for (let i = a + 1; i < b; i++) if (suits[i] !== suits[i - 1]) u += GROUP_GAP;
  return u;
}

// Return the card height and rows for n cards in a width and a height (both in px), on a
// table of a height.
export function fit(suits, width, height, table) {
  let best = null;
  for (let r = 1; r <= Math.min(3, suits.length); r++) {
    const split = rows(suits.length, r);
    const u = Math.max(0, ...split.map((row) => units(suits, row)));
    // each strip shows the index and 2 px: w + u * (INDEX_WIDTH * w + 2) <= width
    const byWidth = (width - 2 * u) / (1 + INDEX_WIDTH * u) / ASPECT;
    const byHeight = height / (1 + LIFT + (r - 1) * ROW_STEP);
    const h = Math.min(byWidth, byHeight, MAX_CARD_PX, table * MAX_CARD_SHARE);
    // one more row only for clearly larger cards: one row reads best
    if (!best || h > best.h * 1.25) best = { h, split };
  }
  return { h: Math.floor(Math.max(best.h, MIN_CARD_PX)), split: best.split };
}

// Place the hand's cards (buttons, in order) in its box, given the room above it and the
// table's height; return the height it takes.
export function place(hand, cards, suits, height, table) {
  const width = hand.clientWidth;
  const { h, split } = fit(suits, width, height, table);
  const w = h * ASPECT;
  hand.style.setProperty("--card-h", `${h}px`);
  split.forEach((row, r) => {
    const u = units(suits, row);
    const strip = u ? Math.min(w * 1.04, (width - w) / u) : 0;
    let x = (width - w - u * strip) / 2;
    for (let i = row[0]; i < row[1]; i++) {
      if (i > row[0]) x += strip * (suits[i] !== suits[i - 1] ? 1 + GROUP_GAP : 1);
      cards[i].style.setProperty("--x", `${x}px`);
      cards[i].style.setProperty("--y", `${(LIFT + r * ROW_STEP) * h}px`);
    }
  });
  const total = Math.ceil(h * (1 + LIFT + (split.length - 1) * ROW_STEP));
  hand.style.height = `${total}px`;
  return total;
}
