// The analysis board: any position (from a game, a record or moves typed in), its board, the
// engine's evaluation and the moves to play on it. The address always holds the position, so
// copying it shares the board as it is.

import { el as node, scrollWithin, trackHeader, zoomable } from "./dom.js";
import { api } from "./http.js";
import { markPicked, narrowByClick } from "./picker.js";
import { t } from "./i18n.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
const $ = (sel) => document.querySelector(sel);

const post = (path, body, raw = false) => api(path, { method: "POST", body, raw });

const MANY_MOVES = 60; // more legal moves than this are typed (with suggestions), not listed

// Notation is the same in every language: set apart, left to right, inside the words.
const notation = (text) => node("span", { class: "notation", dir: "ltr", text });
// A translated sentence with notation inside: t(…) given MARK for the notation's parameter,
// then split around it, so the notation is its own element where the language puts it.
const MARK = "\u0000";
function withNotation(text, value) {
  const [before, after = ""] = text.split(MARK);
  return [before, value, after].filter((part) => part !== "");
}

class Board {
  constructor(start) {
    this.catalog = DATA.catalog || [];
    this.set(start.game_id, start.options || {}, start.moves || [], (start.moves || []).length);
    this.fromGame = start.from_game || null;
    this.evalToken = 0;
    this.wire();
    this.fillGames();
    if (DATA.error) this.error(DATA.error);
    this.load();
  }

  set(gameId, options, moves, ply) {
    this.gameId = gameId;
    this.options = options;
    this.moves = moves;
    this.ply = ply;
  }

