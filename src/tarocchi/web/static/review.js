// The review of a deal in the page: its progress, South's decisions with their marks, the
// fair and hindsight values kept apart, what each costly choice lost, the graph and what moved
// it, the key moments, and the AI on your cards (in the review and in the result dialog, with
// its first different choice and its own deal to step through). Each decision opens its
// position in the replay, and "Try again" plays on from it as a practice deal. The server
// values everything; this shows it.

import { _, ngettext } from "./i18n.js";
import { api, cardImg, cardName, el, inUnit, number, pack, session, signedNumber } from "./common.js";
import { fetchRecord, openReplay } from "./end.js";
import { table } from "./table.js";
import { MARKS, drawGraph, when } from "./graph.js";

const POLL_MS = 1000; // how often a running review is asked for its progress
// the AI line's waits between asks: quick at first, then slower, two minutes in all
const AI_POLL_MS = [1000, 1000, 2000, 2000, 3000, 3000, 5000, 5000, 8000, 10000, 10000, 15000, 15000, 20000, 20000];
const percent = new Intl.NumberFormat(document.documentElement.lang, { style: "percent" });
const LEVELS = { easy: _("easy"), normal: _("normal"), hard: _("hard") };

// the review of the game on the page: its id, the view it ends on, the last answer, the record
// (drawn: what the graph and the key moments were drawn from, so a poll that brings nothing
// new leaves them, and the reader's focus in them, alone)
const rv = { id: null, view: null, history: [], data: null, record: null, timer: null, drawn: {}, scroll: 0, round: 0 };
let aiFor = null; // the game whose AI line the result dialog shows or waits for

const signed = (value, unit) => inUnit(value, unit, signedNumber.format(value));
const amount = (value, unit) => inUnit(value, unit, number.format(value));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function resetReview() {
  clearTimeout(rv.timer);
  rv.round += 1;
  Object.assign(rv, { id: null, view: null, history: [], data: null, record: null, timer: null });
  aiFor = null;
  el("end-ai").hidden = true;
  el("review-dialog").close();
}

// -- the AI on your cards --------------------------------------------------------------------

function aiText(ai, unit) {
  const vars = { yours: signed(ai.yours, unit), ai: signed(ai.margin, unit),
    level: LEVELS[ai.level] || ai.level, by: amount(Math.abs(ai.yours - ai.margin), unit) };
  const line = ai.yours > ai.margin ? _("You %(yours)s, the AI in your seat (%(level)s) %(ai)s: you beat it by %(by)s.", vars)
    : ai.yours < ai.margin ? _("You %(yours)s, the AI in your seat (%(level)s) %(ai)s: it beat you by %(by)s.", vars)
      : _("You %(yours)s, the AI in your seat (%(level)s) %(ai)s: a tie.", vars);
  if (ai.diverged === null) return [line, _("It made every choice you made.")].join(" ");
  const first = ai.first;
  if (!first) return line;
  if (pack[first.ai] && pack[first.yours]) {
    return [line, _("Where it first chose otherwise (%(when)s), it played %(ai)s and you %(yours)s.", {
      when: when(first.trick), ai: cardName(first.ai), yours: cardName(first.yours) })].join(" ");
  }
  // a declaration or a pass: the server's words for it, as its button at the table says
  const named = (code, words) => (pack[code] ? cardName(code) : words);
  return [line, _("Where it first chose otherwise (%(when)s), the AI chose: %(ai)s. You chose: %(yours)s.", {
    when: when(first.trick), ai: named(first.ai, first.ai_words),
    yours: named(first.yours, first.yours_words) })].join(" ");
}

// the AI's own deal on your cards, in the replay, at the trick where it first chose otherwise
async function replayAi() {
  const first = rv.data && rv.data.ai && rv.data.ai.first;
  try {
    const deal = await api("GET", `/api/games/${rv.id}/review/ai`);
    rv.scroll = el("review-dialog").scrollTop;
    openReplay(rv.history, first ? first.trick : 1, { deal });
  } catch (err) {
    showFailure(_("The AI's deal is not available: %(reason)s", { reason: err.message }));
  }
}

