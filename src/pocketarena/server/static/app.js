// Pocket Arena's browser client: one ES module, no build step.
// The server is authoritative: this code only shows what it is sent and asks for moves.

import { t, tn, dateTime } from "./i18n.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
import { scrollWithin, trackHeader, zoomable } from "./dom.js";

// A seat's name as the reader says it ("Heads" is "Face" in French).
const sn = (v, seat) => t(v.seat_names[seat]);
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function toast(message, kind = "info", ms = 4000) {
  const box = $("#toasts");
  if (!box) return;
  const t = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", text: message });
  box.append(t);
  setTimeout(() => t.remove(), ms);
}

async function api(path, { method = "GET", body } = {}) {
  const res = await fetch(path, {
    method,
    headers: body !== undefined ? { "Content-Type": "application/json" } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    let detail = data?.detail ?? t("The request failed (%(status)s).", { status: res.status });
    if (Array.isArray(detail)) detail = detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    const err = new Error(detail);
    err.status = res.status;
    throw err;
  }
  return data;
}

// -- the live connection ------------------------------------------------------------------------
class Live {
  constructor() {
    this.handlers = {};
    this.watching = new Map(); // game id -> wants svg
    this.lobby = false;
    this.backoff = 500;
    this.refs = 0;
    this.lost = false; // the socket was open and closed, and is not open again yet
    this.connect();
    setInterval(() => this.send({ type: "ping" }, true), 25000);
  }
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws.addEventListener("open", () => {
      this.backoff = 500;
      this.lost = false;
      $("#conn-banner")?.setAttribute("hidden", "");
      for (const [game, svg] of this.watching) this.send({ type: "watch", game, svg });
      if (this.lobby) this.send({ type: "lobby" });
      this.emit("open", {});
    });
    this.ws.addEventListener("message", (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.emit(msg.type, msg);
    });
    this.ws.addEventListener("close", () => {
      $("#conn-banner")?.removeAttribute("hidden");
      this.lost = true;
      this.emit("close", {});
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    });
  }
  on(type, fn) { (this.handlers[type] ||= []).push(fn); }
  emit(type, msg) {
    for (const fn of this.handlers[type] || []) fn(msg);
    // Other scripts of the page (static/chat.js) hear the socket through the document.
    document.dispatchEvent(new CustomEvent("pa:live", { detail: { ...msg, type } }));
  }
  get open() { return this.ws && this.ws.readyState === WebSocket.OPEN; }
  send(msg, quiet = false) {
    if (!this.open) {
      if (!quiet) toast(t("Not connected — reconnecting, try again in a moment."), "error");
      return null;
    }
    msg.ref = ++this.refs;
    this.ws.send(JSON.stringify(msg));
    return msg.ref;
  }
  watch(game, svg = true) { this.watching.set(game, svg); this.send({ type: "watch", game, svg }, true); }
  subscribeLobby() { this.lobby = true; this.send({ type: "lobby" }, true); }
}

// -- identity: the name chip in the header --------------------------------------------------------
function setupName() {
  const chip = $("#me-name");
  const dialog = $("#name-dialog");
  if (!chip || !dialog) return;
  chip.addEventListener("click", () => { $("#name-error").hidden = true; dialog.showModal(); $("#name-input").select(); });
  $("#name-cancel").addEventListener("click", () => dialog.close());
  $("#name-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const me = await api("/api/me", { method: "PATCH", body: { name: $("#name-input").value } });
      chip.textContent = me.name;
      DATA.me.name = me.name;
      dialog.close();
      toast(t("You are now %(name)s.", { name: me.name }));
    } catch (err) {
      const p = $("#name-error");
      p.textContent = err.message;
      p.hidden = false;
    }
  });
}

// -- small helpers shared by pages -------------------------------------------------------------------
const TOKEN_LABELS = {
  Q: t("Quarter"), N: t("Nickel"), P: t("Penny"), D: t("Dime"), L: t("Large"), M: t("Medium"), S: t("Small"),
  r0: t("↑ as printed"), r90: "↻ 90°", r180: "↻ 180°", r270: "↻ 270°", flip: t("and flip it"), blue: t("Blue first"), red: t("Red first"),
};
const ROTATION = /^r(0|90|180|270)$/;
// Board elements a player can click: cells and spaces carry data-place; renderers may mark
// coins or tiles in a tray with one of the other attributes (data-size="L").
const CLICKABLE = ["data-place", "data-token", "data-size", "data-coin", "data-tile"];
const CLICK_SELECTOR = CLICKABLE.map((a) => `[${a}]`).join(",");
function tokenOf(node) {
  for (const a of CLICKABLE) if (node.hasAttribute(a)) return node.getAttribute(a);
  return null;
}
// A tray item that belongs to a seat (data-seat="1", or data-colour="red" naming the seat).
function ownerOf(node, seatNames) {
  const owned = node.closest("[data-seat], [data-colour]");
  if (!owned) return null;
  if (owned.hasAttribute("data-seat")) return Number(owned.getAttribute("data-seat"));
  const i = seatNames.findIndex((n) => n.toLowerCase() === owned.getAttribute("data-colour").toLowerCase());
  return i >= 0 ? i : null;
}

