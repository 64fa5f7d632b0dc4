// Small helpers shared by the study pages (analysis board, puzzles, lessons).
import { t } from "./i18n.js";

// An element with properties (text, class, onclick, attributes) and children.
export function node(tag, props = {}, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") n.textContent = v;
    else if (k === "class") n.className = v;
    else if (k === "onclick") n.addEventListener("click", v);
    else n.setAttribute(k, v === true ? "" : v);
  }
  n.append(...kids.flat().filter((c) => c !== null && c !== undefined));
  return n;
}

// A request with a JSON body (or ``raw`` text) and a JSON answer; a refusal throws an Error
// with the server's words.
export async function request(method, path, body, raw = false) {
  const type = raw ? "text/plain" : "application/json";
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": type },
    body: body === undefined || raw ? body : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    let detail = data?.detail ?? t("The request failed (%(status)s).", { status: res.status });
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg).join("; ");
    throw new Error(detail);
  }
  return data;
}

// Scroll ``item`` into view inside its list (``list`` scrolls itself), never the page: stepping
// through a game keeps the board where the player looks.
export function scrollWithin(list, item) {
  if (!list || !item) return;
  const box = list.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < box.top) list.scrollTop -= box.top - r.top;
  else if (r.bottom > box.bottom) list.scrollTop += r.bottom - box.bottom;
}

// The header's height as --header-h, for the study pages' boards that stay in view below it.
export function trackHeader() {
  const header = document.querySelector(".topbar");
  if (!header) return;
  const set = () => document.documentElement.style.setProperty("--header-h", `${header.offsetHeight}px`);
  set();
  new ResizeObserver(set).observe(header);
}

// A zoom for boards whose text is too small to read on a phone: the board grows until its
// smallest text is 12 CSS px high (at least twice), and its frame scrolls. Another tap undoes it.
export function zoomable(wrap) {
  if (!wrap || wrap.querySelector(".board-zoom")) return;
  const button = node("button", { type: "button", class: "btn icon board-zoom", "aria-pressed": "false", title: wrap.dataset.zoomIn || t("Zoom the board"), "aria-label": wrap.dataset.zoomIn || t("Zoom the board") }, "⤢");
  button.addEventListener("click", (e) => {
    e.stopPropagation();
    const on = !wrap.classList.contains("zoomed");
    wrap.style.removeProperty("--zoom");
    if (on) {
      const heights = [...wrap.querySelectorAll(".board svg text")].map((t) => t.getBoundingClientRect().height).filter((h) => h > 0);
      const smallest = heights.length ? Math.min(...heights) : 6;
      wrap.style.setProperty("--zoom", String(Math.min(4, Math.max(2, 13 / smallest))));
    }
    wrap.classList.toggle("zoomed", on);
    button.setAttribute("aria-pressed", String(on));
  });
  wrap.append(button);
}

// Board elements a click narrows the moves by (cells, coins in a tray, tiles).
const CLICKABLE = ["data-place", "data-token", "data-size", "data-coin", "data-tile"];
const words = (move) => move.toLowerCase().split(/\s+/);

// A click on the board among ``legal`` moves, ``picked`` tokens so far: the tokens picked now
// and the moves naming all of them (null when the click was on nothing that names a move).
export function narrowByClick(e, legal, picked) {
  const target = e.target.closest(CLICKABLE.map((a) => `[${a}]`).join(","));
  if (!target) return null;
  const attr = CLICKABLE.find((a) => target.hasAttribute(a));
  const token = target.getAttribute(attr).toLowerCase();
  const tokens = picked.includes(token) ? picked : [...picked, token];
  const matching = legal.filter((m) => tokens.every((t) => words(m).includes(t)));
  if (matching.length) return { picked: tokens, matching };
  return { picked: [token], matching: legal.filter((m) => words(m).includes(token)) };
}

// Show the picked tokens on the board.
export function markPicked(board, picked) {
  for (const n of board.querySelectorAll(".pz-selected")) n.classList.remove("pz-selected");
  for (const t of picked) {
    for (const a of CLICKABLE) {
      for (const n of board.querySelectorAll(`[${a}]`)) {
        if (n.getAttribute(a).toLowerCase() === t) n.classList.add("pz-selected");
      }
    }
  }
}

// The legal moves as buttons, narrowed by clicks on the board (a cell, a coin, a tile: the
// moves naming all of them; when one is left it is played), and a typed move with
// suggestions. ``play(move)`` is called with the move chosen.
export class MovePicker {
  constructor({ board, choices, form, input, datalist, play }) {
    Object.assign(this, { board, choices, input, datalist, play });
    this.legal = [];
    this.picked = [];
    this.locked = false;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const move = input.value.trim();
      if (move && !this.locked) play(move);
    });
    board.addEventListener("click", (e) => this.boardClick(e));
  }

  set(legal) {
    this.legal = legal;
    this.picked = [];
    this.locked = false;
    this.input.value = "";
    this.input.disabled = false;
    this.datalist.replaceChildren(...legal.map((m) => node("option", { value: m })));
    this.render();
  }

  lock() {
    this.locked = true;
    this.input.disabled = true;
    this.render();
  }

  render() {
    const shown = this.legal.filter((m) => this.picked.every((t) => words(m).includes(t)));
    this.choices.replaceChildren(
      ...shown.map((m) =>
        node("button", { type: "button", class: "btn an-choice", "data-move": m, disabled: this.locked, onclick: () => this.play(m) }, node("span", { class: "notation" }, m)),
      ),
    );
    if (this.picked.length) {
      const all = node("button", { type: "button", class: "btn ghost", onclick: () => { this.picked = []; this.mark(); this.render(); } }, t("show all"));
      this.choices.prepend(node("p", { class: "small muted" }, t("Moves with %(picked)s", { picked: this.picked.join(" + ") }), " ", all));
    }
    return shown;
  }

  boardClick(e) {
    if (this.locked || !this.legal.length) return;
    const got = narrowByClick(e, this.legal, this.picked);
    if (!got) return;
    this.picked = got.picked;
    this.mark();
    const shown = this.render();
    if (shown.length === 1) this.play(shown[0]);
  }

  mark() { markPicked(this.board, this.picked); }
}

// A verdict box: right (green), wrong (red) or a refusal (plain), in words.
export function verdict(box, result, text) {
  box.hidden = false;
  box.className = `pz-feedback ${result === "error" ? "" : result}`;
  box.dataset.result = result;
  box.textContent = text;
}
