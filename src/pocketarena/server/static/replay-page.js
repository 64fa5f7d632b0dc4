// The replay page: a finished (or running) game stepped through ply by ply, with a slider,
// the keyboard and a play button; boards are fetched once each and the next one ahead.
import { $, $$, el, scrollWithin, toast, trackHeader, zoomable } from "./dom.js";
import { api } from "./http.js";
import { dateTime, t } from "./i18n.js";
import { fmtScore, optionsText, playerName, resultText, seatName } from "./format.js";
import { moveItems } from "./panels.js";

export class ReplayPage {
  constructor(view) {
    this.view = view;
    this.id = view.id;
    this.n = view.history.length;
    this.ply = this.n;
    this.cache = new Map();
    this.timer = null;
    const slider = $("#rp-slider");
    slider.max = String(this.n);
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    $("#rp-start").addEventListener("click", () => this.go(0));
    $("#rp-back").addEventListener("click", () => this.go(this.ply - 1));
    $("#rp-next").addEventListener("click", () => this.go(this.ply + 1));
    $("#rp-end").addEventListener("click", () => this.go(this.n));
    $("#rp-play").addEventListener("click", () => this.toggle());
    document.addEventListener("keydown", (e) => {
      if (e.target.closest("input,textarea,select")) return;
      if (e.key === "ArrowLeft") this.go(this.ply - 1);
      else if (e.key === "ArrowRight") this.go(this.ply + 1);
      else if (e.key === "Home") this.go(0);
      else if (e.key === "End") this.go(this.n);
      else if (e.key === " ") { e.preventDefault(); this.toggle(); }
    });
    const list = $("#moves");
    list.replaceChildren(...moveItems(view, (i) => ({ onclick: () => this.go(i + 1) })));
    this.renderPlayers();
    $("#status").textContent = view.status === "finished" ? resultText(view) : t("In progress");
    // The options, and when the game was played on the reader's clock (their time zone).
    const played = el("time", { datetime: view.created_at, title: dateTime(view.created_at), text: dateTime(view.created_at, { dateStyle: "medium", timeStyle: "short" }) });
    const options = view.options_text ?? optionsText(view.options);
    $("#replay-meta").replaceChildren(...(options ? [options, " · "] : []), played);
    trackHeader();
    zoomable($("#board").closest(".board-wrap"));
    this.go(this.ply);
  }

  renderPlayers() {
    const v = this.view;
    $("#players").replaceChildren(...[0, 1].map((seat) => el("div", { class: `player seat${seat}` },
      el("span", { class: "dot" }),
      el("div", {}, el("span", { class: "who", text: playerName(v.seats[seat], "—") }), el("div", { class: "seat-name", text: seatName(v, seat) })),
      el("span", { class: "score", text: fmtScore(v.scores[seat] ?? 0) }))));
  }

  async board(ply) {
    if (!this.cache.has(ply)) {
      this.cache.set(ply, api(`/api/games/${this.id}/board?ply=${ply}`, { as: "text" }));
    }
    return this.cache.get(ply);
  }

  async go(ply) {
    ply = Math.max(0, Math.min(this.n, ply));
    this.ply = ply;
    $("#rp-slider").value = String(ply);
    $("#rp-pos").textContent = `${ply} / ${this.n}`;
    const h = this.view.history[ply - 1];
    $("#rp-say").textContent = ply === 0 ? t("The starting position") : `${ply}. ${h.text}${h.say && h.say !== h.text ? ` — ${h.say}` : ""}`;
    for (const li of $$("#moves li")) li.classList.toggle("current", Number(li.dataset.ply) === ply);
    scrollWithin($("#moves"), $(`#moves li[data-ply="${ply}"]`)); // the list scrolls, never the page
    try {
      const svg = await this.board(ply);
      if (this.ply === ply) { $("#board").innerHTML = svg; $("#board").dataset.ply = String(ply); }
    } catch { toast(t("Could not load that position."), "error"); }
    if (ply < this.n) this.board(ply + 1); // prefetch
    if (ply >= this.n && this.timer) this.toggle();
  }

  toggle() {
    const play = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5v14l12-7z"/></svg>';
    const pause = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h4v14H6zM14 5h4v14h-4z"/></svg>';
    if (this.timer) { clearInterval(this.timer); this.timer = null; $("#rp-play").innerHTML = play; return; }
    if (this.ply >= this.n) this.go(0);
    $("#rp-play").innerHTML = pause;
    this.timer = setInterval(() => this.go(this.ply + 1), 900);
  }
}