// Show in the result dialog how the AI did on South's cards, asking the server a few times
// while it plays the deal again in the background.
export async function showAiLine(view) {
  const id = session.id;
  if (aiFor === id) return;
  aiFor = id;
  const line = el("end-ai");
  const unit = view.score ? view.score.unit : "points";
  line.hidden = false;
  line.textContent = _("The AI in your seat: computing…");
  for (const wait of AI_POLL_MS) {
    let data;
    try {
      data = await api("GET", `/api/games/${id}/review`);
    } catch (err) {
      if (aiFor === id) line.textContent = _("The AI in your seat: not available (%(reason)s).", { reason: err.message });
      return;
    }
    if (aiFor !== id) return;
    if (data.ai) {
      line.textContent = aiText(data.ai, unit);
      return;
    }
    if (data.status === "failed") {
      line.textContent = _("The AI in your seat: not available (%(reason)s).", { reason: data.error || data.status });
      return;
    }
    await sleep(wait);
    if (aiFor !== id) return;
  }
  line.textContent = _("The AI in your seat: not ready yet. The review shows it when it is.");
}

// -- opening the review and following its progress -------------------------------------------

// view: the deal's last view; history: its entries as the page's log told them (the replay's)
export async function openReview(view, history) {
  for (const id of ["end-dialog", "replay-dialog"]) el(id).close();
  const dialog = el("review-dialog");
  if (!dialog.open) dialog.showModal();
  if (rv.id !== session.id) {
    resetReviewView();
    Object.assign(rv, { id: session.id, data: null, record: null, scroll: 0 });
  }
  // back from the replay, the review stands where the reader left it
  el("review-title").focus({ preventScroll: true });
  dialog.scrollTop = rv.scroll;
  rv.view = view;
  rv.history = history;
  if (rv.data && rv.data.status === "done") return;
  showFailure("");
  if (!rv.data) setCount(_("Starting the review…"));
  try {
    rv.record = rv.record || await fetchRecord();
    await api("POST", `/api/games/${rv.id}/review`);
  } catch (err) {
    showFailure(_("The review could not start: %(reason)s", { reason: err.message }));
    return;
  }
  poll();
}

// Ask for the review's progress and draw it, again each POLL_MS while it runs and the dialog
// is open; one round of asking at a time (a newer round, or another game, ends an older one).
async function poll(round = ++rv.round) {
  clearTimeout(rv.timer);
  const id = rv.id;
  let data;
  try {
    data = await api("GET", `/api/games/${id}/review`);
  } catch (err) {
    if (round === rv.round) showFailure(_("The review is not available: %(reason)s", { reason: err.message }));
    return;
  }
  if (round !== rv.round || id !== rv.id) return;
  rv.data = data;
  draw(data);
  const running = data.status !== "done" && data.status !== "failed";
  if (running && el("review-dialog").open) rv.timer = setTimeout(() => poll(round), POLL_MS);
}

function setCount(text, done = null, total = null) {
  const bar = el("review-bar");
  if (total) {
    bar.max = total;
    bar.value = done;
  } else {
    bar.removeAttribute("value"); // an indeterminate bar until the count is known
  }
  el("review-count").textContent = text;
}

// Say why the review stopped (nothing: it goes on), with a button to ask for it again.
function showFailure(text) {
  el("review-progress").hidden = Boolean(text);
  el("review-error").hidden = !text;
  el("review-error").textContent = text;
  el("review-retry").hidden = !text;
  if (text) setCount("");
}

function resetReviewView() {
  el("review-body").hidden = true;
  for (const id of ["review-summary", "review-ai", "review-graph", "review-moments", "review-marks", "review-decisions"]) {
    el(id).replaceChildren();
  }
  rv.drawn = {};
}

