// Learn to play: on /learn/<game>, says what the server's lesson explains at each view of the
// guided deal and marks the cards it talks about; on /play/<game>, offers the guided deal once.
// The lesson's words and when each is said come from the API (tarocchi.web.lessons).

import { GAME, api, el, root, session } from "./common.js";

const OFFERED = `tarocchi-learn-offered-${GAME}`;
// the steps read in this deal (by the deal's id: starting again says them again)
const read = { id: null, keys: new Set() };
let queue = []; // the steps that hold now and are not read yet, first to say first
let at = 0; // the position in the queue of the step said
let asked = 0; // the number of the latest request: an older answer is dropped
let told = 0;
let version = 0; // the game's version the latest answer was for
const FINISH_AFTER = 4; // tricks played before the rest may be played for the player

function readKey() {
  return `tarocchi-learn-read-${GAME}`;
}

function loadRead() {
  if (read.id === session.id) return;
  const saved = JSON.parse(localStorage.getItem(readKey()) || "null");
  read.id = session.id;
  read.keys = new Set(saved && saved.id === session.id ? saved.keys : []);
}

function markRead(key) {
  read.keys.add(key);
  localStorage.setItem(readKey(), JSON.stringify({ id: read.id, keys: [...read.keys] }));
}

// Mark the cards a step talks about wherever the table shows them (hand, trick, last trick,
// cards face up), and only those.
function mark(codes) {
  for (const old of root.querySelectorAll(".taught")) old.classList.remove("taught");
  for (const code of codes) {
    const src = `/${encodeURIComponent(code)}.svg`;
    for (const b of el("hand").querySelectorAll(`[data-code="${CSS.escape(code)}"]`)) b.classList.add("taught");
    for (const img of el("table").querySelectorAll(".slot .card, .last-mini .card, .shown .card")) {
      if (new URL(img.src).pathname.endsWith(src)) img.classList.add("taught");
    }
  }
}

// Say the queue's step at a position (read from then on), with Next while more are waiting.
function say(pos) {
  const step = queue[pos];
  at = pos;
  markRead(step.key);
  el("lesson-text").textContent = step.text;
  el("lesson").dataset.step = step.key;
  el("lesson-next").hidden = pos >= queue.length - 1;
  mark(step.cards);
  if (step.key === "end") {
    el("lesson-real").hidden = false;
    el("lesson-end").textContent = step.text;
  }
}

async function explain(view) {
  if (view.to_move !== 0 && !view.over) return; // the lesson speaks at South's turns
  const mine = ++asked;
  let data;
  try {
    data = await api("GET", `/api/games/${session.id}/lesson`);
  } catch (err) {
    return; // the table says what went wrong; the lesson waits for the next view
  }
  if (mine !== asked) return;
  version = data.version;
  // a few tricks in, the rest of the deal may be played for the player (the lesson is said)
  el("lesson-finish").hidden = view.over || view.tricks.length < FINISH_AFTER;
  loadRead();
  // what is new first; else what explains this decision again (following suit...)
  queue = data.steps.filter((s) => !read.keys.has(s.key));
  if (!queue.length) queue = data.steps.filter((s) => s.again).slice(-1);
  if (queue.length) say(0);
  else mark([]);
  el("lesson").dataset.told = String(++told); // views explained (the tests wait on it)
}

// Play the rest of the deal for the player (the server's lesson AI in South's seat), then
// show the finished deal as a reload does: its log, its result.
async function finish() {
  const button = el("lesson-finish");
  button.disabled = true;
  try {
    await api("POST", `/api/games/${session.id}/lesson/finish`, { version });
    location.reload();
  } catch (err) {
    el("lesson-text").textContent = err.message;
    button.disabled = false;
  }
}

// A first visit to a game's play page offers its guided deal, once (a deal saved before
// means the page was visited); not at a friends' table, where friends wait to play.
function offer() {
  const visited = localStorage.getItem(OFFERED) || localStorage.getItem(`tarocchi-${GAME}`);
  localStorage.setItem(OFFERED, "yes");
  if (visited || new URLSearchParams(location.search).has("table")) return;
  const box = el("learn-offer");
  box.hidden = false;
  const close = () => { box.hidden = true; };
  el("learn-offer-close").addEventListener("click", close);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
}

if (root.dataset.lesson !== undefined) {
  localStorage.setItem(OFFERED, "yes");
  root.addEventListener("tarocchi-view", (e) => explain(e.detail));
  el("lesson-next").addEventListener("click", () => say(at + 1));
  el("lesson-finish").addEventListener("click", finish);
} else {
  offer();
}
