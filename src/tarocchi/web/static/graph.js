// The review's graph as an inline SVG: South's team's estimated final margin before and after
// each of South's decisions and at the end, over the deal's actions, the tricks marked on the
// x axis; each point is a button that opens the replay at its trick; each move as large as a
// mistake is numbered where it happens, as in the list that says what caused it.

import { _ } from "./i18n.js";
import { inUnit, signedNumber } from "./common.js";

const NS = "http://www.w3.org/2000/svg";
const PAD = { left: 46, right: 12, top: 22, bottom: 34 };
const LABEL_PX = 22; // the least room a trick number's label needs on the x axis
// the marks of a decision, by what it cost (the review's thresholds), in the reader's language
export const MARKS = {
  best: _("best"), good: _("good"), inaccuracy: _("inaccuracy"), mistake: _("mistake"),
  blunder: _("blunder"), forced: _("forced"), close: _("close"),
};

// when a decision or a point falls in the deal: its trick, or before the first trick (0)
export function when(trick) {
  return trick ? _("Trick %(trick)s", { trick }) : _("Before the first trick");
}

function svg(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

function text(parent, x, y, content, cls) {
  svg("text", { x, y, class: cls }, parent).textContent = content;
}

// the record's place of each trick's first card: its actions matched in order to the tricks'
// plays (a declaration or a discard is never a trick's card)
export function trickStarts(record) {
  const starts = [];
  let t = 0;
  let p = 0;
  record.actions.forEach((a, i) => {
    const trick = record.tricks[t];
    if (!trick) return;
    const play = trick.plays[p];
    if (a.seat !== play.seat || a.action !== play.card) return;
    if (p === 0) starts.push(i);
    p += 1;
    if (p === trick.plays.length) [t, p] = [t + 1, 0];
  });
  return starts;
}

// round tick steps (1, 2 or 5 times a power of ten), about four, the first and the last
// enclosing the range
function ticks(lo, hi) {
  const raw = (hi - lo) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  const last = Math.ceil(hi / step - 1e-9) * step;
  for (let v = Math.floor(lo / step + 1e-9) * step; v <= last + step / 2; v += step) out.push(Math.round(v * 100) / 100);
  return out;
}

function pointLabel(p, mark, unit) {
  const value = inUnit(p.value, unit, signedNumber.format(p.value));
  if (p.kind === "end") return _("End of the deal: %(value)s", { value });
  const vars = { when: when(p.trick), value, mark };
  return p.kind === "turn" ? _("%(when)s, before your choice: %(value)s", vars)
    : _("%(when)s, after your choice (%(mark)s): %(value)s", vars);
}

function drawAxes(g, scale, marks, unit) {
  const { x, y, yTicks, w, h } = scale;
  const axes = svg("g", { class: "graph-axes", "aria-hidden": "true" }, g);
  for (const v of yTicks) {
    svg("line", { x1: PAD.left, x2: w - PAD.right, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "grid" }, axes);
    text(axes, PAD.left - 6, y(v) + 4, signedNumber.format(v), "y-tick");
  }
  const { starts, last } = marks;
  const every = Math.max(1, Math.ceil(LABEL_PX / ((w - PAD.left - PAD.right) / Math.max(1, starts.length))));
  starts.forEach((s, i) => {
    svg("line", { x1: x(s), x2: x(s), y1: PAD.top, y2: h - PAD.bottom, class: "trick-line" }, axes);
    const next = i + 1 < starts.length ? starts[i + 1] : last;
    if (i % every === 0) text(axes, (x(s) + x(next)) / 2, h - PAD.bottom + 14, String(i + 1), "x-tick");
  });
  svg("line", { x1: PAD.left, x2: w - PAD.right, y1: h - PAD.bottom, y2: h - PAD.bottom, class: "axis" }, axes);
  svg("line", { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: h - PAD.bottom, class: "axis" }, axes);
  text(axes, (PAD.left + w - PAD.right) / 2, h - 4, _("Trick"), "x-title");
  text(axes, 4, 13, unit === "resti" ? _("Margin in resti") : _("Margin in points"), "y-title");
}

function drawPoint(g, p, at, label, onPick) {
  const node = svg("g", { class: `graph-point kind-${p.kind} ${at.mark ? `mark-${at.mark}` : ""}`.trim(),
    tabindex: "-1", role: "button", "aria-label": label, "data-trick": p.trick, "data-kind": p.kind }, g);
  svg("title", {}, node).textContent = label;
  svg("circle", { cx: at.x, cy: at.y, r: 11, class: "hit" }, node);
  svg("circle", { cx: at.x, cy: at.y, r: p.kind === "end" ? 6 : 4.5, class: "dot" }, node);
  const pick = () => onPick(p.trick);
  node.addEventListener("click", pick);
  node.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    pick();
  });
}

