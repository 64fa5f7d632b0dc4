// The puzzles page: a position with one winning move; the player clicks or types a move, the
// solver judges it (right or wrong, in words and colour), shows its reply, and the next puzzle
// follows. The streak and the puzzle rating come back with every answer.

import { el as node, verdict } from "./dom.js";
import { api } from "./http.js";
import { MovePicker } from "./picker.js";
import { t } from "./i18n.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
const $ = (sel) => document.querySelector(sel);

class Puzzles {
  constructor() {
    this.game = DATA.game || "";
    this.puzzle = null;
    this.done = false;
    for (const r of document.querySelectorAll('input[name="pz-game"]')) {
      r.checked = r.value === this.game;
      r.addEventListener("change", () => {
        this.game = r.value;
        this.next();
      });
    }
    $("#pz-next").addEventListener("click", () => this.next());
    this.picker = new MovePicker({
      board: $("#board"),
      choices: $("#pz-choices"),
      form: $("#pz-type"),
      input: $("#pz-move"),
      datalist: $("#pz-legal"),
      play: (move) => this.answer(move),
    });
    this.next();
  }

  async next() {
    const q = new URLSearchParams();
    if (this.game) q.set("game", this.game);
    if (this.puzzle) q.set("after", this.puzzle.id);
    try {
      const data = await api(`/api/puzzles/next?${q}`);
      this.show(data.puzzle);
      this.standing(data.me, null);
    } catch (err) {
      verdict($("#pz-feedback"), "error", err.message);
    }
  }

  show(p) {
    this.puzzle = p;
    this.done = false;
    $("#pz-title").textContent = t("Puzzle: %(title)s", { title: p.title });
    const meta = $("#pz-meta");
    const rated = t("rated %(rating)s", { rating: p.rating });
    meta.replaceChildren(node("span", { class: "notation", text: p.id }), ` · ${rated}`);
    if (p.source) {
      // A puzzle from a real game's blunder: where it happened, linked to the replay.
      const where = t("%(game)s, ply %(ply)s", { game: p.source.game, ply: p.source.ply });
      meta.append([" ·", t("from"), ""].join(" "));
      if (p.source.replay) {
        const a = document.createElement("a");
        a.href = p.source.replay;
        a.textContent = where;
        meta.append(a);
      } else meta.append(where);
    }
    $("#pz-goal").textContent = p.goal;
    $("#board").innerHTML = p.svg;
    $("#pz-feedback").hidden = true;
    $("#pz-next").hidden = true;
    $("#pz-analyse").hidden = true;
    document.querySelector("#puzzles").dataset.puzzle = p.id;
    this.picker.set(p.legal);
  }

  async answer(move) {
    if (this.done) return;
    try {
      const r = await api(`/api/puzzles/${encodeURIComponent(this.puzzle.id)}/answer`, { method: "POST", body: { move } });
      this.done = true;
      $("#board").innerHTML = r.svg;
      verdict($("#pz-feedback"), r.correct ? "right" : "wrong", r.message);
      this.standing(r.me, r.change);
      this.picker.lock();
      $("#pz-next").hidden = false;
      const moves = [...this.puzzle.moves, r.move, ...(r.reply ? [r.reply] : [])].join("; ");
      const link = $("#pz-analyse");
      link.href = `/analysis?game_id=${encodeURIComponent(this.puzzle.game_id)}&options=${encodeURIComponent(JSON.stringify(this.puzzle.options))}&moves=${encodeURIComponent(moves)}`;
      link.hidden = false;
      $("#pz-next").focus({ preventScroll: true });
    } catch (err) {
      verdict($("#pz-feedback"), "error", err.message);
    }
  }

  standing(me, change) {
    $("#pz-rating").textContent = `${me.rating}${me.provisional ? "?" : ""}`;
    $("#pz-provisional").hidden = !me.provisional;
    $("#pz-streak").textContent = me.streak;
    $("#pz-best").textContent = me.best_streak;
    $("#pz-solved").textContent = `${me.solved}/${me.attempts}`;
    const c = $("#pz-change");
    c.textContent = change ? `${change > 0 ? "+" : "−"}${Math.abs(change)}` : ""; // its own dir="ltr"
    c.className = `pz-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`;
  }
}

new Puzzles();