// -- drawing an answer -----------------------------------------------------------------------

function draw(data) {
  const { status, done, total } = data;
  if (status === "failed") {
    showFailure(data.error ? _("The review failed: %(reason)s", { reason: data.error })
      : _("The review failed."));
  } else if (status === "done") {
    showFailure("");
    setCount(ngettext("All %(n)d decision valued.", "All %(n)d decisions valued.", total ?? done), done, total ?? done);
  } else if (total) {
    setCount(ngettext("%(done)s of %(n)d decision valued…", "%(done)s of %(n)d decisions valued…", total, { done }), done, total);
  } else {
    setCount(_("Waiting for the review to start…"));
  }
  if (data.ai) {
    // the result's line too, if it stopped asking before the AI had played
    const unit = rv.view && rv.view.score ? rv.view.score.unit : "points";
    el("end-ai").textContent = aiText(data.ai, unit);
    el("end-ai").hidden = false;
  }
  const r = data.review;
  el("review-body").hidden = !r;
  if (!r) return;
  el("review-summary").textContent = summary(r, status === "done");
  drawAi(data.ai, r.unit);
  drawMarks(r);
  drawSwings(r);
  drawMoments(r, status === "done");
  drawDecisions(r, status === "done");
  fitGraph();
}

function drawAi(ai, unit) {
  const box = el("review-ai");
  const key = JSON.stringify(ai);
  if (key === rv.drawn.ai) return;
  rv.drawn.ai = key;
  box.replaceChildren(ai ? aiText(ai, unit) : _("The AI in your seat: computing…"));
  if (ai && ai.diverged !== null) {
    const b = button(_("Step through the AI's deal"), replayAi);
    b.id = "review-ai-replay";
    box.append(" ", b);
  }
}

function button(text, onClick, cls = "button small secondary") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

// -- practice: play on from a decision ---------------------------------------------------------

// Start a practice deal at one of South's decisions (its place among them) and hand it to the
// table (play.js takes it up: a new game, South to act at that position).
async function tryAgain(decision, b) {
  b.disabled = true;
  try {
    const data = await api("POST", `/api/games/${rv.id}/practice`, { decision });
    document.dispatchEvent(new CustomEvent("tarocchi:practice", { detail: data }));
  } catch (err) {
    showFailure(_("Could not start a practice deal: %(reason)s", { reason: err.message }));
  } finally {
    b.disabled = false;
  }
}

function tryButton(decision) {
  const b = button(_("Try again from here"), () => tryAgain(decision, b));
  b.classList.add("try-again");
  b.hidden = table.seat !== 0; // a practice deal is South's, at a table the creator's
  return b;
}

function summary(r, done) {
  if (r.accuracy === null) return done ? _("None of your decisions was a real choice the search could value.") : "";
  const parts = [
    _("Accuracy: %(accuracy)s of your valued decisions were best or good; on average each cost %(cost)s.", {
      accuracy: percent.format(r.accuracy), cost: amount(r.average_cost, r.unit) }),
    _("The sum of the costs: %(cost)s, beside your team's final margin of %(margin)s.", {
      cost: amount(r.total_cost, r.unit), margin: signed(r.margin, r.unit) }),
  ];
  return done ? parts.join(" ") : [_("So far:"), ...parts].join(" ");
}

function markBadge(mark) {
  const span = document.createElement("span");
  span.className = `mark mark-${mark || "ranked"}`;
  span.textContent = mark ? MARKS[mark] || mark : _("not valued");
  return span;
}