// One stop for Tab among the points (the first), the arrow keys, Home and End moving between
// them.
function rove(group) {
  const nodes = [...group.children];
  if (nodes.length) nodes[0].setAttribute("tabindex", "0");
  group.addEventListener("keydown", (e) => {
    const i = nodes.indexOf(e.target.closest(".graph-point"));
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: nodes.length - 1 }[e.key];
    if (i < 0 || to === undefined) return;
    e.preventDefault();
    const next = nodes[Math.max(0, Math.min(nodes.length - 1, to))];
    nodes[i].setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });
}

// the number of each large move (a swing) at the middle of its stretch, its label the causes
function drawSwings(g, r, scale, labels, onPick) {
  const group = svg("g", { class: "graph-swings" }, g);
  (r.swings || []).forEach((s, i) => {
    const trick = s.causes.length ? s.causes[0].trick : 1;
    const label = _("Move %(n)s: %(what)s", { n: i + 1, what: labels[i] });
    const node = svg("g", { class: `graph-swing ${s.after < s.before ? "down" : "up"}`, role: "img",
      "aria-label": label, "data-trick": trick }, group);
    svg("title", {}, node).textContent = label;
    const [cx, cy] = [scale.x((s.start + s.end) / 2), scale.y((s.before + s.after) / 2)];
    svg("rect", { x: cx - 8, y: cy - 8, width: 16, height: 16, rx: 3, class: "swing-box" }, node);
    text(node, cx, cy + 4, String(i + 1), "swing-number");
    node.addEventListener("click", () => onPick(trick));
  });
}

// Return the graph of a review as an SVG element of a width (px), its points calling
// onPick(trick), its large moves numbered and labelled (labels: their text, in order).
export function drawGraph(r, record, width, onPick, labels = []) {
  const w = Math.max(240, width);
  const h = w < 500 ? 220 : 260;
  const last = record.actions.length;
  const values = [0, ...r.graph.map((p) => p.value)];
  let [lo, hi] = [Math.min(...values), Math.max(...values)];
  if (hi - lo < 1) [lo, hi] = [lo - 1, hi + 1];
  const yTicks = ticks(lo, hi);
  [lo, hi] = [yTicks[0], yTicks[yTicks.length - 1]];
  const x = (i) => PAD.left + (i / Math.max(1, last)) * (w - PAD.left - PAD.right);
  const y = (v) => PAD.top + ((hi - v) / (hi - lo)) * (h - PAD.top - PAD.bottom);
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: "graph", role: "group",
    "aria-label": _("The graph of the deal: one point before and after each of your decisions, and the end") });
  drawAxes(root, { x, y, yTicks, w, h }, { starts: trickStarts(record), last }, r.unit);
  const line = r.graph.map((p) => `${x(p.index).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  svg("polyline", { points: line, class: "graph-line" }, root);
  drawSwings(root, r, { x, y }, labels, onPick);
  const marks = new Map(r.decisions.map((d) => [d.index + 1, d.mark]));
  const points = svg("g", { class: "graph-points" }, root);
  for (const p of r.graph) {
    const mark = p.kind === "choice" ? marks.get(p.index) : null;
    const label = pointLabel(p, mark ? MARKS[mark] || mark : "", r.unit);
    drawPoint(points, p, { x: x(p.index), y: y(p.value), mark }, label, onPick);
  }
  rove(points);
  return root;
}
