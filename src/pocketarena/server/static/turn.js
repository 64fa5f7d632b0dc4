// The player's turn on the game page: the legal actions (each a verb and its words) become
// highlighted places on the board and buttons below it, picked in the notation's order by the
// move picker; a pick no action takes is answered with the rules' reason; hovering (or a first
// tap on) a choice that completes a move previews the board after it.
import { $, $$, el } from "./dom.js";
import { api } from "./http.js";
import { t } from "./i18n.js";
import { BoardKeys, CLICK_SELECTOR, labelOf, ownerOf, tokenOf } from "./board.js";
import { playerName, seatName } from "./format.js";
import { Picks } from "./picker.js";
import { actionWords, isRotation, tokenWords } from "./tokens.js";

const HOVERLESS = matchMedia("(hover: none)");

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

export class Turn {
  constructor(page) {
    this.page = page;
    this.board = page.board;
    this.picks = new Picks({ inOrder: true });
    this.keys = new BoardKeys(this.board, {
      seatNames: () => page.view.seat_names,
      activate: (node) => this.activate(node),
      clear: () => this.clear(true),
    });
    this.board.addEventListener("click", (e) => this.onBoardClick(e));
  }

  // The actions the player can pick now (none while they look at an earlier position).
  myLegal() {
    const p = this.page;
    const v = p.view;
    if (p.ply !== null) return [];
    if (v.status !== "active" || v.node !== "decision" || v.to_move === null || !p.mine(v.to_move)) return [];
    return v.legal;
  }

  candidates() {
    this.picks.legal = this.myLegal();
    return this.picks.matching();
  }

  // The clickable elements for the seat to move (not the opponent's tray).
  clickables() {
    const v = this.page.view;
    return $$(CLICK_SELECTOR, this.board).filter((n) => {
      const owner = ownerOf(n, v.seat_names);
      return owner === null || owner === v.to_move;
    });
  }

  words(token) { return tokenWords(token, this.board); }

  refresh() {
    const page = this.page;
    const mine = this.myLegal().length > 0;
    this.candidates();
    const picked = this.picks.picked;
    const depth = picked.length;
    const next = this.picks.next();
    const complete = this.picks.complete();
    const clickable = new Set(this.clickables());
    const places = new Set([...clickable].map(tokenOf));
    for (const node of $$(CLICK_SELECTOR, this.board)) {
      const p = clickable.has(node) ? tokenOf(node) : null;
      const target = next.has(p);
      node.classList.toggle("pa-target", target);
      node.classList.toggle("pa-selected", picked.includes(p));
      node.setAttribute("aria-disabled", String(!target));
      if (picked.includes(p)) node.setAttribute("aria-pressed", "true"); else node.removeAttribute("aria-pressed");
    }
    const box = $("#choices");
    const focusWasHere = box.contains(document.activeElement);
    box.replaceChildren();
    const prompt = $("#prompt");
    if (!mine) {
      prompt.textContent = page.ply !== null ? t("You are looking at an earlier position: press “Live” to return to the game.") : "";
      if (focusWasHere) this.keys.restore();
      return;
    }
    const buttons = [];
    // Pieces (a tile kind, a coin) get a button even when the tray shows them: trays are small
    // on a phone. Cells and spaces are clicked on the board.
    const cells = new Set([...clickable].filter((n) => n.hasAttribute("data-place")).map(tokenOf));
    const offBoard = [...next].filter((tok) => !cells.has(tok));
    const rotations = offBoard.filter(isRotation);
    for (const tok of offBoard) {
      buttons.push(el("button", {
        class: `btn token${isRotation(tok) ? " rot" : ""}`, type: "button", "data-token": tok, text: this.words(tok),
        onclick: (e) => this.tapToken(e.currentTarget, tok),
        onmouseenter: () => this.preview(tok), onmouseleave: () => this.unpreview(),
      }));
    }
    for (const a of complete) {
      const said = actionWords(a, this.board);
      buttons.push(el("button", {
        class: "btn play", type: "button", "data-action": a.text, text: depth ? t("Play %(move)s", { move: said }) : said,
        onclick: () => this.submit(a.text),
      }));
    }
    if (depth) buttons.push(el("button", { class: "btn ghost clear", type: "button", "aria-keyshortcuts": "Escape", text: t("✕ Clear"), onclick: () => this.clear(true) }));
    box.append(...buttons);
    const onBoard = [...next].filter((tok) => places.has(tok)).length;
    const chosen = picked.map((tok) => this.words(tok)).join(" ");
    if (depth === 0) prompt.textContent = page.you.length === 2 ? t("%(seat)s: choose a move", { seat: seatName(page.view, page.view.to_move) }) : t("Your move: pick a highlighted place or a button below");
    else if (rotations.length && rotations.length === offBoard.length && !onBoard) prompt.textContent = HOVERLESS.matches ? t("%(chosen)s: choose a rotation (tap to preview)", { chosen }) : t("%(chosen)s: choose a rotation (hover to preview)", { chosen });
    else if (onBoard) prompt.textContent = complete.length ? t("%(chosen)s: pick a highlighted place or play it", { chosen }) : t("%(chosen)s: pick a highlighted place", { chosen });
    else prompt.textContent = complete.length ? t("%(chosen)s: choose or play it", { chosen }) : t("%(chosen)s: choose", { chosen });
    if (focusWasHere) {
      const first = $(".btn.token, .btn.play", box);
      if (first && !onBoard) first.focus(); else this.keys.restore();
    }
  }