function drawMarks(r) {
  const t = r.thresholds;
  const unit = (v) => amount(v, r.unit);
  const rows = [
    ["best", _("the highest valued choice, or a tie with it (within the search's noise, under %(cost)s)", { cost: unit(t.inaccuracy / 2) })],
    ["good", _("costs less than %(cost)s", { cost: unit(t.inaccuracy) })],
    ["inaccuracy", _("surely costs from %(from)s to less than %(to)s", { from: unit(t.inaccuracy), to: unit(t.mistake) })],
    ["mistake", _("surely costs from %(from)s to less than %(to)s", { from: unit(t.mistake), to: unit(t.blunder) })],
    ["blunder", _("surely costs %(cost)s or more", { cost: unit(t.blunder) })],
    ["close", _("costs %(cost)s or more, but not surely: too close to call", { cost: unit(t.inaccuracy) })],
    ["forced", _("the only legal choice: costs nothing")],
  ];
  const rule = document.createElement("li");
  rule.className = "marks-rule";
  rule.textContent = _("Surely: even less twice its spread (the search's noise in the difference from the best), the cost passes the inaccuracy threshold.");
  el("review-marks").replaceChildren(...rows.map(([mark, text]) => {
    const li = document.createElement("li");
    li.append(markBadge(mark), " ", text);
    return li;
  }), rule);
}

// the replay at the trick of a decision or a point (0: the hands as dealt), or at one of your
// decisions as you saw it (its position)
function replayAt(trick, position = null) {
  rv.scroll = el("review-dialog").scrollTop;
  openReplay(rv.history, trick, { position });
}

// the position of a decision (its place in the deal's log), as the review gives it
function positionOf(r, index) {
  return (r.positions || []).find((p) => p.index === index) || null;
}

// -- what moved the estimate -------------------------------------------------------------------

// A swing's causes worth naming: those as large as a mistake, largest first (else the largest).
function named(swing, threshold) {
  const causes = [...swing.causes].sort((a, b) => Math.abs(b.change) - Math.abs(a.change));
  const big = causes.filter((c) => Math.abs(c.change) >= threshold);
  return big.length ? big : causes.slice(0, 1);
}

export function swingText(swing, r) {
  const parts = named(swing, r.thresholds.mistake).map((c) => _("%(what)s: %(change)s", {
    what: c.label, change: signed(c.change, r.unit) }));
  return parts.join(_("; "));
}

