// The puzzles page: a position with one winning move; the player clicks or types a move, the
// solver judges it (right or wrong, in words and colour), shows its reply, and the next puzzle
// follows. The streak and the puzzle rating come back with every answer.

import { node, request as call } from "./dom.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
const $ = (sel) => document.querySelector(sel);
// Board elements a click narrows the moves by (cells, coins in a tray, tiles).
const CLICKABLE = ["data-place", "data-token", "data-size", "data-coin", "data-tile"];

function words(move) {
  return move.toLowerCase().split(/\s+/);
}

class Puzzles {
  constructor() {
    this.game = DATA.game || "";
    this.puzzle = null;
    this.done = false;
    this.picked = [];
    for (const r of document.querySelectorAll('input[name="pz-game"]')) {
      r.checked = r.value === this.game;
      r.addEventListener("change", () => {
        this.game = r.value;
        this.next();
      });
    }
    $("#pz-next").addEventListener("click", () => this.next());
    $("#pz-type").addEventListener("submit", (e) => {
      e.preventDefault();
      const move = $("#pz-move").value.trim();
      if (move) this.answer(move);
    });
    $("#board").addEventListener("click", (e) => this.boardClick(e));
    this.next();
  }

  async next() {
    const q = new URLSearchParams();
    if (this.game) q.set("game", this.game);
    if (this.puzzle) q.set("after", this.puzzle.id);
    try {
      const data = await call("GET", `/api/puzzles/next?${q}`);
      this.show(data.puzzle);
      this.standing(data.me, null);
    } catch (err) {
      this.feedback(false, err.message);
    }
  }

  show(p) {
    this.puzzle = p;
    this.done = false;
    this.picked = [];
    $("#pz-title").textContent = `Puzzle: ${p.title}`;
    $("#pz-meta").textContent = `${p.id} · rated ${p.rating}`;
    $("#pz-goal").textContent = p.goal;
    $("#board").innerHTML = p.svg;
    $("#pz-feedback").hidden = true;
    $("#pz-next").hidden = true;
    $("#pz-analyse").hidden = true;
    $("#pz-move").value = "";
    $("#pz-move").disabled = false;
    $("#pz-legal").replaceChildren(...p.legal.map((m) => node("option", { value: m })));
    document.querySelector("#puzzles").dataset.puzzle = p.id;
    this.choices();
  }

  choices() {
    const box = $("#pz-choices");
    const shown = this.puzzle.legal.filter((m) => this.picked.every((t) => words(m).includes(t)));
    box.replaceChildren(
      ...shown.map((m) =>
        node("button", { type: "button", class: "btn an-choice", "data-move": m, disabled: this.done, onclick: () => this.answer(m) }, m),
      ),
    );
    if (this.picked.length) {
      box.prepend(node("p", { class: "small muted" }, `Moves with ${this.picked.join(" + ")} `,
        node("button", { type: "button", class: "btn ghost", onclick: () => { this.picked = []; this.mark(); this.choices(); } }, "show all")));
    }
    return shown;
  }

  boardClick(e) {
    if (this.done || !this.puzzle) return;
    const target = e.target.closest(CLICKABLE.map((a) => `[${a}]`).join(","));
    if (!target) return;
    const attr = CLICKABLE.find((a) => target.hasAttribute(a));
    const token = target.getAttribute(attr).toLowerCase();
    const tokens = this.picked.includes(token) ? this.picked : [...this.picked, token];
    const matching = this.puzzle.legal.filter((m) => tokens.every((t) => words(m).includes(t)));
    if (!matching.length) {
      this.picked = [token];
    } else {
      this.picked = tokens;
    }
    this.mark();
    const shown = this.choices();
    if (shown.length === 1) this.answer(shown[0]);
  }

  mark() {
    for (const n of document.querySelectorAll("#board .pz-selected")) n.classList.remove("pz-selected");
    for (const t of this.picked) {
      for (const a of CLICKABLE) {
        for (const n of document.querySelectorAll(`#board [${a}]`)) {
          if (n.getAttribute(a).toLowerCase() === t) n.classList.add("pz-selected");
        }
      }
    }
  }

  async answer(move) {
    if (this.done) return;
    try {
      const r = await call("POST", `/api/puzzles/${encodeURIComponent(this.puzzle.id)}/answer`, { move });
      this.done = true;
      $("#board").innerHTML = r.svg;
      this.feedback(r.correct, r.message);
      this.standing(r.me, r.change);
      this.choices();
      $("#pz-move").disabled = true;
      $("#pz-next").hidden = false;
      const moves = [...this.puzzle.moves, r.move, ...(r.reply ? [r.reply] : [])].join("; ");
      const link = $("#pz-analyse");
      link.href = `/analysis?game_id=${encodeURIComponent(this.puzzle.game_id)}&options=${encodeURIComponent(JSON.stringify(this.puzzle.options))}&moves=${encodeURIComponent(moves)}`;
      link.hidden = false;
      $("#pz-next").focus({ preventScroll: true });
    } catch (err) {
      this.feedback(false, err.message, true);
    }
  }

  feedback(correct, text, soft = false) {
    const box = $("#pz-feedback");
    box.hidden = false;
    box.className = `pz-feedback ${soft ? "" : correct ? "right" : "wrong"}`;
    box.dataset.result = soft ? "error" : correct ? "right" : "wrong";
    box.textContent = text;
  }

  standing(me, change) {
    $("#pz-rating").textContent = `${me.rating}${me.provisional ? "?" : ""}`;
    $("#pz-streak").textContent = me.streak;
    $("#pz-best").textContent = me.best_streak;
    $("#pz-solved").textContent = `${me.solved}/${me.attempts}`;
    const c = $("#pz-change");
    c.textContent = change ? ` ${change > 0 ? "+" : "−"}${Math.abs(change)}` : "";
    c.className = `pz-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`;
  }
}

new Puzzles();