  // The one action a pick of ``token`` would complete, or null.
  completedBy(token) {
    this.candidates();
    const left = this.picks.after(token);
    return left && left.length === 1 && left[0].tokens.length === this.picks.picked.length + 1 ? left[0] : null;
  }

  // On a touch screen nothing hovers: the first tap on a choice that completes a move shows
  // the board after it, the second plays it.
  tapToken(button, token) {
    if (this.completedBy(token) && HOVERLESS.matches && this.armed !== token) {
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

  // A place or piece picked by pointer or keyboard: a step of a move (or a fresh start from
  // it), or the reason it is not.
  activate(node) {
    this.keys.rove(node);
    const place = tokenOf(node);
    this.candidates();
    if (this.clickables().includes(node) && this.picks.after(place)) return this.choose(place);
    this.explain(node);
  }

  // Why this place cannot be picked now, in the rules' own words where the engine has them.
  async explain(node) {
    const page = this.page;
    const v = page.view;
    const place = tokenOf(node);
    const name = labelOf(node).split(/[,:(]/)[0].trim() || place;
    const owner = ownerOf(node, v.seat_names);
    if (page.ply !== null) return this.refuse(t("You are looking at an earlier position: press “Live” to play."));
    if (v.status !== "active") return this.refuse(v.status === "waiting" ? t("The game has not started yet.") : t("The game is over."));
    if (!page.you.length) return this.refuse(t("You are watching this game."));
    if (v.node === "chance") {
      return this.refuse(v.thrower !== null && page.mine(v.thrower) ? t("Throw the coins first.") : t("The coins are being thrown."));
    }
    if (!page.mine(v.to_move)) return this.refuse(t("It is %(name)s's turn.", { name: playerName(v.seats[v.to_move], seatName(v, v.to_move)) }));
    if (owner !== null && owner !== v.to_move) return this.refuse(t("%(name)s belongs to %(seat)s, not to you.", { name, seat: seatName(v, owner) }));
    // Ask the rules why what was picked makes no move: the first move of the game's whole list
    // that begins with the picks so far and this one, legal or not. The answer is about what the
    // player did ("the coin on b3 is protected"), never a move guessed for them.
    const depth = this.picks.picked.length;
    const picks = [...this.picks.picked, place].join(" ");
    const version = v.version;
    try {
      const body = await api(`/api/games/${page.id}/why?picks=${encodeURIComponent(picks)}`);
      if (page.view.version !== version) return;
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
    this.candidates();
    const left = this.picks.pick(token);
    // One way to finish (a FlipWars tile with one legal rotation, say): play it, asking nothing more.
    if (left && left.length === 1) return this.submit(left[0].text);
    this.refresh();
  }

  clear(byPlayer = false) {
    this.unpreview();
    this.armed = null;
    const had = this.picks.picked.length;
    this.picks.clear();
    this.refresh();
    if (byPlayer && had) $("#announce").textContent = t("Choice cleared.");
  }

  submit(text) {
    const page = this.page;
    this.unpreview();
    this.picks.clear();
    if (!page.live.send({ type: "move", game: page.id, action: text, version: page.view.version, ack: false })) {
      this.refresh();
      return;
    }
    const keep = $("#choices").contains(document.activeElement) || this.board.contains(document.activeElement);
    // Until the server answers, nothing is clickable (no double submissions).
    for (const node of $$(".pa-target", this.board)) node.classList.remove("pa-target");
    $("#choices").replaceChildren();
    $("#prompt").textContent = "…";
    if (keep) this.keys.restore();
  }

  // Hovering a choice that completes a move shows the board after it (which tiles flip).
  preview(token) {
    const action = this.completedBy(token)?.text;
    if (!action) return;
    this.previewing = action;
    this.previewTimer = setTimeout(async () => {
      this.previewAbort = new AbortController();
      try {
        const svg = await api(`/api/games/${this.page.id}/preview?action=${encodeURIComponent(action)}`, { as: "text", signal: this.previewAbort.signal });
        if (this.previewing !== action) return;
        this.board.innerHTML = svg;
        this.page.decorateBoard();
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
      this.page.showBoard(this.page.lastSvg || "");
      this.refresh();
    }
  }
}