function drawSwings(r) {
  const list = el("review-swings");
  const swings = r.swings || [];
  const key = JSON.stringify([swings, r.decisions.length]);
  if (key === rv.drawn.swings) return;
  rv.drawn.swings = key;
  if (!swings.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = _("No move of the graph as large as a mistake so far.");
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(...swings.map((s, i) => {
    const li = document.createElement("li");
    li.value = i + 1;
    const trick = s.causes.length ? s.causes[0].trick : 1;
    const b = button("", () => replayAt(trick), "moment swing");
    const head = document.createElement("span");
    head.className = "moment-head";
    head.textContent = _("%(when)s: %(change)s in all", { when: when(trick), change: signed(s.after - s.before, r.unit) });
    const why = document.createElement("span");
    why.className = "moment-why";
    why.textContent = swingText(s, r);
    b.append(head, why);
    li.append(b);
    return li;
  }));
}

function drawMoments(r, done) {
  const list = el("review-moments");
  const key = JSON.stringify([done, r.decisions.length > 0, r.key_moments]);
  if (key === rv.drawn.moments) return;
  rv.drawn.moments = key;
  if (!r.key_moments.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = done ? _("No inaccuracy or worse: no key moments in this deal.")
      : r.decisions.length ? _("No inaccuracy or worse so far.") : "";
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(...r.key_moments.map((k) => {
    const d = r.decisions[k.decision];
    const b = document.createElement("button");
    b.type = "button";
    b.className = "moment";
    b.dataset.trick = d.trick;
    const head = document.createElement("span");
    head.className = "moment-head";
    head.append(markBadge(k.mark), " ", _("%(when)s, cost %(cost)s", { when: when(d.trick), cost: amount(k.cost, r.unit) }));
    const why = document.createElement("span");
    why.className = "moment-why";
    why.textContent = k.reason;
    b.append(head, why);
    b.addEventListener("click", () => replayAt(d.trick, positionOf(r, d.index)));
    const li = document.createElement("li");
    li.append(b);
    li.append(tryButton(k.decision));
    return li;
  }));
}

// -- the decisions ---------------------------------------------------------------------------

// A translated sentence with page nodes (a card's picture and name) in its placeholders.
function sentence(template, parts) {
  const out = document.createDocumentFragment();
  template.split(/%\((\w+)\)s/).forEach((piece, i) => out.append(i % 2 ? parts[piece] : piece));
  return out;
}

function actionNode(code, d) {
  const span = document.createElement("span");
  span.className = "review-action";
  if (pack[code]) {
    const img = cardImg(code, "mini");
    img.alt = ""; // the name follows
    span.append(img, cardName(code));
  } else {
    // an action (a declaration, a pass): the server's sentence for it
    const c = d.choices.find((x) => x.action === code);
    span.textContent = c ? c.reason : code;
  }
  return span;
}

function playedLine(d) {
  const p = document.createElement("p");
  p.className = "decision-play";
  const parts = { made: actionNode(d.made, d), best: actionNode(d.best, d) };
  if (d.kind === "forced") {
    p.append(sentence(_("You played %(made)s, the only legal choice."), parts));
  } else if (d.kind === "heuristic") {
    const rank = d.choices.findIndex((c) => c.action === d.made) + 1;
    const chose = d.made === d.best ? _("You chose %(made)s, the heuristic player's first choice.")
      : _("You chose %(made)s; the heuristic player ranks first %(best)s.");
    p.append(sentence(chose, parts), " ",
      _("Ranked as hints are, not valued by the search: your choice is %(rank)s of %(n)s.", { rank, n: d.choices.length }));
  } else if (d.made === d.best) {
    p.append(sentence(_("You played %(made)s, the search's own choice."), parts));
  } else if (d.cost === 0) {
    p.append(sentence(_("You played %(made)s, worth as much as the search's choice, %(best)s."), parts));
  } else if (d.mark === "best") {
    p.append(sentence(_("You played %(made)s, a tie with the best, %(best)s: the difference is within the search's noise."), parts));
  } else {
    p.append(sentence(_("You played %(made)s; the best was %(best)s."), parts));
  }
  return p;
}

function valuePair(mine, best, same, unit, spread) {
  if (mine === null) return _("not valued");
  if (same || best === null) return signed(mine, unit);
  const vars = { value: signed(mine, unit), best: signed(best, unit) };
  if (!spread) return _("%(value)s (the best: %(best)s)", vars);
  return _("%(value)s (the best: %(best)s; their difference ± %(spread)s)", { ...vars, spread: amount(spread, unit) });
}

function valuesList(d, unit) {
  const made = d.choices.find((c) => c.action === d.made);
  const best = d.choices.find((c) => c.action === d.best);
  const dl = document.createElement("dl");
  dl.className = "review-values";
  const same = d.made === d.best;
  for (const [cls, term, value] of [
    ["fair", _("Fair value (what you could know)"), valuePair(made.fair, best.fair, same, unit, made.spread)],
    ["hindsight", _("Hindsight value (every card seen)"), valuePair(made.hindsight, best.hindsight, same, unit)],
  ]) {
    const dt = document.createElement("dt");
    dt.className = cls;
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.className = cls;
    dd.textContent = value;
    dl.append(dt, dd);
  }
  return dl;
}

function choicesTable(d, unit) {
  const details = document.createElement("details");
  const summaryEl = document.createElement("summary");
  summaryEl.textContent = ngettext("All %(n)d choice", "All %(n)d choices", d.choices.length);
  const table = document.createElement("table");
  table.className = "review-choices";
  const valued = d.kind !== "heuristic";
  // a card comes with the reason to play it; an action is its own sentence
  const why = d.choices.some((c) => pack[c.action]);
  const head = table.createTHead().insertRow();
  const cols = [_("Choice"), ...(valued ? [_("Fair"), _("Hindsight")] : []), ...(why ? [_("Why")] : [])];
  for (const h of cols) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const c of d.choices) {
    const row = body.insertRow();
    row.classList.toggle("made", c.action === d.made);
    const th = document.createElement("th");
    th.scope = "row";
    const card = Boolean(pack[c.action]);
    const what = card ? cardName(c.action) : c.reason;
    th.textContent = c.action === d.made ? _("%(choice)s (yours)", { choice: what }) : what;
    row.append(th);
    if (valued) {
      for (const v of [c.fair, c.hindsight]) row.insertCell().textContent = v === null ? "–" : signedNumber.format(v);
    }
    if (why) row.insertCell().textContent = card ? c.reason : "";
  }
  details.append(summaryEl, table);
  return details;
}

// what a costly choice lost, and what the best would have done
function lessonLine(d, lesson) {
  const p = document.createElement("p");
  p.className = "decision-lesson";
  const text = (t) => document.createTextNode(t);
  p.append(sentence(_("What came of it: %(made)s. With %(best)s: %(better)s."), {
    made: text(lesson.made), best: actionNode(d.best, d), better: text(lesson.best) }));
  return p;
}

function decisionItem(d, k, r, done) {
  const li = document.createElement("li");
  li.className = `decision mark-${d.mark || "ranked"}`;
  li.dataset.index = d.index;
  const head = document.createElement("p");
  head.className = "decision-head";
  const whenEl = document.createElement("strong");
  whenEl.textContent = when(d.trick);
  head.append(whenEl, " ", markBadge(d.mark));
  if (d.cost && d.kind === "searched") head.append(" ", _("cost %(cost)s", { cost: amount(d.cost, r.unit) }));
  li.append(head, playedLine(d));
  const lesson = (r.lessons || []).find((x) => x.decision === k);
  if (lesson) li.append(lessonLine(d, lesson));
  if (d.kind !== "heuristic") li.append(valuesList(d, r.unit));
  if (d.choices.length > 1) li.append(choicesTable(d, r.unit));
  const buttons = document.createElement("p");
  buttons.className = "decision-buttons";
  const position = positionOf(r, d.index);
  const show = button(_("Show the position"), () => replayAt(d.trick, position));
  show.classList.add("show-position");
  buttons.append(show);
  buttons.append(" ", tryButton(k));
  li.append(buttons);
  return li;
}

// a decision once valued stays as it is: only the new ones are added (an open list of
// choices stays open while the review goes on); once the review is done they are drawn again
// with what only the whole review knows (their lessons, "try again")
function drawDecisions(r, done) {
  const list = el("review-decisions");
  if (list.children.length > r.decisions.length || (done && !rv.drawn.decisionsDone)) list.replaceChildren();
  rv.drawn.decisionsDone = done;
  list.append(...r.decisions.slice(list.children.length).map((d, i) => decisionItem(d, list.children.length + i, r, done)));
}

// -- the graph, drawn to the width it has ----------------------------------------------------

function fitGraph() {
  const box = el("review-graph");
  const r = rv.data && rv.data.review;
  const key = r && `${box.clientWidth} ${r.graph.length} ${(r.swings || []).length}`;
  if (!r || !rv.record || !box.clientWidth || key === rv.drawn.graph) return;
  rv.drawn.graph = key;
  const labels = (r.swings || []).map((s) => swingText(s, r));
  box.replaceChildren(drawGraph(r, rv.record, box.clientWidth, replayAt, labels));
}

el("review-close").addEventListener("click", () => el("review-dialog").close());
el("review-retry").addEventListener("click", () => openReview(rv.view, rv.history));
el("review-replay").addEventListener("click", () => replayAt(1));
el("review-dialog").addEventListener("close", () => clearTimeout(rv.timer));
new ResizeObserver(fitGraph).observe(el("review-graph"));
