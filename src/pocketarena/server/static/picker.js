// The one move picker, for the game page and the study pages (puzzles, lessons, the analysis
// board): the legal moves narrowed by what the player picks, on the board (a cell, a coin, a
// tile) or among buttons (a rotation). When one move is left it is played.
//
// The game page picks in the notation's order ("place", then the tile, the cell, the rotation:
// each pick offers the next words); the study pages in any order (a cell narrows to the moves
// there, whatever comes first in their text). A pick that no move continues starts afresh
// from it; in order, a token no move begins with is refused (null), and the page says why.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { CLICKABLE, CLICK_SELECTOR, tokenOf } from "./board.js";

const same = (a, b) => a.toLowerCase() === b.toLowerCase();

// A move as the picker reads it: {text, verb, tokens}; text alone (as the state message and
// the study pages send it) is read as its words, the first of them the verb.
export function asMove(m) {
  if (typeof m !== "string") return m;
  const words = m.trim().split(/\s+/);
  return { text: m, verb: words[0], tokens: words.slice(1) };
}

export class Picks {
  constructor({ inOrder = false } = {}) {
    this.inOrder = inOrder;
    this.legal = [];
    this.picked = [];
  }

  set(legal) { this.legal = legal.map(asMove); this.picked = []; }

  clear() { this.picked = []; }

  // The moves naming every one of ``picked``: as their first words, or anywhere.
  matching(picked = this.picked) {
    return this.legal.filter((m) => (this.inOrder
      ? picked.every((p, i) => m.tokens[i] !== undefined && same(m.tokens[i], p))
      : picked.every((p) => m.tokens.some((w) => same(w, p)))));
  }

  // The words that can be picked next (in order), and the moves with nothing left to pick.
  next() {
    const depth = this.picked.length;
    return new Set(this.matching().filter((m) => m.tokens.length > depth).map((m) => m.tokens[depth]));
  }

  complete() { return this.matching().filter((m) => m.tokens.length === this.picked.length); }

  // ``token`` picked: the moves left (null, and nothing changed, when no move takes it).
  pick(token) {
    if (!this.inOrder && this.picked.some((p) => same(p, token))) return this.matching();
    const more = [...this.picked, token];
    if (this.matching(more).length) this.picked = more;
    else if (this.matching([token]).length || !this.inOrder) this.picked = [token];
    else return null;
    return this.matching();
  }

  // What a pick of ``token`` would leave, without picking it.
  after(token) {
    const saved = this.picked;
    const left = this.pick(token);
    this.picked = saved;
    return left;
  }
}

// A click on the board: the word of the element clicked (null when it names nothing).
export function clickedToken(e) {
  const target = e.target.closest(CLICK_SELECTOR);
  return target ? tokenOf(target) : null;
}

// The picked words marked on a study board.
export function markPicked(board, picked) {
  for (const n of board.querySelectorAll(".pz-selected")) n.classList.remove("pz-selected");
  for (const p of picked) {
    for (const a of CLICKABLE) {
      for (const n of board.querySelectorAll(`[${a}]`)) if (same(n.getAttribute(a), p)) n.classList.add("pz-selected");
    }
  }
}

// A click on the board among ``legal`` moves (text), ``picked`` words so far: the words picked
// now and the moves naming all of them (null when the click was on nothing that names a move).
export function narrowByClick(e, legal, picked) {
  const token = clickedToken(e);
  if (!token) return null;
  const picks = new Picks();
  picks.set(legal);
  picks.picked = picked;
  const matching = picks.pick(token);
  return { picked: picks.picked, matching: matching.map((m) => m.text) };
}

// The study pages' view of the picker: the legal moves as buttons (narrowed by clicks on the
// board), and a typed move with suggestions. ``play(move)`` is called with the move chosen.
export class MovePicker {
  constructor({ board, choices, form, input, datalist, play }) {
    Object.assign(this, { board, choices, input, datalist, play });
    this.picks = new Picks();
    this.locked = false;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const move = input.value.trim();
      if (move && !this.locked) play(move);
    });
    board.addEventListener("click", (e) => this.boardClick(e));
  }

  set(legal) {
    this.picks.set(legal);
    this.locked = false;
    this.input.value = "";
    this.input.disabled = false;
    this.datalist.replaceChildren(...legal.map((m) => el("option", { value: m })));
    this.render();
  }

  lock() {
    this.locked = true;
    this.input.disabled = true;
    this.render();
  }

  render() {
    const shown = this.picks.matching().map((m) => m.text);
    this.choices.replaceChildren(
      ...shown.map((m) =>
        el("button", { type: "button", class: "btn an-choice", "data-move": m, disabled: this.locked, onclick: () => this.play(m) }, el("span", { class: "notation" }, m)),
      ),
    );
    const picked = this.picks.picked;
    if (picked.length) {
      const all = el("button", { type: "button", class: "btn ghost", onclick: () => { this.picks.clear(); this.mark(); this.render(); } }, t("show all"));
      this.choices.prepend(el("p", { class: "small muted" }, t("Moves with %(picked)s", { picked: picked.join(" + ") }), " ", all));
    }
    return shown;
  }

  boardClick(e) {
    if (this.locked || !this.picks.legal.length) return;
    const token = clickedToken(e);
    if (!token) return;
    this.picks.pick(token);
    this.mark();
    const shown = this.render();
    if (shown.length === 1) this.play(shown[0]);
  }

  mark() { markPicked(this.board, this.picks.picked); }
}
