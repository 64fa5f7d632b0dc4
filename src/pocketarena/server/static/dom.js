// The pages' one DOM helper: el() makes an element, $ and $$ find them, toast() says something
// for a moment; and the small behaviours several pages share (a list that scrolls itself, the
// header's height, a board's zoom, a verdict box).
import { t } from "./i18n.js";

// What the server put in the page for its scripts (the game, the visitor, the catalog...).
export const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

// An element with properties (text, class, on<event> handlers, attributes) and children;
// null, undefined and false leave a property or a child out.
export function el(tag, props = {}, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") n.textContent = v;
    else if (k === "class") n.className = v;
    else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
    else n.setAttribute(k, v === true ? "" : v);
  }
  n.append(...kids.flat().filter((c) => c !== null && c !== undefined));
  return n;
}

// A line in the corner for a few seconds (an error is read out at once).
export function toast(message, kind = "info", ms = 4000) {
  const box = $("#toasts");
  if (!box) return;
  const line = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", text: message });
  box.append(line);
  setTimeout(() => line.remove(), ms);
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
  const button = el("button", { type: "button", class: "btn icon board-zoom", "aria-pressed": "false", title: wrap.dataset.zoomIn || t("Zoom the board"), "aria-label": wrap.dataset.zoomIn || t("Zoom the board") }, "⤢");
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

// A verdict box: right (green), wrong (red) or a refusal (plain), in words.
export function verdict(box, result, text) {
  box.hidden = false;
  box.className = `pz-feedback ${result === "error" ? "" : result}`;
  box.dataset.result = result;
  box.textContent = text;
}
