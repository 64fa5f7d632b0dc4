// Learn to play: a game's lesson, step by step. Each step shows a rule on a set position; the
// player makes the move that shows it and the engine judges it (a move it cannot play is
// refused in its own words). Steps passed are remembered in this browser.

import { el as node, trackHeader, verdict, zoomable } from "./dom.js";
import { api } from "./http.js";
import { MovePicker } from "./picker.js";
import { t } from "./i18n.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
const $ = (sel) => document.querySelector(sel);

class Lesson {
  constructor(gameId) {
    this.gameId = gameId;
    this.key = `pa-lesson-${gameId}`;
    this.passed = new Set(JSON.parse(localStorage.getItem(this.key) || "[]"));
    this.picker = new MovePicker({
      board: $("#board"),
      choices: $("#ln-choices"),
      form: $("#ln-type"),
      input: $("#ln-move"),
      datalist: $("#ln-legal"),
      play: (move) => this.play(move),
    });
    $("#ln-next").addEventListener("click", () => this.show(this.index + 1));
    $("#ln-prev").addEventListener("click", () => this.show(this.index - 1));
    $("#ln-retry").addEventListener("click", () => this.show(this.index));
    trackHeader();
    zoomable($("#board").closest(".board-wrap"));
    this.load();
  }

  async load() {
    try {
      this.lesson = await api(`/api/lessons/${encodeURIComponent(this.gameId)}`);
    } catch (err) {
      verdict($("#ln-feedback"), "error", err.message);
      return;
    }
    $("#ln-title").textContent = t("Learn %(game)s", { game: this.lesson.title });
    const first = this.lesson.steps.findIndex((s) => !this.passed.has(s.index));
    this.show(first < 0 ? 0 : first);
  }

  show(i) {
    const steps = this.lesson.steps;
    this.index = Math.max(0, Math.min(steps.length - 1, i));
    const step = steps[this.index];
    $("#lesson").dataset.step = this.index;
    $("#ln-progress").textContent = t("step %(step)s of %(steps)s", { step: this.index + 1, steps: steps.length });
    $("#ln-step-title").textContent = step.title;
    $("#ln-text").textContent = step.text;
    $("#ln-status").textContent = step.status;
    $("#board").innerHTML = step.svg;
    $("#ln-feedback").hidden = true;
    $("#ln-next").hidden = true;
    $("#ln-retry").hidden = true;
    $("#ln-prev").disabled = this.index === 0;
    this.picker.set(step.legal);
    this.list();
  }

  list() {
    const steps = this.lesson.steps;
    $("#ln-steps").replaceChildren(
      ...steps.map((s) =>
        node("li", { class: [s.index === this.index ? "current" : "", this.passed.has(s.index) ? "passed" : ""].join(" ").trim() },
          node("button", { type: "button", onclick: () => this.show(s.index) }, s.title)),
      ),
    );
    const done = steps.every((s) => this.passed.has(s.index));
    const box = $("#ln-done");
    box.hidden = !done;
    if (done) {
      box.replaceChildren(t("Lesson complete: you know the rules of %(game)s.", { game: this.lesson.title }), " ",
        node("a", { href: `/new?game=${this.gameId}` }, t("Play a game")), " · ",
        node("a", { href: `/rules/${this.gameId}` }, t("read the full rules")));
    }
  }

  async play(move) {
    try {
      const r = await api(`/api/lessons/${encodeURIComponent(this.gameId)}/${this.index}`, { method: "POST", body: { move } });
      $("#board").innerHTML = r.svg;
      $("#ln-status").textContent = r.status;
      verdict($("#ln-feedback"), r.correct ? "right" : "wrong", r.message);
      this.seen();
      this.picker.lock();
      if (r.correct) {
        this.passed.add(this.index);
        localStorage.setItem(this.key, JSON.stringify([...this.passed]));
        $("#ln-next").hidden = this.index === this.lesson.steps.length - 1;
        $("#ln-next").focus({ preventScroll: true });
      } else {
        $("#ln-retry").hidden = false;
      }
      this.list();
    } catch (err) {
      verdict($("#ln-feedback"), "error", err.message);
      this.seen();
    }
  }

  // The verdict sits under the board, where the player just tapped; if the page has it out
  // of sight, scroll just enough to show it and its buttons.
  seen() {
    const box = $("#ln-verdict");
    const r = box.getBoundingClientRect();
    if (r.bottom > innerHeight || r.top < 0) box.scrollIntoView({ block: "nearest" });
  }
}

if (DATA.game) new Lesson(DATA.game);
