// The game page. One source of truth: every update draws the board, the move list, the status
// and the latest throw from the same view at once (panels.js); the player's turn is turn.js.
// The coins of a throw land in a strip above the board (never over it); a newer update
// replaces them at once, and nothing moves once the game is over.
import { $, $$, DATA, toast } from "./dom.js";
import { api } from "./http.js";
import { t, tn } from "./i18n.js";
import { clockText, gameOptionsText, resultText, standingText } from "./format.js";
import {
  announce, renderControls, renderFair, renderInterlude, renderInvite, renderMoves, renderPlayers,
  renderStatus, renderSummary, renderThrow, tickClocks,
} from "./panels.js";
import { asMove } from "./picker.js";
import { Turn } from "./turn.js";

const WIDE = matchMedia("(min-width: 900px)"); // the two-column game page, its dock at the foot
const MIN_BOARD_PX = 320; // below this a board is too small to play: the page scrolls instead

// A short beep for "your turn" (only when the player turned sound on).
function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.26);
  } catch { /* no audio: nothing to do */ }
}

export class GamePage {
  constructor(live, view) {
    this.live = live;
    this.id = view.id;
    this.view = null;
    this.you = view.you || [];
    this.clock = null;
    this.lastSvg = null;
    this.redirected = false;
    this.ply = null; // null: the live position; a number: an earlier position being looked at
    this.presence = DATA.presence || [null, null]; // per seat: online (true), offline, or a bot/nobody
    this.baseTitle = document.title;
    this.wasMyTurn = false;
    this.sound = localStorage.getItem("pa-sound") === "on";
    this.board = $("#board");
    this.turn = new Turn(this);
    const refit = () => this.fitBoard();
    const watcher = new ResizeObserver(refit);
    for (const sel of [".turn-dock", ".turn-bar", "#throw-stage", "#summary", "#interlude", ".board-head"]) {
      const node = $(sel);
      if (node) watcher.observe(node);
    }
    window.addEventListener("resize", refit);
    WIDE.addEventListener("change", refit);
    this.wire();
    live.on("state", (msg) => { if (msg.game.id === this.id) this.receive(msg); });
    live.on("error", (msg) => {
      if (msg.game && msg.game !== this.id) return;
      this.turn.refuse(msg.message);
      this.turn.clear();
    });
    live.on("presence", (msg) => {
      if (msg.game !== this.id) return;
      this.presence = msg.online;
      renderPlayers(this);
    });
    live.on("spectators", (msg) => {
      if (msg.game !== this.id) return;
      const line = $("#spectators");
      line.hidden = msg.count === 0;
      line.textContent = tn("%(num)d spectator watching", "%(num)d spectators watching", msg.count);
    });
    live.on("open", () => { renderControls(this); renderPlayers(this); });
    live.on("close", () => { renderControls(this); renderPlayers(this); });
    setInterval(() => tickClocks(this), 200);
    this.renderSound();
    this.update(view, view.you, view.clock, true);
    live.watch(this.id, true);
    // On a phone the board, the prompt and the buttons fill the screen; the menu is a scroll up.
    if (matchMedia("(max-width: 560px)").matches && view.status === "active") $(".board-col").scrollIntoView();
  }

