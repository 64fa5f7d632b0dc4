// The replay page's game analysis: ask for it, follow its progress, then mark each move (?!
// inaccuracy, ? mistake, ?? blunder), name the better move with its own value and, apart, what
// the played move gave away, and draw the first seat's expected score across the game (every
// number on that one scale). Also keeps the "Analyse this position" link on the ply the replay
// shows. The words come from the page (#ga-words, translated there).
import { api } from "./http.js";
import { t as tr } from "./i18n.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
const WORDS = JSON.parse(document.getElementById("ga-words")?.textContent || "{}");
const $ = (sel) => document.querySelector(sel);
const word = (key, params = {}) => (WORDS[key] || key).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
const MARK_CLASS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };
const num = (x) => Number(x).toFixed(2);

function outcomeText(d, seats) {
  const o = d.outcome || { kind: "expected", value: d.best_value };
  const params = { ...o, first: seats[0] };
  if ("seat" in o) params.seat = seats[o.seat];
  if ("value" in o) params.value = num(o.value);
  return word(o.kind, params);
}
const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 600;

function svg(tag, attrs = {}, ...kids) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  n.append(...kids);
  return n;
}

function say(text) { $("#ga-status").textContent = text; }

const call = (method, path) => api(path, { method });

const view = DATA.game;
const gameId = view.id;
const plies = view.history.length;

function showPly(ply) {
  const link = $("#ga-board-link");
  if (link) link.href = `/analysis?game=${gameId}&ply=${ply}`;
  const cursor = $("#ga-graph .ga-cursor");
  if (cursor) { const x = xOf(ply); cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
}

// Follow the replay's board (it sets data-ply on each move) without touching its code.
const board = $("#board");
new MutationObserver(() => showPly(Number(board.dataset.ply || 0))).observe(board, { attributes: true, attributeFilter: ["data-ply"] });

const W = 320, H = 130, PAD = 14;
const xOf = (ply) => PAD + ((W - 2 * PAD) * ply) / Math.max(1, plies);
const yOf = (expected) => PAD + (H - 2 * PAD) * (1 - expected);

function goTo(ply) {
  const li = document.querySelector(`#moves li[data-ply="${ply}"]`);
  if (li) li.click();
  else if (ply === 0) $("#rp-start")?.click();
}

function graph(analysis) {
  const points = analysis.graph.map((p) => ({ ply: p.ply === null ? plies : p.ply, expected: p.expected }));
  const path = points.map((p, i) => `${i ? "L" : "M"}${xOf(p.ply).toFixed(1)},${yOf(p.expected).toFixed(1)}`).join(" ");
  const mid = yOf(0.5);
  const area = `${path} L${xOf(points[points.length - 1].ply).toFixed(1)},${mid} L${xOf(points[0].ply).toFixed(1)},${mid} Z`;
  const [first, second] = analysis.seats;
  const marks = analysis.decisions.filter((d) => d.mark).map((d) => {
    const before = points.find((p) => p.ply === d.ply - 1);
    const dot = svg("circle", { cx: xOf(d.ply - 1), cy: yOf(before ? before.expected : 0.5), r: 4, class: `ga-${MARK_CLASS[d.mark]}`, "data-ply": d.ply, tabindex: 0, role: "button" },
      svg("title", {}, document.createTextNode(`${d.ply}. ${d.move} ${d.mark} (${d.seat_name}); ${word("better", { move: d.best, value: outcomeText(d, analysis.seats) })}; ${word("gave_away", { loss: num(d.loss) })}`)));
    dot.addEventListener("click", (e) => { e.preventDefault(); goTo(d.ply); });
    dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); goTo(d.ply); } });
    return dot;
  });
  const hits = points.map((p) => {
    const r = svg("rect", { x: xOf(p.ply) - 4, y: PAD, width: 8, height: H - 2 * PAD, fill: "transparent" },
      svg("title", {}, document.createTextNode(word("point", { n: p.ply + 1, first, value: num(p.expected) }))));
    r.addEventListener("click", (e) => { e.preventDefault(); goTo(p.ply); });
    return r;
  });
  const label = word("graph", { first, second });
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "ga-graph", id: "ga-graph", role: "img", "aria-label": label },
    svg("title", {}, document.createTextNode(label)),
    svg("line", { x1: PAD, x2: W - PAD, y1: mid, y2: mid, class: "ga-mid" }),
    svg("path", { d: area, class: "ga-area" }),
    svg("path", { d: path, class: "ga-line" }),
    svg("text", { x: PAD, y: PAD - 3 }, document.createTextNode(word("top", { seat: first }))),
    svg("text", { x: PAD, y: H - 2 }, document.createTextNode(word("top", { seat: second }))),
    svg("line", { x1: xOf(0), x2: xOf(0), y1: PAD, y2: H - PAD, class: "ga-cursor" }),
    ...hits, ...marks);
}