  wire() {
    $("#an-start").addEventListener("click", () => this.go(0));
    $("#an-back").addEventListener("click", () => this.go(this.ply - 1));
    $("#an-next").addEventListener("click", () => this.go(this.ply + 1));
    $("#an-end").addEventListener("click", () => this.go(this.moves.length));
    $("#an-share").addEventListener("click", () => this.share());
    document.addEventListener("keydown", (e) => {
      if (e.target.closest("input,textarea,select")) return;
      if (e.key === "ArrowLeft") this.go(this.ply - 1);
      else if (e.key === "ArrowRight") this.go(this.ply + 1);
    });
    $("#an-type").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("#an-move").value.trim();
      if (text) this.play(text);
    });
    $("#an-game").addEventListener("change", () => this.fillOptions());
    $("#an-setup").addEventListener("submit", (e) => { e.preventDefault(); this.setup(); });
    $("#an-record").addEventListener("submit", (e) => { e.preventDefault(); this.openRecord(); });
    // Moves by clicking or tapping the board, as on the game page: a cell, a coin, a tile
    // narrows the moves to those naming it; when one is left it is played.
    this.picked = [];
    $("#board").addEventListener("click", (e) => this.boardClick(e));
    trackHeader();
    zoomable($("#board").closest(".board-wrap"));
  }

  boardClick(e) {
    const r = this.report;
    if (!r || r.over || r.chance || !r.legal.length) return;
    const got = narrowByClick(e, r.legal, this.picked);
    if (!got) return;
    this.picked = got.picked;
    markPicked($("#board"), this.picked);
    if (got.matching.length === 1) { this.play(got.matching[0]); return; }
    const all = node("button", { type: "button", class: "btn ghost", onclick: () => { this.picked = []; markPicked($("#board"), []); this.renderChoices(this.evaluation || null); } }, t("show all"));
    $("#an-choices").replaceChildren(
      node("p", { class: "small muted", id: "an-picked" }, t("Moves with %(tokens)s", { tokens: this.picked.join(" + ") }), " ", all),
      node("div", { class: "an-choice-list" }, got.matching.map((m) => node("button", { type: "button", class: "an-choice", "data-move": m, onclick: () => this.play(m) }, node("span", { class: "an-move-text", text: m })))),
    );
  }

  error(text) {
    const box = $("#an-error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  go(ply) {
    ply = Math.max(0, Math.min(this.moves.length, ply));
    if (ply === this.ply) return;
    this.ply = ply;
    this.load();
  }

  play(text) {
    const line = this.moves.slice(0, this.ply);
    const next = this.moves[this.ply];
    // Playing the line's own next move keeps the rest of the line; another move starts a new one.
    this.moves = next !== undefined && next.toLowerCase() === text.toLowerCase() ? this.moves : [...line, text];
    this.ply = line.length + 1;
    this.load(text);
  }

  position() { return { game_id: this.gameId, options: this.options, moves: this.moves.slice(0, this.ply) }; }

  link() {
    const q = new URLSearchParams({ game_id: this.gameId });
    if (Object.keys(this.options).length) q.set("options", JSON.stringify(this.options));
    const moves = this.moves.slice(0, this.ply);
    if (moves.length) q.set("moves", moves.join("; "));
    return `${location.origin}/analysis?${q}`;
  }

  async share() {
    const url = this.link();
    try {
      await navigator.clipboard.writeText(url);
      $("#an-status").textContent = t("Link copied: it opens this position.");
    } catch {
      $("#an-status").textContent = t("Link to this position: %(url)s", { url });
    }
  }

  async load(played = null) {
    const asked = this.position();
    let report;
    try {
      report = await post("/api/analysis/position", asked);
    } catch (err) {
      this.error(played ? `${played}: ${err.message}` : err.message);
      if (played) { this.moves.splice(this.ply - 1, 1); this.ply -= 1; }
      return;
    }
    this.error("");
    $("#an-move").value = "";
    this.report = report;
    // The server completes the options (a map left to chance names its seed), so the link holds them.
    this.options = report.options;
    if ($("#an-game").value === this.gameId) this.fillOptions(); // the set-up form shows the options in play
    history.replaceState(null, "", this.link().slice(location.origin.length));
    $("#an-title").textContent = t("%(game)s · analysis", { game: report.title });
    $("#an-meta").textContent = report.options_text;
    $("#board").innerHTML = report.svg;
    $("#board").dataset.ply = String(report.ply);
    $("#an-pos").textContent = `${this.ply} / ${this.moves.length}`;
    const last = report.moves[report.moves.length - 1];
    $("#an-status").replaceChildren(...(last ? withNotation(t("%(status)s — after %(ply)s. %(move)s", { status: report.status, ply: this.ply, move: MARK }), notation(last)) : [report.status]));
    this.picked = [];
    this.evaluation = null;
    this.renderHistory();
    this.renderChoices(null);
    this.evaluate();
  }

  renderHistory() {
    $("#an-history").replaceChildren(...this.moves.map((m, i) => node("li", {
      class: i + 1 === this.ply ? "current" : i + 1 > this.ply ? "ahead" : "",
      "data-ply": i + 1,
      onclick: () => this.go(i + 1),
    }, node("span", { class: "mv", text: m }))));
    if (this.fromGame) {
      const back = node("li", { class: "from-game" }, node("a", { href: `/g/${this.fromGame}/replay`, text: t("back to the game's replay") }));
      $("#an-history").append(back);
    }
    scrollWithin($("#an-history"), $("#an-history li.current")); // the list scrolls, not the page
  }

  renderChoices(evaluation) {
    const r = this.report;
    const box = $("#an-choices");
    const list = $("#an-move");
    $("#an-type").hidden = r.over || r.chance;
    if (r.over) {
      $("#an-moves-title").textContent = t("Moves");
      box.replaceChildren(node("p", { class: "muted", text: t("The game is over here: take moves back to try another line.") }));
      return;
    }
    if (r.chance) {
      $("#an-moves-title").textContent = t("Throw");
      const draw = node("button", { type: "button", class: "btn primary", id: "an-draw", text: t("Draw a throw"), onclick: () => this.play(this.drawThrow()) });
      const choices = r.throws.map((th) => node("button", { type: "button", class: "an-choice", "data-move": th.move, onclick: () => this.play(th.move) },
        node("span", { class: "an-move-text", text: th.move }), node("span", { class: "an-value muted", text: `${(100 * th.probability).toFixed(1)}%` })));
      box.replaceChildren(node("p", { class: "small muted", text: t("Choose how the coins fall, or draw a throw by its chance.") }), draw, node("div", { class: "an-choice-list" }, choices));
      return;
    }
    $("#an-moves-title").textContent = t("Moves for %(seat)s", { seat: t(r.seats[r.to_move]) });
    const explorer = evaluation?.explorer;
    if (explorer) {
      const rows = explorer.map((m) => node("tr", { class: `an-v${m.value}`, "data-move": m.move, onclick: () => this.play(m.move) },
        node("td", {}, node("button", { type: "button", class: "linkish" }, notation(m.move))),
        node("td", { class: "an-result", text: m.describe })));
      box.replaceChildren(
        node("p", { class: "small muted", text: explorer[0]?.margin !== undefined
          ? t("Exact values for %(seat)s: the round's final margin with best play, and the plies to its end. Click a move to play it.", { seat: t(r.seats[r.to_move]) })
          : t("Exact values for %(seat)s (plies count this move to the end of the game with best play). Click a move to play it.", { seat: t(r.seats[r.to_move]) }) }),
        node("div", { class: "an-explorer-wrap" }, node("table", { class: "table an-explorer", id: "an-explorer" },
          node("thead", {}, node("tr", {}, node("th", { text: t("Move") }), node("th", { text: t("Result") }))), node("tbody", {}, rows))));
      return;
    }
    const datalist = node("datalist", { id: "an-legal" }, r.legal.map((m) => node("option", { value: m })));
    list.setAttribute("list", "an-legal");
    if (r.legal.length > MANY_MOVES) {
      box.replaceChildren(node("p", { class: "small muted", text: [t("%(num)s legal moves: type one (suggestions appear as you type), or play a best move above.", { num: r.legal.length }),
        r.exact_reason ? t("No exact values here: %(reason)s.", { reason: r.exact_reason }) : ""].join(" ").trim() }), datalist);
      return;
    }
    box.replaceChildren(datalist, node("div", { class: "an-choice-list" }, r.legal.map((m) => node("button", { type: "button", class: "an-choice", "data-move": m, onclick: () => this.play(m) }, node("span", { class: "an-move-text", text: m })))));
  }

  drawThrow() {
    const throws = this.report.throws;
    let x = Math.random();
    for (const th of throws) { x -= th.probability; if (x < 0) return th.move; }
    return throws[throws.length - 1].move;
  }

  async evaluate() {
    const token = ++this.evalToken;
    $("#an-eval").textContent = t("Thinking…");
    $("#an-method").textContent = "";
    $("#an-best").replaceChildren();
    $("#an-line").textContent = "";
    $("#an-eval-card").dataset.state = "thinking";
    let ev;
    try {
      ev = await post("/api/analysis/evaluate", this.position());
    } catch (err) {
      if (token !== this.evalToken) return;
      $("#an-eval").textContent = t("No evaluation: %(reason)s", { reason: err.message });
      $("#an-eval-card").dataset.state = "failed";
      return;
    }
    if (token !== this.evalToken) return; // the board moved on meanwhile
    this.evaluation = ev;
    $("#an-eval-card").dataset.state = "done";
    $("#an-eval").textContent = ev.summary;
    $("#an-method").textContent = (ev.exact ? t("Exact, from %(method)s", { method: ev.method }) : t("Judged by %(method)s", { method: ev.method })) + (ev.note ? `; ${ev.note}` : "") + ".";
    if (ev.best.length) {
      $("#an-best").replaceChildren(node("p", { class: "small", text: t("Best moves:") }), node("ul", { class: "an-best" },
        ev.best.map((b) => node("li", {}, node("button", { type: "button", class: "linkish", "data-move": b.move, onclick: () => this.play(b.move) }, notation(b.move)), ` — ${b.describe}`))));
    }
    // The line is notation, and the throw it stops at is worded ("(a throw)").
    const line = ev.line.flatMap((m, i) => [i ? ", " : "", ev.line_to_throw && i === ev.line.length - 1 ? m : notation(m)]).filter(Boolean);
    if (ev.line.length) $("#an-line").replaceChildren(...withNotation(t("Expected line: %(line)s", { line: MARK }), node("span", { dir: "ltr" }, line)));
    if (!this.picked.length) this.renderChoices(ev); // a choice narrowed on the board stays
  }

  fillGames() {
    const select = $("#an-game");
    select.replaceChildren(...this.catalog.map((g) => node("option", { value: g.id, text: g.title })));
    select.value = this.gameId;
    this.fillOptions();
  }

  fillOptions() {
    const game = this.catalog.find((g) => g.id === $("#an-game").value);
    const box = $("#an-options");
    const same = game && game.id === this.gameId;
    box.replaceChildren(...(game?.options || []).filter((o) => o.choices || o.type === "bool").map((o) => {
      const current = same && this.options[o.name] !== undefined ? this.options[o.name] : o.default;
      if (o.type === "bool") {
        return node("label", {}, node("span", { text: o.label }), node("input", { type: "checkbox", name: o.name, checked: Boolean(current) }));
      }
      const select = node("select", { name: o.name }, o.choices.map((c, i) => node("option", { value: c, text: o.choice_labels?.[i] || c })));
      select.value = String(current);
      return node("label", {}, node("span", { text: o.label }), select);
    }));
  }

  setup() {
    const gameId = $("#an-game").value;
    const options = {};
    for (const input of $("#an-options").querySelectorAll("[name]")) {
      options[input.name] = input.type === "checkbox" ? input.checked : input.value;
    }
    const moves = $("#an-setup-moves").value.split(";").map((m) => m.trim()).filter(Boolean);
    this.fromGame = null;
    this.set(gameId, options, moves, moves.length);
    this.load();
  }

  async openRecord() {
    const file = $("#an-record-file").files[0];
    const text = file ? await file.text() : $("#an-record-text").value;
    if (!text.trim()) { this.error(t("Paste a record or choose a file first.")); return; }
    try {
      const start = await post("/api/analysis/record", text, true);
      this.fromGame = null;
      this.set(start.game_id, start.options, start.moves, start.moves.length);
      $("#an-game").value = start.game_id;
      this.fillOptions();
      this.load();
    } catch (err) { this.error(err.message); }
  }
}

window.paAnalysis = new Board(DATA.start);