  // The page's buttons and keys.
  wire() {
    const send = (msg) => () => this.live.send({ game: this.id, ...msg });
    $("#throw-btn").addEventListener("click", () => this.throwCoins());
    $("#resign-btn").addEventListener("click", () => this.resign());
    $("#cancel-btn").addEventListener("click", () => this.cancel());
    $("#abort-btn").addEventListener("click", send({ type: "abort" }));
    $("#draw-btn").addEventListener("click", send({ type: "draw", answer: "offer" }));
    $("#takeback-btn").addEventListener("click", send({ type: "takeback", answer: "offer" }));
    $("#join-btn").addEventListener("click", () => this.join());
    $("#copy-invite")?.addEventListener("click", () => {
      $("#invite-url").select();
      navigator.clipboard?.writeText($("#invite-url").value).then(() => toast(t("Link copied.")), () => {});
    });
    $("#sound-btn").addEventListener("click", () => this.toggleSound());
    $("#nav-start").addEventListener("click", () => this.go(0));
    $("#nav-back").addEventListener("click", () => this.go((this.ply ?? this.view.history.length) - 1));
    $("#nav-next").addEventListener("click", () => this.go((this.ply ?? this.view.history.length) + 1));
    $("#nav-live").addEventListener("click", () => this.go(null));
    $("#moves").addEventListener("click", (e) => {
      const li = e.target.closest("li[data-ply]");
      if (li) this.go(Number(li.dataset.ply));
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !e.defaultPrevented) this.turn.clear(true);
      // Left and right step through the game when the keyboard is not on the board or a field.
      if (!(e.target === document.body || e.target.closest?.(".history-nav, #moves"))) return;
      if (e.key === "ArrowLeft") { e.preventDefault(); $("#nav-back").click(); }
      else if (e.key === "ArrowRight" && this.ply !== null) { e.preventDefault(); $("#nav-next").click(); }
    });
  }

  // Updates carry only the move-list entries added since the previous one; a gap (say, after
  // a reconnect) asks for the whole game again.
  receive(msg) {
    const g = msg.game;
    if (g.history_from > 0) {
      const have = this.view?.history;
      if (!have || have.length !== g.history_from) {
        this.live.send({ type: "watch", game: this.id, svg: true }, true);
        return;
      }
      g.history = have.concat(g.history);
    }
    g.legal = (msg.legal || []).map(asMove); // sent as texts: the picker reads their words
    this.update(g, msg.you, msg.clock);
  }

  update(view, you, clock, first = false) {
    const previous = this.view;
    this.view = view;
    this.you = you || [];
    this.clock = clock ? { ...clock, at: performance.now() } : null;
    if (!previous || previous.version !== view.version) { this.turn.picks.clear(); this.turn.hideRefusal(); }
    if (view.svg) this.lastSvg = view.svg;
    if (this.ply === null) this.showBoard(this.lastSvg);
    for (const render of [renderPlayers, renderStatus, renderControls, renderMoves, renderFair, renderInvite, renderSummary, renderInterlude]) render(this);
    this.renderNav();
    this.turn.refresh();
    renderThrow(this, !first && !!previous && view.version > previous.version ? previous.history.length : Infinity);
    announce(this, previous, first);
    this.renderTitle(first);
    $("#game-meta").textContent = [standingText(view), view.options_text ?? gameOptionsText(view.options), this.clockLabel()].filter(Boolean).join(" · ");
    // Both players agreed to a rematch: go to the new game.
    if (view.rematch?.id && this.you.length && !this.redirected && !first) {
      this.redirected = true;
      setTimeout(() => { location.href = `/g/${view.rematch.id}`; }, 600);
    }
  }

  clockLabel() {
    if (this.view?.days_per_move) return clockText(null, this.view.days_per_move);
    if (!this.clock) return "";
    return `${Math.round(this.clock.initial_ms / 60000 * 10) / 10}+${Math.round(this.clock.increment_ms / 1000)}`;
  }

  // What the page's tests (and a console) read: the words picked so far, the arrow keys' moves.
  get selection() { return this.turn.picks.picked; }
  arrowFrom(node, key) { return this.turn.keys.arrowFrom(node, key); }

  mine(seat) { return this.you.includes(seat); }
  myTurn() {
    const v = this.view;
    if (v.status !== "active") return false;
    if (v.node === "chance") return v.thrower !== null && this.mine(v.thrower);
    return v.to_move !== null && this.mine(v.to_move);
  }

  // -- the board: drawn from the view, made keyboard-operable -----------------------------------
  showBoard(svg) {
    if (!svg) return;
    const hadFocus = this.board.contains(document.activeElement);
    this.board.classList.remove("previewing");
    this.board.innerHTML = svg;
    this.decorateBoard();
    if (hadFocus) this.turn.keys.restore();
  }

  // On wide screens the prompt and its buttons are docked at the foot of the window: the board
  // takes the height left between its top and the dock, so the dock never covers it (how tall
  // the dock and the throw strip above the board are varies by game and turn).
  fitBoard() {
    const svg = $("svg", this.board);
    if (!svg) return;
    if (!WIDE.matches) { svg.style.maxHeight = ""; return; }
    const wrap = this.board.closest(".board-wrap");
    const pad = wrap ? parseFloat(getComputedStyle(wrap).paddingBottom) + 2 : 0;
    const dock = $(".turn-dock");
    const top = svg.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - top - pad - (dock ? dock.offsetHeight : 0) - 8;
    svg.style.maxHeight = `${Math.max(MIN_BOARD_PX, Math.floor(room))}px`;
  }

  decorateBoard() {
    this.fitBoard();
    this.turn.keys.decorate();
    // Stack-a-Cash's winning line (and any game naming lines or regions won): lit at the end.
    const won = new Set((this.view?.position?.lines || []).flat());
    for (const node of $$("[data-place]", this.board)) node.classList.toggle("pa-win", won.has(node.getAttribute("data-place")));
  }

  renderTitle(first) {
    const mine = this.myTurn();
    const yourTurn = t("Your turn");
    document.title = mine ? `● ${yourTurn} · ${this.baseTitle}` : this.view.status === "finished" ? `${resultText(this.view)} · ${this.baseTitle}` : this.baseTitle;
    if (mine && !this.wasMyTurn && !first && this.sound) beep();
    this.wasMyTurn = mine;
    if (!mine) this.leaveTurns();
  }

  // The header's list of games awaiting your move is drawn with the page: this game leaves it
  // once it no longer awaits you (your move made, or the game over), not at the next page.
  leaveTurns() {
    const link = document.querySelector(`#turns .turns-list a[href="/g/${this.view.id}"]`);
    const count = $("#turns-count");
    if (!link || !count) return;
    link.closest("li").remove();
    const left = Math.max(0, Number(count.textContent) - 1);
    count.textContent = String(left);
    if (!left) $("#turns").hidden = true;
  }

  toggleSound() {
    this.sound = !this.sound;
    localStorage.setItem("pa-sound", this.sound ? "on" : "off");
    this.renderSound();
    if (this.sound) beep();
  }

  renderSound() {
    const b = $("#sound-btn");
    b.setAttribute("aria-pressed", String(this.sound));
    b.textContent = this.sound ? t("Sound: on") : t("Sound: off");
  }

  // -- stepping back through the game while it goes on ----------------------------------------------------
  async go(ply) {
    const n = this.view.history.length;
    if (ply !== null) ply = Math.max(0, Math.min(n, ply));
    if (ply === n) ply = null;
    this.ply = ply;
    this.turn.clear();
    if (ply === null) {
      this.showBoard(this.lastSvg);
      this.board.closest(".board-wrap").classList.remove("past");
    } else {
      try {
        const svg = await api(`/api/games/${this.id}/board?ply=${ply}`, { as: "text" });
        if (this.ply !== ply) return;
        this.showBoard(svg);
        this.board.closest(".board-wrap").classList.add("past");
      } catch { toast(t("Could not load that position."), "error"); }
    }
    renderMoves(this);
    this.renderNav();
    this.turn.refresh();
  }

  renderNav() {
    const n = this.view.history.length;
    const at = this.ply ?? n;
    $("#nav-start").disabled = at === 0;
    $("#nav-back").disabled = at === 0;
    $("#nav-next").disabled = this.ply === null;
    $("#nav-live").disabled = this.ply === null;
    const h = this.view.history[at - 1];
    const actions = tn("%(num)d action", "%(num)d actions", n);
    $("#nav-pos").textContent = this.ply === null ? [t("Live"), actions].join(" · ")
      : h ? t("Action %(at)s of %(total)s: %(move)s", { at, total: n, move: h.say || h.text }) : t("Action %(at)s of %(total)s (the start)", { at, total: n });
    $("#nav-live").classList.toggle("behind", this.ply !== null);
  }

  // -- what the buttons do ---------------------------------------------------------------------
  throwCoins() {
    if (this.live.send({ type: "throw", game: this.id, version: this.view.version, ack: false })) $("#throw-btn").hidden = true;
  }
  resign() { if (confirm(t("Resign this game? Your opponent wins."))) this.live.send({ type: "resign", game: this.id }); }
  async cancel() {
    try { await api(`/api/games/${this.id}`, { method: "DELETE" }); } catch (err) { toast(err.message, "error"); }
  }
  join() { this.live.send({ type: "join", game: this.id, invite: DATA.invite || undefined }); }
  async joinByLink() {
    this.joining = true;
    try {
      // Over HTTP: it needs no open socket, and the socket brings the started game as any change.
      await api(`/api/games/${this.id}/join?svg=false`, { method: "POST", body: { invite: DATA.invite } });
    } catch (err) {
      this.joining = false; // the Join button stays for another try
      toast(err.message, "error");
      renderInvite(this);
    }
  }
}