function optionsText(options) {
  return Object.entries(options || {})
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? Object.entries(v).map(([a, b]) => `${b}${a}`).join(" ") : v}`)
    .join(" · ");
}
// The game page's options line as players read it: "series", "coins 1Q 1N", no "false".
function gameOptionsText(options) {
  return Object.entries(options || {})
    .filter(([, v]) => v !== null && v !== undefined && v !== false && v !== "")
    .map(([k, v]) => {
      const name = k.replace(/_/g, " ");
      if (v === true) return name;
      if (typeof v === "object") return `${name} ${Object.entries(v).map(([a, b]) => `${b}${a}`).join(" ")}`;
      return `${name} ${v}`;
    })
    .join(" · ");
}
function clockText(clock, days) {
  if (days) return tn("%(num)d day per move", "%(num)d days per move", days);
  if (!clock) return t("untimed");
  const [initial, inc] = clock;
  return `${Math.round(initial / 60000 * 10) / 10}+${Math.round(inc / 1000)}`;
}
// A moment as the reader's clock shows it (their time zone and language).
function localTime(date) {
  return dateTime(date, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}
function showLocalTimes(root = document) {
  for (const node of root.querySelectorAll("[data-local-time]")) {
    const at = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(at.getTime())) node.textContent = localTime(at);
  }
}
function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = ms / 1000;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const m = Math.floor(s / 60);
  const r = Math.floor(s % 60);
  return `${m}:${String(r).padStart(2, "0")}`;
}
// A bot's stored name is the catalog's source words ("Bot · medium"): worded here in the
// reader's language, as the lists of bots are.
function playerName(seat, fallback) { return seat ? (seat.kind === "bot" ? t(seat.name) : seat.name) : fallback; }
function fmtScore(x) { return Number.isInteger(x) ? String(x) : x.toFixed(1); }

// Chance outcomes as coins: "slap Q:H N:T" (coin letter and face), "flip HH", "flip odd".
function coinsOf(text) {
  const coins = [];
  for (const tok of text.split(/\s+/).slice(1)) {
    let m;
    if ((m = tok.match(/^([A-Za-z]+):([HT])$/))) coins.push({ label: m[1], face: m[2] });
    else if (/^[HT]+$/.test(tok)) for (const f of tok) coins.push({ label: "", face: f });
    else if (tok === "odd") coins.push({ label: "", face: "H" }, { label: "", face: "T" });
  }
  return coins;
}

// Words a player reads on a choice button, for the tokens that are not places on the board.
const CHOICE_WORDS = { blue: t("Blue starts"), red: t("Red starts") };
// Whole actions with no token (a verb alone): "end" ends a Coin Age turn.
const VERB_WORDS = { end: t("End turn"), pass: t("Pass") };
const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)");
const WIDE = matchMedia("(min-width: 900px)"); // the two-column game page, its dock at the foot
const MIN_BOARD_PX = 320; // below this a board is too small to play: the page scrolls instead

// The name of a board element in the game's words: the renderer's data-label, else its title.
// Beside each coin throw of a finished game (its seed revealed): a one-tap check of that throw,
// naming the exact HMAC message it was drawn from (moves count from 0 there: move 1 is "id:0").
function throwCheck(view, entry, index) {
  if (!entry.chance || !view.fair?.seed) return null;
  return el("a", {
    class: "throw-check", href: `/g/${view.id}/verify#throw-${index}`,
    title: t("HMAC message %(message)s", { message: `${view.id}:${index}` }),
    "aria-label": t("Check this throw (HMAC message %(message)s)", { message: `${view.id}:${index}` }),
    text: t("✓ check"), onclick: (e) => e.stopPropagation(),
  });
}
function labelOf(node) {
  return node.getAttribute("data-label") || node.querySelector(":scope > title")?.textContent || tokenOf(node) || "";
}
function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}
// The element nearest to `from` in direction (dx, dy), or null: distance along the direction
// plus twice the distance across it, so a straight neighbour beats a diagonal one.
function nearestInDirection(from, nodes, dx, dy) {
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
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

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

// FlipWars' series: a finished round and the round wins so far, in words.
function roundResult(r, seats) {
  const score = [t(seats[0]), r.score?.blue ?? 0, "–", t(seats[1]), r.score?.red ?? 0].join(" ");
  const winner = r.winner ? seats.find((n) => n.toLowerCase() === r.winner) || r.winner : null;
  return winner ? t("%(winner)s wins the round, %(score)s", { winner: t(winner), score }) : t("the round is drawn, %(score)s", { score });
}
function roundWins(p, seats) {
  const w = p?.series?.round_wins || {};
  return t("Round wins: %(first)s %(a)s – %(second)s %(b)s (first to %(target)s)", {
    first: t(seats[0]), a: w.blue ?? 0, second: t(seats[1]), b: w.red ?? 0, target: p?.series?.target ?? "?",
  });
}

// A refusal about a place, naming it once: "a1 is already taken (by a red foxhole)." when the
// engine's reason names the place (one of its parameters is the place's id), else
// "Gentle Wood: you threw no dime this turn …". The server words the reason in the reader's
// language, with the board's names for places; nothing here reads the words.
function aboutPlace(name, place, refusal) {
  const why = refusal.detail;
  const text = `${why}.`.replace(/\.\.$/, ".");
  const named = Object.values(refusal.params || {}).includes(place);
  if (!named) return `${name}: ${text}`;
  return text.startsWith(name) ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

// -- the game page ---------------------------------------------------------------------------------------
// One source of truth: every update draws the board, the move list, the status and the latest
// throw from the same view at once. The coins of a throw land in a strip above the board (never
// over it); a newer update replaces them at once, and nothing moves once the game is over.
class GamePage {
  constructor(live, view) {
    this.live = live;
    this.id = view.id;
    this.view = null;
    this.you = view.you || [];
    this.selection = [];
    this.clock = null;
    this.lastSvg = null;
    this.redirected = false;
    this.ply = null; // null: the live position; a number: an earlier position being looked at
    this.presence = DATA.presence || [null, null]; // per seat: online (true), offline, or a bot/nobody
    this.focusToken = null; // the board element the keyboard is on (its token)
    this.baseTitle = document.title;
    this.wasMyTurn = false;
    this.sound = localStorage.getItem("pa-sound") === "on";
    this.board = $("#board");
    const refit = () => this.fitBoard();
    const watcher = new ResizeObserver(refit);
    for (const sel of [".turn-dock", ".turn-bar", "#throw-stage", "#summary", "#interlude", ".board-head"]) {
      const node = $(sel);
      if (node) watcher.observe(node);
    }
    window.addEventListener("resize", refit);
    WIDE.addEventListener("change", refit);
    this.board.addEventListener("click", (e) => this.onBoardClick(e));
    this.board.addEventListener("keydown", (e) => this.onBoardKey(e));
    this.board.addEventListener("focusin", (e) => {
      const node = e.target.closest?.(CLICK_SELECTOR);
      if (node && this.board.contains(node)) this.rove(node);
    });
    $("#throw-btn").addEventListener("click", () => this.throwCoins());
    $("#resign-btn").addEventListener("click", () => this.resign());
    $("#cancel-btn").addEventListener("click", () => this.cancel());
    $("#abort-btn").addEventListener("click", () => this.live.send({ type: "abort", game: this.id }));
    $("#draw-btn").addEventListener("click", () => this.live.send({ type: "draw", game: this.id, answer: "offer" }));
    $("#takeback-btn").addEventListener("click", () => this.live.send({ type: "takeback", game: this.id, answer: "offer" }));
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
      if (e.key === "Escape" && !e.defaultPrevented) this.clearSelection(true);
      // Left and right step through the game when the keyboard is not on the board or a field.
      if (!(e.target === document.body || e.target.closest?.(".history-nav, #moves"))) return;
      if (e.key === "ArrowLeft") { e.preventDefault(); $("#nav-back").click(); }
      else if (e.key === "ArrowRight" && this.ply !== null) { e.preventDefault(); $("#nav-next").click(); }
    });
    live.on("state", (msg) => { if (msg.game.id === this.id) this.receive(msg); });
    live.on("error", (msg) => {
      if (msg.game && msg.game !== this.id) return;
      this.refuse(msg.message);
      this.clearSelection();
    });
    live.on("presence", (msg) => {
      if (msg.game !== this.id) return;
      this.presence = msg.online;
      this.renderPlayers();
    });
    live.on("spectators", (msg) => {
      if (msg.game !== this.id) return;
      const line = $("#spectators");
      line.hidden = msg.count === 0;
      line.textContent = `${msg.count} spectator${msg.count === 1 ? "" : "s"} watching`;
    });
    live.on("open", () => { this.renderControls(); this.renderPlayers(); });
    live.on("close", () => { this.renderControls(); this.renderPlayers(); });
    setInterval(() => this.tickClocks(), 200);
    this.renderSound();
    this.update(view, view.you, view.clock, true);
    live.watch(this.id, true);
    // On a phone the board, the prompt and the buttons fill the screen; the menu is a scroll up.
    if (matchMedia("(max-width: 560px)").matches && view.status === "active") $(".board-col").scrollIntoView();
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
    g.legal = msg.legal || [];
    this.update(g, msg.you, msg.clock);
  }

  update(view, you, clock, first = false) {
    const previous = this.view;
    this.view = view;
    this.you = you || [];
    this.clock = clock ? { ...clock, at: performance.now() } : null;
    if (!previous || previous.version !== view.version) { this.selection = []; this.hideRefusal(); }
    if (view.svg) this.lastSvg = view.svg;
    if (this.ply === null) this.showBoard(this.lastSvg);
    this.renderPlayers();
    this.renderStatus();
    this.renderControls();
    this.renderMoves();
    this.renderFair();
    this.renderInvite();
    this.renderSummary();
    this.renderInterlude();
    this.renderNav();
    this.refreshChoices();
    this.renderThrow(!first && !!previous && view.version > previous.version ? previous.history.length : Infinity);
    this.announce(previous, first);
    this.renderTitle(first);
    $("#game-meta").textContent = [view.rated ? t("rated") : t("casual"), view.options_text ?? gameOptionsText(view.options), this.clockLabel()].filter(Boolean).join(" · ");
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
    if (hadFocus) this.restoreFocus();
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
    const svg = $("svg", this.board);
    this.fitBoard();
    // The live board is a group of buttons, not a picture (a picture's parts are hidden from
    // assistive technology).
    if (svg) svg.setAttribute("role", "group");
    for (const node of $$(CLICK_SELECTOR, this.board)) {
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "-1");
      node.setAttribute("aria-label", labelOf(node));
      $(":scope > title", node)?.remove(); // the label says it; a title would repeat it
    }
    // Stack-a-Cash's winning line (and any game naming lines or regions won): lit at the end.
    const won = new Set((this.view?.position?.lines || []).flat());
    for (const node of $$("[data-place]", this.board)) node.classList.toggle("pa-win", won.has(node.getAttribute("data-place")));
    // The tab stop stays where the keyboard last was.
    const start = this.nodeFor(this.focusToken) || $$(CLICK_SELECTOR, this.board)[0];
    if (start) start.setAttribute("tabindex", "0");
  }

  // One board element is in the tab order (the one the keyboard was last on); arrows move it.
  rove(node) {
    for (const n of $$('[tabindex="0"]', this.board)) if (n !== node) n.setAttribute("tabindex", "-1");
    node.setAttribute("tabindex", "0");
    this.focusToken = `${tokenOf(node)}|${ownerOf(node, this.view.seat_names) ?? ""}`;
  }

  nodeFor(key) {
    if (!key) return null;
    return $$(CLICK_SELECTOR, this.board).find((n) => `${tokenOf(n)}|${ownerOf(n, this.view.seat_names) ?? ""}` === key) || null;
  }

  restoreFocus() {
    const node = this.nodeFor(this.focusToken) || $(".pa-target", this.board) || $(CLICK_SELECTOR, this.board);
    if (node) { this.rove(node); node.focus({ preventScroll: true }); }
  }

  onBoardKey(e) {
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
      this.clearSelection(true);
      node.focus();
    }
  }

  // The element an arrow key moves to from `node` (null at the edge).
  arrowFrom(node, key) {
    const [dx, dy] = ARROWS[key];
    return nearestInDirection(node, $$(CLICK_SELECTOR, this.board), dx, dy);
  }

  // -- players, status, controls ----------------------------------------------------------------------
  renderPlayers() {
    const v = this.view;
    const box = $("#players");
    box.replaceChildren();
    // Your seat at the bottom, like across a table.
    const order = this.you.length === 1 ? [1 - this.you[0], this.you[0]] : [0, 1];
    for (const seat of order) {
      const s = v.seats[seat];
      const toMove = v.status === "active" && (v.to_move === seat || v.thrower === seat);
      const who = s
        ? el("span", { class: "who" },
            s.kind === "bot" ? el("span", { text: playerName(s) }) : el("a", { href: `/players/${s.player}`, text: s.name }),
            el("span", { class: "muted small", text: ` ${s.rating}${s.provisional ? "?" : ""}` }),
            this.mine(seat) && this.you.length === 1 ? el("span", { class: "you-tag", text: t("you") }) : null,
            this.presenceTag(seat))
        : el("span", { class: "who muted", text: t("waiting for a player…") });
      const row = el("div", { class: `player seat${seat}${toMove ? " to-move" : ""}`, "data-seat": seat },
        el("span", { class: "dot", title: sn(v, seat) }),
        el("div", {}, who, el("div", { class: "seat-name", text: sn(v, seat) })),
        el("span", { class: "score", "data-score": seat, "aria-label": t("score %(score)s", { score: fmtScore(v.scores[seat] ?? 0) }), text: fmtScore(v.scores[seat] ?? 0) }));
      if (this.clock) row.append(el("span", { class: "clock", "data-clock": seat }));
      // A turn-based move's deadline, in the reader's own time zone.
      if (toMove && v.deadline) {
        const due = new Date(v.deadline);
        row.append(el("time", { class: "deadline small", "data-deadline": seat, datetime: v.deadline, title: t("the move is due by then, or the game is lost on time"), text: t("move by %(when)s", { when: localTime(due) }) }));
      }
      box.append(row);
    }
    this.tickClocks();
  }

  // "online" or "offline" beside a person's name (said in words; the dot only repeats it). A
  // player looking at their own game is online, also while the page's socket connects (the
  // presence the page was served with is from before it opened): offline only once it is lost.
  presenceTag(seat) {
    let online = this.presence?.[seat];
    const s = this.view.seats[seat];
    if (online === null || online === undefined || !s) return null;
    if (this.mine(seat)) online = !this.live.lost;
    const word = online ? "online" : "offline";
    const label = online ? t("%(name)s is online", { name: s.name }) : t("%(name)s is offline", { name: s.name });
    return el("span", { class: `presence ${word}`, "data-presence": seat, "aria-label": label, text: online ? t("online") : t("offline") });
  }

  tickClocks() {
    if (!this.clock) return;
    const elapsed = performance.now() - this.clock.at;
    for (const seat of [0, 1]) {
      const node = $(`[data-clock="${seat}"]`);
      if (!node) continue;
      const running = this.clock.running === seat && this.view.status === "active";
      const left = this.clock.remaining_ms[seat] - (running ? elapsed : 0);
      node.textContent = fmtClock(left);
      node.classList.toggle("running", running);
      node.classList.toggle("low", left < 10000);
    }
  }

  renderStatus() {
    const v = this.view;
    const status = $("#status");
    status.className = "status";
    const name = (seat) => playerName(v.seats[seat], sn(v, seat));
    let text = "";
    if (v.status === "waiting") text = t("Waiting for an opponent…");
    else if (v.status === "aborted") text = v.termination === "aborted" ? t("This game was aborted: no result, no rating change.") : t("This game was cancelled.");
    else if (v.status === "finished") text = this.resultText();
    else if (v.node === "chance") {
      if (v.thrower !== null && this.mine(v.thrower)) {
        // Offline the button cannot work: say so rather than point at it.
        if (!this.live.open) text = t("Your throw: reconnecting…");
        else text = this.you.length === 2 ? t("%(seat)s: throw the coins", { seat: sn(v, v.thrower) }) : t("Your throw: press “Throw the coins”");
        status.classList.add("your-turn");
      } else text = v.thrower !== null ? t("%(name)s is throwing…", { name: name(v.thrower) }) : t("Coins in the air…");
    } else if (v.to_move !== null) {
      if (this.mine(v.to_move)) {
        text = this.you.length === 2 ? t("%(seat)s to move", { seat: sn(v, v.to_move) }) : t("Your turn");
        status.classList.add("your-turn");
      } else if (v.seats[v.to_move]?.kind === "bot") {
        text = t("%(name)s is thinking…", { name: name(v.to_move) });
        status.classList.add("thinking");
      } else text = t("%(name)s (%(seat)s) to move", { name: name(v.to_move), seat: sn(v, v.to_move) });
    }
    status.textContent = text;
    status.dataset.status = v.status;
    status.hidden = v.status === "finished"; // the result card says it, once
  }

  // The result as the boards say it: the winner named, their score first ("Ada (Tails) wins ·
  // 28–7", as Coin Age's "Tails wins 28-7"); a draw in seat order.
  resultText() {
    const v = this.view;
    const score = (seat) => fmtScore(v.scores[seat] ?? 0);
    if (v.winner === null || v.winner === undefined) {
      const draw = {
        resignation: t("Draw by resignation"), "time forfeit": t("Draw on time"),
        abandoned: t("Draw (abandoned)"), agreement: t("Draw by agreement"),
      }[v.termination] || t("Draw");
      return `${draw} · ${score(0)}–${score(1)}`;
    }
    const params = { name: playerName(v.seats[v.winner], sn(v, v.winner)), seat: sn(v, v.winner) };
    const wins = {
      resignation: () => t("%(name)s (%(seat)s) wins by resignation", params),
      "time forfeit": () => t("%(name)s (%(seat)s) wins on time", params),
      abandoned: () => t("%(name)s (%(seat)s) wins (abandoned)", params),
    }[v.termination]?.() ?? t("%(name)s (%(seat)s) wins", params);
    return `${wins} · ${score(v.winner)}–${score(1 - v.winner)}`;
  }

  renderControls() {
    const v = this.view;
    if (!v) return;
    const active = v.status === "active";
    const throwing = active && v.node === "chance" && v.thrower !== null && this.mine(v.thrower);
    const btn = $("#throw-btn");
    // Offline the button stays in view, disabled, matching the status line.
    btn.hidden = !throwing;
    btn.disabled = throwing && !this.live.open;
    const playing = active && this.you.length > 0;
    // Until each side has moved a game can be aborted: no result, no rating.
    $("#abort-btn").hidden = !(playing && v.abortable);
    $("#resign-btn").hidden = !playing;
    $("#cancel-btn").hidden = !(v.status === "waiting" && this.you.length > 0);
    // Draws and takebacks are asked of a person across the table (not of a bot, not on one screen).
    const me = this.you.length === 1 ? this.you[0] : null;
    const other = me === null ? null : v.seats[1 - me];
    const asking = playing && me !== null && other && other.kind !== "bot";
    $("#draw-btn").hidden = !asking || v.draw_offer === me;
    $("#draw-btn").textContent = asking && v.draw_offer === 1 - me ? t("Accept the draw") : t("Offer a draw");
    const moved = v.history.some((h) => h.seat === me && !h.chance);
    $("#takeback-btn").hidden = !asking || !moved || v.takeback_offer === me;
    this.renderOffers();
    if (throwing) this.renderStatus();
  }

  // Offers in play, seen by both players and the spectators: who offers, and the answer
  // buttons for the one asked.
  renderOffers() {
    const v = this.view;
    const box = $("#offers");
    const lines = [];
    const name = (seat) => playerName(v.seats[seat], sn(v, seat));
    // text(name) words the offer for the others; mineText for the one who made it.
    const offer = (kind, seat, text, mineText) => {
      if (seat === null || seat === undefined || v.status !== "active") return;
      const asked = this.you.length === 1 && !this.mine(seat);
      const line = el("div", { class: "card offer", "data-offer": kind },
        el("span", { text: this.mine(seat) && this.you.length === 1 ? mineText : text(name(seat)) }));
      if (asked) {
        line.append(
          el("button", { class: "btn primary", type: "button", "data-answer": "accept", text: t("Accept"), onclick: () => this.live.send({ type: kind, game: this.id, answer: "accept" }) }),
          el("button", { class: "btn ghost", type: "button", "data-answer": "decline", text: t("Decline"), onclick: () => this.live.send({ type: kind, game: this.id, answer: "decline" }) }));
      }
      lines.push(line);
    };
    offer("draw", v.draw_offer, (who) => t("%(name)s offers a draw", { name: who }), t("Draw offered; waiting for the answer…"));
    offer("takeback", v.takeback_offer, (who) => t("%(name)s asks to take back their last move", { name: who }), t("Takeback asked; waiting for the answer…"));
    box.replaceChildren(...lines);
  }

  renderMoves() {
    const list = $("#moves");
    const v = this.view;
    if (list.childElementCount !== v.history.length || list.dataset.version !== String(v.version)) {
      list.replaceChildren(...v.history.map((h, i) => el("li", {
        class: `${h.chance ? "chance" : ""} ${h.seat !== null ? `seat${h.seat}` : ""}`, "data-ply": i + 1,
      }, el("span", { class: "mv", text: h.text }), h.say && h.say !== h.text ? el("span", { class: "say", "data-words": "engine", text: h.say }) : null, throwCheck(v, h, i))));
      list.dataset.version = String(v.version);
      list.scrollTop = list.scrollHeight;
      $("#move-count").textContent = tn("%(num)d action", "%(num)d actions", v.history.length);
    }
    for (const li of list.children) li.classList.toggle("current", this.ply !== null && Number(li.dataset.ply) === this.ply);
  }

  renderFair() {
    const f = this.view.fair;
    $("#fair").hidden = !f;
    if (!f) return;
    $("#commitment").textContent = f.commitment;
    $("#seed-row").hidden = !f.seed;
    $("#seed").textContent = f.seed || "";
  }

  renderInvite() {
    const v = this.view;
    const waiting = v.status === "waiting";
    const inviteBox = $("#invite-box");
    inviteBox.hidden = !(waiting && DATA.invite_url && this.you.length);
    if (!inviteBox.hidden) $("#invite-url").value = DATA.invite_url;
    const canJoin = waiting && !this.you.length && (v.mode === "seek" || (v.mode === "friend" && DATA.invite));
    // An invitation opened is an invitation taken: the friend is in the game at once. (In the
    // page's script, not the server's GET, so a chat app fetching the link for a preview
    // never takes the seat.)
    if (canJoin && v.mode === "friend" && this.joining === undefined) this.joinByLink();
    $("#join-box").hidden = !canJoin || this.joining === true;
    if (canJoin) {
      const free = v.seats[0] ? 1 : 0;
      $("#join-text").textContent = t("Play %(game)s as %(seat)s against %(opponent)s, as %(name)s.", {
        game: v.title, seat: sn(v, free), opponent: playerName(v.seats[1 - free], "?"), name: DATA.me.name,
      });
    }
  }

  renderSummary() {
    const v = this.view;
    const box = $("#summary");
    const wasHidden = box.hidden;
    box.hidden = v.status !== "finished";
    if (box.hidden) return;
    // A rematch offer changes no version: it redraws the card too (the button becomes "Accept").
    const drawn = `${v.version}:${v.rematch.offers.join(",")}:${v.rematch.id || ""}`;
    if (!wasHidden && box.dataset.version === drawn) return;
    box.dataset.version = drawn;
    const parts = [el("h2", { text: this.resultText() })];
    if (v.rating_changes) {
      const lines = v.rating_changes.map((c) => {
        const seat = v.seats.findIndex((s) => s && s.player === c.player);
        const n = seat >= 0 ? playerName(v.seats[seat], "?") : "?";
        return el("div", { class: "small", text: `${n}: ${c.before} → ${c.after} (${c.delta >= 0 ? "+" : ""}${c.delta})` });
      });
      parts.push(el("div", { class: "rating-changes" }, lines));
    }
    const row = el("div", { class: "row" });
    if (this.you.length) {
      const offered = v.rematch.offers.some((s) => this.mine(s));
      const theyOffered = v.rematch.offers.some((s) => !this.mine(s));
      if (theyOffered && !v.rematch.id && !offered) {
        const seat = v.rematch.offers.find((x) => !this.mine(x));
        parts.push(el("p", { class: "offer-line", "data-offer": "rematch", text: t("%(name)s offers a rematch", { name: playerName(v.seats[seat], sn(v, seat)) }) }));
      }
      if (v.rematch.id) row.append(el("a", { class: "btn primary", href: `/g/${v.rematch.id}`, text: t("Go to the rematch") }));
      else row.append(el("button", {
        class: "btn primary", id: "rematch-btn", type: "button", disabled: offered,
        text: offered ? t("Rematch offered…") : theyOffered ? t("Accept rematch") : t("Rematch"),
        onclick: () => this.live.send({ type: "rematch", game: this.id }),
      }));
    } else if (v.rematch.id) row.append(el("a", { class: "btn", href: `/g/${v.rematch.id}`, text: t("Watch the rematch") }));
    row.append(el("a", { class: "btn", href: `/g/${this.id}/replay`, id: "replay-link", text: t("Replay") }));
    const replayUrl = `${location.origin}/g/${this.id}/replay`;
    row.append(el("button", {
      class: "btn", type: "button", id: "share-btn", "data-url": replayUrl, text: t("Share replay"),
      onclick: () => {
        if (navigator.share) navigator.share({ title: document.title, url: replayUrl }).catch(() => {});
        else navigator.clipboard?.writeText(replayUrl).then(() => toast(t("Replay link copied.")), () => toast(replayUrl));
      },
    }));
    if (v.fair) row.append(el("a", { class: "btn", href: `/g/${this.id}/verify`, text: t("Verify throws") }));
    row.append(el("a", { class: "btn ghost", href: `/new?game=${v.game}`, text: t("New game") }));
    parts.push(row);
    box.replaceChildren(...parts);
  }

  // FlipWars' series: between rounds the finished board gives way to a card saying how the
  // round ended, what is being chosen (the block, who starts) and by whom.
  renderInterlude() {
    const v = this.view;
    const box = $("#interlude");
    const p = v.position || {};
    const phase = v.status === "active" && v.game === "flipwars" ? p.phase : null;
    const between = phase === "block" || phase === "first";
    box.hidden = !between;
    const chooser = v.to_move;
    this.board.closest(".board-wrap").classList.toggle("interlude-on", between);
    this.board.closest(".board-wrap").classList.toggle("chooser", between && this.mine(chooser));
    if (!between) return;
    const you = this.mine(chooser) && this.you.length === 1;
    const who = playerName(v.seats[chooser], sn(v, chooser));
    const last = (p.series?.rounds || []).at(-1);
    const nextRound = phase === "block" ? (last?.round ?? 0) + 1 : p.round;
    const doing = phase === "block"
      ? (you ? t("You choose where the block goes for round %(round)s.", { round: nextRound })
        : t("%(name)s chooses where the block goes for round %(round)s.", { name: who, round: nextRound }))
      : (you ? t("You choose who starts round %(round)s.", { round: nextRound })
        : t("%(name)s chooses who starts round %(round)s.", { name: who, round: nextRound }));
    box.replaceChildren(
      el("h2", { text: last ? t("Round %(round)s: %(result)s", { round: last.round, result: roundResult(last, v.seat_names) }) : t("Between rounds") }),
      el("p", { class: "interlude-wins", text: roundWins(p, v.seat_names) }),
      el("p", { class: "interlude-doing", text: doing }));
  }

  // -- what happened: the latest throw, round and result, in view and to screen readers ------------
  // The strip above the board shows the latest throw of the move list the board is drawn from;
  // its coins spin only when that throw is new in this update and the game goes on.
  renderThrow(freshFrom) {
    const v = this.view;
    const stage = $("#throw-stage");
    let i = v.history.length - 1;
    while (i >= 0 && !v.history[i].chance) i--;
    if (i < 0) { stage.hidden = true; stage.dataset.ply = ""; return; }
    const entry = v.history[i];
    const animate = i >= freshFrom && v.status === "active" && !REDUCED_MOTION.matches;
    if (stage.dataset.ply === String(i + 1) && !animate) {
      // Nothing moves once the game is over (a landing still under way stops where it is due).
      if (v.status !== "active") for (const c of $$(".coin.landing", stage)) c.classList.remove("landing");
      return;
    }
    const coins = coinsOf(entry.text);
    stage.replaceChildren(
      el("div", { class: "coins", "aria-hidden": "true" }, coins.map((c, k) => el("div", {
        class: `coin ${c.face === "H" ? "heads" : "tails"}${animate ? " landing" : ""}`, style: animate ? `animation-delay:${k * 90}ms` : null, "data-face": c.face,
      }, el("span", { class: "face", text: c.face }), c.label ? el("span", { class: "label", text: c.label }) : null))),
      el("div", { class: "caption", "data-words": "engine", text: `${i + 1}. ${entry.say || entry.text}` }));
    stage.dataset.ply = String(i + 1);
    stage.dataset.text = entry.text;
    stage.hidden = false;
  }

  announce(previous, first) {
    const v = this.view;
    if (first || !previous) return;
    const lines = [];
    for (const h of v.history.slice(previous.history.length)) {
      if (h.chance) lines.push(t("Throw: %(move)s.", { move: h.say || h.text }));
      else if (h.seat !== null && !this.mine(h.seat)) lines.push(t("%(name)s: %(move)s.", { name: playerName(v.seats[h.seat], sn(v, h.seat)), move: h.say || h.text }));
    }
    const rounds = v.position?.series?.rounds || [];
    const before = previous.position?.series?.rounds || [];
    if (rounds.length > before.length) {
      const r = rounds.at(-1);
      const round = t("Round %(round)s: %(result)s", { round: r.round, result: roundResult(r, v.seat_names) });
      lines.push(`${round}. ${roundWins(v.position, v.seat_names)}.`);
    }
    if (v.status === "finished" && previous.status !== "finished") lines.push(t("Game over: %(result)s.", { result: this.resultText() }));
    else if (this.myTurn() && !this.wasMyTurn) lines.push(t("Your turn."));
    if (lines.length) $("#announce").textContent = lines.join(" ");
  }

  renderTitle(first) {
    const mine = this.myTurn();
    const yourTurn = t("Your turn");
    document.title = mine ? `● ${yourTurn} · ${this.baseTitle}` : this.view.status === "finished" ? `${this.resultText()} · ${this.baseTitle}` : this.baseTitle;
    if (mine && !this.wasMyTurn && !first && this.sound) beep();
    this.wasMyTurn = mine;
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
    this.clearSelection();
    if (ply === null) {
      this.showBoard(this.lastSvg);
      this.board.closest(".board-wrap").classList.remove("past");
    } else {
      try {
        const res = await fetch(`/api/games/${this.id}/board?ply=${ply}`);
        if (!res.ok) throw new Error("no board");
        const svg = await res.text();
        if (this.ply !== ply) return;
        this.showBoard(svg);
        this.board.closest(".board-wrap").classList.add("past");
      } catch { toast(t("Could not load that position."), "error"); }
    }
    this.renderMoves();
    this.renderNav();
    this.refreshChoices();
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

  // -- click-to-play: the legal actions in notation become clickable places and buttons --------------
  myLegal() {
    const v = this.view;
    if (this.ply !== null) return [];
    if (v.status !== "active" || v.node !== "decision" || v.to_move === null || !this.mine(v.to_move)) return [];
    return v.legal;
  }

  candidates() {
    const sel = this.selection;
    return this.myLegal().filter((a) => sel.every((t, i) => a.tokens[i] === t));
  }

  // The clickable elements for the seat to move (not the opponent's tray).
  clickables() {
    const seat = this.view.to_move;
    return $$(CLICK_SELECTOR, this.board).filter((n) => {
      const owner = ownerOf(n, this.view.seat_names);
      return owner === null || owner === seat;
    });
  }

  places() { return new Set(this.clickables().map(tokenOf)); }

  // A token as players name it: a place by its name on the board ("Gentle Wood"), a coin or
  // tile by its name, a rotation by its arrow.
  words(t) {
    if (CHOICE_WORDS[t]) return CHOICE_WORDS[t];
    if (ROTATION.test(t)) return TOKEN_LABELS[t];
    const named = $$(`[data-place="${CSS.escape(t)}"]`, this.board)[0]?.getAttribute("data-name");
    if (named) return named;
    // A piece by the name its tray gives it ("twin-rifle", not the notation's "twin").
    const piece = $$(CLICK_SELECTOR, this.board).find((n) => tokenOf(n) === t && n.hasAttribute("data-name"));
    if (piece) return piece.getAttribute("data-name");
    if (TOKEN_LABELS[t]) return `${t} · ${TOKEN_LABELS[t]}`;
    return t;
  }

  actionWords(a) {
    if (!a.tokens.length) return VERB_WORDS[a.verb] || a.verb.charAt(0).toUpperCase() + a.verb.slice(1);
    return `${a.verb} ${a.tokens.map((t) => this.words(t)).join(" ")}`;
  }

  refreshChoices() {
    const legal = this.myLegal();
    const cands = this.candidates();
    const depth = this.selection.length;
    const places = this.places();
    const next = new Set(cands.filter((a) => a.tokens.length > depth).map((a) => a.tokens[depth]));
    const complete = cands.filter((a) => a.tokens.length === depth);
    const clickable = new Set(this.clickables());
    const mine = legal.length > 0;
    for (const node of $$(CLICK_SELECTOR, this.board)) {
      const p = clickable.has(node) ? tokenOf(node) : null;
      const target = next.has(p);
      node.classList.toggle("pa-target", target);
      node.classList.toggle("pa-selected", this.selection.includes(p));
      node.setAttribute("aria-disabled", String(!target));
      if (this.selection.includes(p)) node.setAttribute("aria-pressed", "true"); else node.removeAttribute("aria-pressed");
    }
    const box = $("#choices");
    const focusWasHere = box.contains(document.activeElement);
    box.replaceChildren();
    const prompt = $("#prompt");
    if (!mine) {
      prompt.textContent = this.ply !== null ? t("You are looking at an earlier position: press “Live” to return to the game.") : "";
      if (focusWasHere) this.restoreFocus();
      return;
    }
    const buttons = [];
    // Pieces (a tile kind, a coin) get a button even when the tray shows them: trays are small
    // on a phone. Cells and spaces are clicked on the board.
    const cells = new Set(this.clickables().filter((n) => n.hasAttribute("data-place")).map(tokenOf));
    const offBoard = [...next].filter((t) => !cells.has(t));
    const rotations = offBoard.filter((t) => ROTATION.test(t));
    for (const t of offBoard) {
      buttons.push(el("button", {
        class: `btn token${ROTATION.test(t) ? " rot" : ""}`, type: "button", "data-token": t, text: this.words(t),
        onclick: (e) => this.tapToken(e.currentTarget, t),
        onmouseenter: () => this.preview(t), onmouseleave: () => this.unpreview(),
      }));
    }
    for (const a of complete) {
      buttons.push(el("button", {
        class: "btn play", type: "button", "data-action": a.text, text: depth ? t("Play %(move)s", { move: this.actionWords(a) }) : this.actionWords(a),
        onclick: () => this.submit(a.text),
      }));
    }
    if (depth) buttons.push(el("button", { class: "btn ghost clear", type: "button", "aria-keyshortcuts": "Escape", text: t("✕ Clear"), onclick: () => this.clearSelection(true) }));
    box.append(...buttons);
    const onBoard = [...next].filter((t) => places.has(t)).length;
    const chosen = this.selection.map((t) => this.words(t)).join(" ");
    if (depth === 0) prompt.textContent = this.you.length === 2 ? t("%(seat)s: choose a move", { seat: sn(this.view, this.view.to_move) }) : t("Your move: pick a highlighted place or a button below");
    else if (rotations.length && rotations.length === offBoard.length && !onBoard) prompt.textContent = matchMedia("(hover: none)").matches ? t("%(chosen)s: choose a rotation (tap to preview)", { chosen }) : t("%(chosen)s: choose a rotation (hover to preview)", { chosen });
    else if (onBoard) prompt.textContent = complete.length ? t("%(chosen)s: pick a highlighted place or play it", { chosen }) : t("%(chosen)s: pick a highlighted place", { chosen });
    else prompt.textContent = complete.length ? t("%(chosen)s: choose or play it", { chosen }) : t("%(chosen)s: choose", { chosen });
    if (focusWasHere) {
      const first = $(".btn.token, .btn.play", box);
      if (first && !onBoard) first.focus(); else this.restoreFocus();
    }
  }

  // On a touch screen nothing hovers: the first tap on a choice that completes a move shows
  // the board after it, the second plays it.
  tapToken(button, token) {
    const completes = this.candidates().some((a) => a.tokens[this.selection.length] === token && a.tokens.length === this.selection.length + 1);
    if (completes && matchMedia("(hover: none)").matches && this.armed !== token) {
      this.armed = token;
      for (const b of $$("#choices .btn.token")) b.classList.toggle("armed", b === button);
      button.textContent = t("%(move)s — tap again to play", { move: button.textContent });
      this.preview(token);
      return;
    }
    this.armed = null;
    this.choose(token);
  }

  onBoardClick(e) {
    let node = e.target.closest(CLICK_SELECTOR);
    if (!node) node = document.elementsFromPoint(e.clientX, e.clientY).find((n) => n.matches?.(CLICK_SELECTOR));
    if (!node || !this.board.contains(node)) return;
    this.activate(node);
  }

  // A place or piece picked by pointer or keyboard: a step of a move, or the reason it is not.
  activate(node) {
    this.rove(node);
    const place = tokenOf(node);
    const depth = this.selection.length;
    if (this.clickables().includes(node)) {
      if (this.candidates().some((a) => a.tokens[depth] === place)) return this.choose(place);
      // A fresh start from this place, if some move begins there.
      if (depth && this.myLegal().some((a) => a.tokens[0] === place)) {
        this.selection = [];
        return this.choose(place);
      }
    }
    this.explain(node);
  }

  // Why this place cannot be picked now, in the rules' own words where the engine has them.
  async explain(node) {
    const v = this.view;
    const place = tokenOf(node);
    const name = labelOf(node).split(/[,:(]/)[0].trim() || place;
    const owner = ownerOf(node, v.seat_names);
    if (this.ply !== null) return this.refuse(t("You are looking at an earlier position: press “Live” to play."));
    if (v.status !== "active") return this.refuse(v.status === "waiting" ? t("The game has not started yet.") : t("The game is over."));
    if (!this.you.length) return this.refuse(t("You are watching this game."));
    if (v.node === "chance") {
      return this.refuse(v.thrower !== null && this.mine(v.thrower) ? t("Throw the coins first.") : t("The coins are being thrown."));
    }
    if (!this.mine(v.to_move)) return this.refuse(t("It is %(name)s's turn.", { name: playerName(v.seats[v.to_move], sn(v, v.to_move)) }).replace(/s's /, "s' "));
    if (owner !== null && owner !== v.to_move) return this.refuse(t("%(name)s: that is %(seat)s's, not yours.", { name, seat: sn(v, owner) }).replace(/s's,/, "s',"));
    // Ask the rules why what was picked makes no move: the first move of the game's whole list
    // that begins with the picks so far and this one, legal or not. The answer is about what the
    // player did ("the coin on b3 is protected"), never a move guessed for them.
    const depth = this.selection.length;
    const picks = [...this.selection, place].join(" ");
    const version = v.version;
    try {
      const body = await api(`/api/games/${this.id}/why?picks=${encodeURIComponent(picks)}`);
      if (this.view.version !== version) return;
      if (body.detail) return this.refuse(aboutPlace(name, place, body));
      if (body.legal) return this.refuse(depth ? t("%(name)s does not continue this move: press Escape to start again.", { name }) : t("%(name)s: first pick one of the highlighted places or buttons.", { name }));
      this.refuse(depth ? t("%(name)s does not continue this move: press Escape to start again.", { name }) : t("%(name)s is not part of any move now.", { name }));
    } catch { this.refuse(t("%(name)s: not a legal move now.", { name })); }
  }

  refuse(text) {
    const box = $("#refusal");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(this.refusalTimer);
    this.refusalTimer = setTimeout(() => this.hideRefusal(), 8000);
  }

  hideRefusal() { const box = $("#refusal"); if (box) { box.hidden = true; box.textContent = ""; } }

  choose(token) {
    this.unpreview();
    this.hideRefusal();
    this.selection.push(token);
    const cands = this.candidates();
    // One way to finish (a FlipWars tile with one legal rotation, say): play it, asking nothing more.
    if (cands.length === 1) return this.submit(cands[0].text);
    this.refreshChoices();
  }

  clearSelection(byPlayer = false) {
    this.unpreview();
    this.armed = null;
    const had = this.selection.length;
    this.selection = [];
    this.refreshChoices();
    if (byPlayer && had) $("#announce").textContent = t("Choice cleared.");
  }

  submit(text) {
    this.unpreview();
    if (!this.live.send({ type: "move", game: this.id, action: text, version: this.view.version })) {
      this.selection = [];
      this.refreshChoices();
      return;
    }
    const keep = $("#choices").contains(document.activeElement) || this.board.contains(document.activeElement);
    this.selection = [];
    // Until the server answers, nothing is clickable (no double submissions).
    for (const node of $$(".pa-target", this.board)) node.classList.remove("pa-target");
    $("#choices").replaceChildren();
    $("#prompt").textContent = "…";
    if (keep) this.restoreFocus();
  }

  // Hovering a choice that completes a move shows the board after it (which tiles flip).
  preview(token) {
    const cands = this.candidates().filter((a) => a.tokens[this.selection.length] === token);
    if (cands.length !== 1 || cands[0].tokens.length !== this.selection.length + 1) return;
    const action = cands[0].text;
    this.previewing = action;
    this.previewTimer = setTimeout(async () => {
      this.previewAbort = new AbortController();
      try {
        const res = await fetch(`/api/games/${this.id}/preview?action=${encodeURIComponent(action)}`, { signal: this.previewAbort.signal });
        if (!res.ok || this.previewing !== action) return;
        this.board.innerHTML = await res.text();
        this.decorateBoard();
        this.board.classList.add("previewing");
      } catch { /* a preview is a nicety */ }
    }, 120);
  }

  unpreview() {
    clearTimeout(this.previewTimer);
    this.previewAbort?.abort();
    this.previewing = null;
    if (this.board.classList.contains("previewing")) {
      this.board.classList.remove("previewing");
      this.showBoard(this.lastSvg || "");
      this.refreshChoices();
    }
  }

  throwCoins() {
    if (this.live.send({ type: "throw", game: this.id, version: this.view.version })) $("#throw-btn").hidden = true;
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
      await api(`/api/games/${this.id}/join`, { method: "POST", body: { invite: DATA.invite } });
    } catch (err) {
      this.joining = false; // the Join button stays for another try
      toast(err.message, "error");
      this.renderInvite();
    }
  }
}

// -- the replay page ----------------------------------------------------------------------------------------
class ReplayPage {
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
    list.replaceChildren(...view.history.map((h, i) => el("li", {
      class: `${h.chance ? "chance" : ""} ${h.seat !== null ? `seat${h.seat}` : ""}`, "data-ply": i + 1,
      onclick: () => this.go(i + 1),
    }, el("span", { class: "mv", text: h.text }), h.say && h.say !== h.text ? el("span", { class: "say", "data-words": "engine", text: h.say }) : null, throwCheck(view, h, i))));
    this.renderPlayers();
    $("#status").textContent = view.status === "finished" ? GamePage.prototype.resultText.call({ view }) : t("In progress");
    $("#replay-meta").textContent = view.options_text ?? optionsText(view.options);
    trackHeader();
    zoomable($("#board").closest(".board-wrap"));
    this.go(this.ply);
  }

  renderPlayers() {
    const v = this.view;
    $("#players").replaceChildren(...[0, 1].map((seat) => el("div", { class: `player seat${seat}` },
      el("span", { class: "dot" }),
      el("div", {}, el("span", { class: "who", text: playerName(v.seats[seat], "—") }), el("div", { class: "seat-name", text: v.seat_names[seat] })),
      el("span", { class: "score", text: fmtScore(v.scores[seat] ?? 0) }))));
  }

  async board(ply) {
    if (!this.cache.has(ply)) {
      this.cache.set(ply, fetch(`/api/games/${this.id}/board?ply=${ply}`).then((r) => (r.ok ? r.text() : Promise.reject(new Error("no board")))));
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

// -- lobby and home ------------------------------------------------------------------------------------------
function lobbyEntry(g, kind) {
  const names = g.seats.map((s) => (s ? playerName(s) : null));
  const open = t("open seat");
  const info = el("span", { class: "grow" }, el("strong", { text: g.title }), " ",
    el("span", { class: "muted small", text: [g.options_text ?? optionsText(g.options), clockText(g.clock, g.days_per_move), g.rated ? t("rated") : t("casual")].filter(Boolean).join(" · ") }),
    el("div", { class: "small", text: kind === "seek" ? t("by %(name)s", { name: names.find(Boolean) ?? open })
      : [t("%(first)s vs %(second)s", { first: names[0] ?? open, second: names[1] ?? open }), tn("%(num)d action", "%(num)d actions", g.plies)].join(" · ") }));
  if (kind === "seek") {
    const mine = g.seats.some((s) => s && s.player === DATA.me?.id);
    return el("li", { "data-id": g.id }, info, mine
      ? el("a", { class: "btn", href: `/g/${g.id}`, text: t("Yours — open") })
      : el("button", { class: "btn primary", type: "button", "data-join": g.id, text: t("Join"), onclick: async () => {
        try { await api(`/api/games/${g.id}/join`, { method: "POST", body: {} }); location.href = `/g/${g.id}`; } catch (err) { toast(err.message, "error"); }
      } }));
  }
  return el("li", { "data-id": g.id }, info, el("a", { class: "btn", href: `/g/${g.id}`, text: t("Watch") }));
}

// The lobby arrives whole, then as updates: the entries that changed and both lists' order by id.
const lobbyState = { entries: new Map(), seeks: [], live: [] };
function applyLobby(msg) {
  if (!msg.delta) {
    lobbyState.entries = new Map([...msg.seeks, ...msg.live].map((g) => [g.id, g]));
    lobbyState.seeks = msg.seeks.map((g) => g.id);
    lobbyState.live = msg.live.map((g) => g.id);
  } else {
    for (const g of msg.entries) lobbyState.entries.set(g.id, g);
    lobbyState.seeks = msg.seeks;
    lobbyState.live = msg.live;
    const listed = new Set([...msg.seeks, ...msg.live]);
    for (const id of [...lobbyState.entries.keys()]) if (!listed.has(id)) lobbyState.entries.delete(id);
  }
  const pick = (ids) => ids.map((id) => lobbyState.entries.get(id)).filter(Boolean);
  renderLobby({ seeks: pick(lobbyState.seeks), live: pick(lobbyState.live) });
}

function renderLobby(lobby) {
  const seeks = $("#seeks");
  if (seeks) seeks.replaceChildren(...(lobby.seeks.length ? lobby.seeks.map((g) => lobbyEntry(g, "seek")) : [el("li", { class: "empty", text: t("No open seeks. Create one!") })]));
  const live = $("#live") || $("#home-live");
  if (live) live.replaceChildren(...(lobby.live.length ? lobby.live.slice(0, live.id === "home-live" ? 6 : 100).map((g) => lobbyEntry(g, "live")) : [el("li", { class: "empty", text: t("No games in progress right now.") })]));
}

// -- new game ---------------------------------------------------------------------------------------------------
// Options that apply only with some values of another: a random map's number; FlipWars' series
// of rounds, which only Tactical War plays (the other modes are one round, whatever it says).
const ONLY_WITH = [["seed", "map", ["random"]], ["series", "mode", ["tactical"]]];

function setupNewGame() {
  const form = $("#new-game");
  const catalog = Object.fromEntries(DATA.catalog.map((g) => [g.id, g]));
  const pick = (name, value) => { const r = form.querySelector(`input[name="${name}"][value="${value}"]`); if (r) r.checked = true; };
  pick("game", DATA.game);
  pick("mode", DATA.mode);

  function renderGame() {
    const g = catalog[form.game.value];
    if (!g) return;
    $("#game-pitch").textContent = g.pitch;
    $("#seat0-label").textContent = t("%(seat)s (first)", { seat: g.seats[0] });
    $("#seat1-label").textContent = g.seats[1];
    const box = $("#options");
    box.replaceChildren(...g.options.map((o) => optionField(o)));
    if (!g.options.length) box.append(el("p", { class: "muted", text: t("This game has no options.") }));
    // An option that applies only with some value of another is shown only then (and not sent
    // otherwise): the form never offers what the game would ignore.
    for (const [name, other, values] of ONLY_WITH) {
      const input = $(`#opt-${name}`, box), ruler = $(`#opt-${other}`, box);
      if (!input || !ruler || ![...ruler.options].some((o) => values.includes(o.value))) continue;
      const sync = () => { input.closest(".field").hidden = !values.includes(ruler.value); };
      ruler.addEventListener("change", sync);
      sync();
    }
    const bot = $("#bot");
    bot.replaceChildren(...g.bots.map((b, i) => el("option", { value: b, text: g.bot_names?.[i] || b })));
    history.replaceState(null, "", `/new?game=${g.id}`);
  }
  function optionField(o) {
    const id = `opt-${o.name}`;
    const title = o.label || o.name.replace(/_/g, " ");
    const label = el("label", { for: id }, title, el("div", { class: "help", text: o.help }));
    let input;
    if (o.type === "bool") {
      input = el("input", { type: "checkbox", id, "data-opt": o.name, "data-type": "bool" });
      input.checked = !!o.default;
      return el("div", { class: "field" }, el("label", { class: "check" }, input, title), el("div", { class: "help muted small", text: o.help }));
    }
    if (o.choices) {
      input = el("select", { id, "data-opt": o.name, "data-type": o.type }, o.choices.map((c, i) => el("option", { value: String(c), text: (o.choice_labels || [])[i] || String(c), selected: c === o.default })));
    } else if (o.type === "int") {
      input = el("input", { type: "number", id, value: o.default, "data-opt": o.name, "data-type": "int" });
    } else if (o.type === "dict" && o.default && Object.values(o.default).every((x) => Number.isInteger(x))) {
      return el("div", { class: "field" }, label, el("div", { class: "coin-counts", "data-opt": o.name, "data-type": "dict" },
        Object.entries(o.default).map(([k, v]) => el("label", {}, k, el("input", { type: "number", min: 0, max: 20, value: v, "data-key": k })))));
    } else {
      input = el("input", { id, value: typeof o.default === "object" ? JSON.stringify(o.default) : o.default, "data-opt": o.name, "data-type": o.type });
    }
    return el("div", { class: "field" }, label, input);
  }
  function renderMode() {
    const mode = form.mode.value;
    $("#bot-field").hidden = mode !== "bot";
    $("#rated-field").hidden = mode === "local";
  }
  form.addEventListener("change", (e) => {
    if (e.target.name === "game") renderGame();
    if (e.target.name === "mode") renderMode();
  });
  renderGame();
  renderMode();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const options = {};
    for (const node of $$("[data-opt]", form)) {
      const name = node.dataset.opt;
      const type = node.dataset.type;
      if (node.closest(".field")?.hidden) continue; // does not apply: left to the game
      if (type !== "dict" && type !== "bool" && node.value === "") continue; // left to its default
      if (type === "bool") options[name] = node.checked;
      else if (type === "int") options[name] = Number(node.value);
      else if (type === "dict") options[name] = Object.fromEntries($$("input", node).map((i) => [i.dataset.key, Number(i.value)]));
      else if (type === "list") { try { options[name] = JSON.parse(node.value); } catch { options[name] = node.value; } }
      else options[name] = node.value;
    }
    const mode = form.mode.value;
    const seat = form.seat.value;
    const clock = form.clock.value;
    const body = {
      game: form.game.value, options, mode,
      seat: seat === "random" ? null : Number(seat),
      bot: mode === "bot" ? $("#bot").value : null,
      clock: clock && !clock.startsWith("days:") ? { initial_s: Number(clock.split("+")[0]), increment_s: Number(clock.split("+")[1]) } : null,
      days_per_move: clock.startsWith("days:") ? Number(clock.slice(5)) : null,
      rated: mode !== "local" && !!$("#rated")?.checked, // a guest is offered no rated game
    };
    const err = $("#new-error");
    err.hidden = true;
    $("#start").disabled = true;
    try {
      const created = await api("/api/games", { method: "POST", body });
      location.href = `/g/${created.id}`;
    } catch (ex) {
      err.textContent = ex.message;
      err.hidden = false;
      $("#start").disabled = false;
    }
  });
}

// -- accounts -----------------------------------------------------------------------------------------------------
function setupAccount() {
  for (const [id, path] of [["#login-form", "/api/auth/login"], ["#register-form", "/api/auth/register"]]) {
    const form = $(id);
    form?.addEventListener("submit", async (e) => {
      e.preventDefault();
      const error = $(".form-error", form);
      error.hidden = true;
      try {
        await api(path, { method: "POST", body: { username: form.username.value, password: form.password.value } });
        location.href = "/account";
      } catch (err) { error.textContent = err.message; error.hidden = false; }
    });
  }
  $("#logout")?.addEventListener("click", async () => { await api("/api/auth/logout", { method: "POST" }); location.href = "/"; });
  $("#logout-everywhere")?.addEventListener("click", async () => {
    try { await api("/api/auth/logout-everywhere", { method: "POST" }); location.href = "/"; } catch (err) { toast(err.message, "error"); }
  });
  const where = $("#sessions-line");
  if (where) api("/api/auth/sessions").then((list) => {
    where.textContent = list.length > 1 ? tn("You are signed in on %(num)d browser or device.", "You are signed in on %(num)d browsers or devices.", list.length) : t("You are signed in on this browser only.");
  }).catch(() => {});
}

// -- the bell: notifications, read when opened ----------------------------------------------------------------
function setupBell() {
  const bell = $("#bell");
  if (!bell) return;
  bell.addEventListener("toggle", async () => {
    if (!bell.open) return;
    try {
      const found = await api("/api/me/notifications");
      const list = $("#bell-list");
      if (found.notifications.length) {
        list.replaceChildren(...found.notifications.map((n) => el("li", { class: n.read ? "" : "unread", "data-kind": n.kind },
          el("a", { href: n.url, text: n.text }), " ",
          el("time", { class: "muted small", datetime: n.created_at, text: localTime(new Date(n.created_at)) }))));
      }
      if (found.unread) await api("/api/me/notifications/read", { method: "POST" });
      $("#bell-count").hidden = true;
    } catch (ex) { toast(ex.message); }
  });
}

// -- friends and challenges (a player's page) ---------------------------------------------------------------
function timeTerms(value) {
  if (value.startsWith("days:")) return { clock: null, days_per_move: Number(value.slice(5)) };
  if (!value) return { clock: null, days_per_move: null };
  const [initial, inc] = value.split("+").map(Number);
  return { clock: { initial_s: initial, increment_s: inc }, days_per_move: null };
}

function challengeText(c, incoming) {
  const time = c.days_per_move ? clockText(null, c.days_per_move) : clockText(c.clock);
  const who = incoming ? c.challenger.name : c.challenged.name;
  const line = incoming ? t("From %(name)s: %(game)s", { name: who, game: c.title }) : t("To %(name)s: %(game)s", { name: who, game: c.title });
  return [line, time, c.rated ? t("rated") : null].filter(Boolean).join(" · ");
}

async function showSocialLists() {
  const inList = $("#challenges-in");
  if (!inList) return;
  const [found, following] = await Promise.all([api("/api/challenges"), api("/api/me/following")]);
  const answer = (c, verb) => async () => {
    try {
      const done = await api(`/api/challenges/${c.id}/${verb}`, { method: "POST" });
      if (done.url) { location.href = done.url; return; }
      showSocialLists();
    } catch (ex) { toast(ex.message); }
  };
  inList.replaceChildren(...found.incoming.map((c) => el("li", { "data-challenge": c.id },
    el("span", { class: "grow", text: challengeText(c, true) }),
    el("button", { class: "btn primary", type: "button", "data-answer": "accept", text: t("Accept"), onclick: answer(c, "accept") }),
    el("button", { class: "btn ghost", type: "button", "data-answer": "decline", text: t("Decline"), onclick: answer(c, "decline") }))));
  $("#challenges-out").replaceChildren(...found.outgoing.map((c) => el("li", { "data-challenge": c.id },
    el("span", { class: "grow", text: challengeText(c, false) }),
    el("button", { class: "btn ghost", type: "button", "data-answer": "cancel", text: t("Cancel"), onclick: answer(c, "cancel") }))));
  $("#following").replaceChildren(...following.map((f) => el("li", { "data-follow": f.id },
    el("a", { href: `/players/${f.id}`, text: f.name }), " ",
    el("span", { class: `presence ${f.online ? "online" : "offline"}`, text: f.online ? t("online") : t("offline") }),
    f.playing ? el("a", { class: "btn", href: `/g/${f.playing}`, text: t("Watch their game") }) : null)));
}

function setupFriends() {
  showSocialLists().catch((ex) => toast(ex.message));
  const bar = $("#friends-bar");
  if (bar) {
    const toggle = (btn, path, on, off) => btn.addEventListener("click", async () => {
      const active = btn.dataset.on === "true";
      try {
        await api(`/api/players/${bar.dataset.player}/${path}`, { method: active ? "DELETE" : "PUT" });
        if (path === "block") { location.reload(); return; }
        btn.dataset.on = String(!active);
        btn.textContent = active ? on : off;
      } catch (ex) { toast(ex.message); }
    });
    toggle($("#follow-btn"), "follow", t("Follow"), t("Unfollow"));
    toggle($("#block-btn"), "block", t("Block"), t("Unblock"));
  }
  const form = $("#challenge-form");
  if (!form) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("#challenge-error");
    err.hidden = true;
    $("#challenge-sent").hidden = true;
    const seat = form.seat.value;
    try {
      await api("/api/challenges", { method: "POST", body: {
        player: form.dataset.player, game: form.game.value, seat: seat === "" ? null : Number(seat),
        rated: form.rated.checked, ...timeTerms(form.time.value),
      } });
      $("#challenge-sent").hidden = false;
    } catch (ex) {
      err.textContent = ex.message;
      err.hidden = false;
    }
  });
}

// -- start --------------------------------------------------------------------------------------------------------
setupName();
showLocalTimes();
setupBell();
const page = document.body.dataset.page;
if (page === "game") {
  window.paGame = new GamePage(new Live(), DATA.game);
} else if (page === "replay") {
  window.paReplay = new ReplayPage(DATA.game);
} else if (page === "lobby" || page === "home") {
  applyLobby(DATA.lobby);
  const live = new Live();
  live.on("lobby", applyLobby);
  live.on("online", (msg) => {
    const where = $("#online-count");
    if (where) where.textContent = tn("%(num)d player online", "%(num)d players online", msg.players);
  });
  live.subscribeLobby();
} else if (page === "new") {
  setupNewGame();
} else if (page === "account") {
  setupAccount();
} else if (page === "player") {
  setupFriends();
}
