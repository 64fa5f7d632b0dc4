// The board's elements and the keyboard on them. A drawing marks what a player can pick with
// one attribute (cells and spaces data-place; coins or tiles in a tray data-token, data-size,
// data-coin or data-tile) and, for a tray, whose it is (data-seat, or data-colour naming the
// seat). On a live board one element is in the tab order and the arrow keys move it.
import { $, $$ } from "./dom.js";

export const CLICKABLE = ["data-place", "data-token", "data-size", "data-coin", "data-tile"];
export const CLICK_SELECTOR = CLICKABLE.map((a) => `[${a}]`).join(",");
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// The notation's word for a board element ("b2", "L", "tank").
export function tokenOf(node) {
  for (const a of CLICKABLE) if (node.hasAttribute(a)) return node.getAttribute(a);
  return null;
}

// The seat a tray item belongs to, or null for what is everyone's (the cells).
export function ownerOf(node, seatNames) {
  const owned = node.closest("[data-seat], [data-colour]");
  if (!owned) return null;
  if (owned.hasAttribute("data-seat")) return Number(owned.getAttribute("data-seat"));
  const i = seatNames.findIndex((n) => n.toLowerCase() === owned.getAttribute("data-colour").toLowerCase());
  return i >= 0 ? i : null;
}

// The name of a board element in the game's words: the renderer's data-label, else its title.
export function labelOf(node) {
  return node.getAttribute("data-label") || node.querySelector(":scope > title")?.textContent || tokenOf(node) || "";
}

function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// The element nearest to `from` in direction (dx, dy), or null: distance along the direction
// plus twice the distance across it, so a straight neighbour beats a diagonal one.
export function nearestInDirection(from, nodes, dx, dy) {
  const a = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const n of nodes) {
    if (n === from) continue;
    const b = centre(n);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 2) continue;
    const across = Math.abs((b.x - a.x) * dy - (b.y - a.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) { best = n; bestScore = score; }
  }
  return best;
}

// A live board as a group of buttons, with one tab stop that stays where the keyboard last was
// (across redraws: by token and owner). Enter or Space activates an element, Escape clears.
export class BoardKeys {
  constructor(board, { seatNames, activate, clear }) {
    Object.assign(this, { board, seatNames, activate, clear });
    this.key = null; // the element the keyboard is on: "token|owner"
    board.addEventListener("keydown", (e) => this.onKey(e));
    board.addEventListener("focusin", (e) => {
      const node = e.target.closest?.(CLICK_SELECTOR);
      if (node && board.contains(node)) this.rove(node);
    });
  }

  nodes() { return $$(CLICK_SELECTOR, this.board); }

  keyOf(node) { return `${tokenOf(node)}|${ownerOf(node, this.seatNames()) ?? ""}`; }

  // After each drawing: the parts are buttons with their names (a picture's parts are hidden
  // from assistive technology), the tab stop where it was.
  decorate() {
    $("svg", this.board)?.setAttribute("role", "group");
    for (const node of this.nodes()) {
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "-1");
      node.setAttribute("aria-label", labelOf(node));
      $(":scope > title", node)?.remove(); // the label says it; a title would repeat it
    }
    const start = this.nodeFor(this.key) || this.nodes()[0];
    if (start) start.setAttribute("tabindex", "0");
  }

  rove(node) {
    for (const n of $$('[tabindex="0"]', this.board)) if (n !== node) n.setAttribute("tabindex", "-1");
    node.setAttribute("tabindex", "0");
    this.key = this.keyOf(node);
  }

  nodeFor(key) {
    if (!key) return null;
    return this.nodes().find((n) => this.keyOf(n) === key) || null;
  }

  // The keyboard back on the board: where it was, else on a highlighted place, else the first.
  restore() {
    const node = this.nodeFor(this.key) || $(".pa-target", this.board) || $(CLICK_SELECTOR, this.board);
    if (node) { this.rove(node); node.focus({ preventScroll: true }); }
  }

  // The element an arrow key moves to from ``node`` (null at the edge).
  arrowFrom(node, key) {
    const [dx, dy] = ARROWS[key];
    return nearestInDirection(node, this.nodes(), dx, dy);
  }

  onKey(e) {
    const node = e.target.closest?.(CLICK_SELECTOR);
    if (!node || !this.board.contains(node)) return;
    if (ARROWS[e.key]) {
      e.preventDefault();
      const next = this.arrowFrom(node, e.key);
      if (next) { this.rove(next); next.focus({ preventScroll: false }); }
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.activate(node);
    } else if (e.key === "Escape") {
      e.preventDefault();
      this.clear();
      node.focus();
    }
  }
}
