// What the play page's modules share: the game on the page, the API, card images and names,
// numbers and values in the game's unit.

import { _, ngettext } from "./i18n.js";
import { exactSeed } from "./json.js";

export const root = document.getElementById("game");
export const GAME = root.dataset.game;
export const el = (id) => document.getElementById(id);
export const SEATS = [_("South"), _("East"), _("North"), _("West")];
export const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
// the pack (code -> {name, points, suit}, names in the reader's language) and the deal
export const pack = {};
export const session = { id: null, token: null };

export function cardName(code) {
  return pack[code] ? pack[code].name : code;
}

// numbers as the reader's language writes them, to two decimals at most (signed: +3, -0.5, 0)
const lang = document.documentElement.lang;
export const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
export const signedNumber = new Intl.NumberFormat(lang, { maximumFractionDigits: 2, signDisplay: "exceptZero" });

// a value in the game's unit, in words ("+3 points", "1 resto"), shown as a text of it
export function inUnit(value, unit, shown = String(value)) {
  const n = Math.abs(value);
  return unit === "resti" ? ngettext("%(value)s resto", "%(value)s resti", n, { value: shown })
    : ngettext("%(value)s point", "%(value)s points", n, { value: shown });
}

// The number of the trick a view is at, "Trick 3 of 15" (the last once the deal is over;
// nothing before the cards are played, while the count of tricks is not yet whole).
export function trickLabel(view) {
  const total = (view.hand_sizes.reduce((a, b) => a + b, 0) + view.trick.length) / 4 + view.tricks.length;
  const current = Math.min(total, view.tricks.length + 1);
  const playing = view.phase === "play" || view.over;
  return playing && Number.isInteger(total)
    ? _("Trick %(trick)s of %(tricks)s", { trick: view.over ? total : current, tricks: total }) : "";
}

export function cardImg(code, extraClass = "") {
  const img = document.createElement("img");
  img.src = `/cards/${GAME}/${encodeURIComponent(code)}.svg?lang=${document.documentElement.lang}`;
  img.alt = cardName(code);
  img.className = `card ${extraClass}`.trim();
  img.width = 100;
  img.height = 160;
  img.draggable = false;
  return img;
}

export function backImg() {
  const img = document.createElement("img");
  img.src = `/cards/${GAME}/back.svg`;
  img.alt = "";
  img.className = "card back";
  img.width = 100;
  img.height = 160;
  return img;
}

export function cardsRow(codes, extraClass = "small") {
  const div = document.createElement("div");
  div.className = "card-row";
  div.append(...codes.map((c) => cardImg(c, extraClass)));
  return div;
}


export async function api(method, path, body) {
  // the API answers in the page's language (the texts of events, refusals, hints, errors)
  const headers = { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
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