function markMoves(analysis) {
  for (const span of document.querySelectorAll("#moves .ga-mark, #moves .ga-better")) span.remove();
  for (const d of analysis.decisions) {
    const li = document.querySelector(`#moves li[data-ply="${d.ply}"]`);
    if (!li || !d.mark) continue;
    const mark = document.createElement("span");
    mark.className = `ga-mark ${MARK_CLASS[d.mark]}`;
    mark.textContent = d.mark;
    mark.title = word(d.mark);
    li.querySelector(".mv")?.after(mark);
    const better = document.createElement("span");
    better.className = "ga-better";
    better.textContent = `${word("better", { move: d.best, value: outcomeText(d, analysis.seats) })} · ${word("gave_away", { loss: num(d.loss) })}`;
    li.append(better);
  }
}

// The analysis is stored with the seats' names as the game gives them ("Heads"): worded here in
// the reader's language ("Face"), as the game page words them.
function worded(analysis) {
  return {
    ...analysis,
    seats: analysis.seats.map((s) => tr(s)),
    summary: analysis.summary.map((s) => ({ ...s, name: tr(s.name) })),
    decisions: analysis.decisions.map((d) => ({ ...d, seat_name: tr(d.seat_name) })),
  };
}

function show(stored) {
  const analysis = worded(stored);
  const box = $("#ga-result");
  const depth = word(analysis.depth_name);
  const partly = !analysis.exact && analysis.decisions.some((d) => d.exact);
  const who = analysis.exact ? word("exact") : word(partly ? "partly_exact" : "by_bot", { analyst: analysis.analyst, depth });
  const t = analysis.thresholds || { "?!": 0.06, "?": 0.1, "??": 0.15 };
  const scale = document.createElement("p");
  scale.className = "ga-scale small";
  scale.id = "ga-scale";
  scale.textContent = word("scale", { first: analysis.seats[0], inaccuracy: num(t["?!"]), mistake: num(t["?"]), blunder: num(t["??"]) });
  const list = document.createElement("ul");
  list.className = "ga-summary";
  for (const s of analysis.summary) {
    const li = document.createElement("li");
    li.textContent = word("seat_summary", { name: s.name, inaccuracies: s.inaccuracies, mistakes: s.mistakes, blunders: s.blunders, loss: num(s.average_loss) });
    list.append(li);
  }
  const notes = [who];
  if (analysis.chance) notes.push(word("chance"));
  const p = document.createElement("p");
  p.className = "muted small";
  p.textContent = notes.join(" ");
  const parts = [graph(analysis), scale, list, p];
  if (analysis.rough) {
    const rough = document.createElement("p");
    rough.className = "ga-rough small";
    rough.id = "ga-rough";
    rough.textContent = word("rough");
    parts.push(rough);
  }
  box.replaceChildren(...parts);
  box.hidden = false;
  box.dataset.depth = String(analysis.depth);
  say(word("done", { n: analysis.decisions.length }));
  markMoves(analysis);
  showPly(Number(board.dataset.ply || 0));
}

async function follow(depth, started) {
  let status = started;
  for (;;) {
    if (status.status === "done") { show(status.analysis); break; }
    if (status.status === "failed") { say(word("failed", { error: status.error })); break; }
    if (status.status === "none") { say(""); break; }
    say(status.status === "queued" ? word("queued") : word("running", { done: status.done, total: status.total }));
    await new Promise((r) => setTimeout(r, POLL_MS));
    try { status = await call("GET", `/api/games/${gameId}/analysis?depth=${depth}`); } catch (err) { say(err.message); break; }
  }
  $("#ga-start").disabled = false;
}

async function start() {
  const depth = $("#ga-depth").value;
  $("#ga-start").disabled = true;
  try { await follow(depth, await call("POST", `/api/games/${gameId}/analysis?depth=${depth}`)); } catch (err) { say(err.message); $("#ga-start").disabled = false; }
}

if ($("#ga-start")) {
  $("#ga-start").addEventListener("click", start);
  $("#ga-depth").addEventListener("change", async () => {
    const depth = $("#ga-depth").value;
    $("#ga-result").hidden = true;
    for (const span of document.querySelectorAll("#moves .ga-mark, #moves .ga-better")) span.remove();
    try { await follow(depth, await call("GET", `/api/games/${gameId}/analysis?depth=${depth}`)); } catch (err) { say(err.message); }
  });
  call("GET", `/api/games/${gameId}/analysis?depth=1`).then((s) => follow(1, s)).catch(() => {});
}
showPly(Number(board.dataset.ply || 0));
