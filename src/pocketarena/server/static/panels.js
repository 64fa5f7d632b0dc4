// The game page's panels, each drawn whole from the page's view (page.view, page.you,
// page.clock): the players and their clocks, the status line, the buttons and offers, the move
// list, the fair-play box, the invitation, the result card, the card between rounds, the latest
// throw above the board and what a screen reader hears of each change.
import { $, $$, DATA, el, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import {
  coinsOf, fmtClock, fmtScore, localTime, personName, playerName, resultText, roundResult, roundWins, seatName,
} from "./format.js";

const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)");
const DRAWN = new WeakMap(); // a player's card -> its markup as drawn (before its clock ticked)

// Beside each coin throw of a finished game (its seed revealed): a one-tap check of that throw,
// naming the exact HMAC message it was drawn from (moves count from 0 there: move 1 is "id:0").
export function throwCheck(view, entry, index) {
  if (!entry.chance || !view.fair?.seed) return null;
  return el("a", {
    class: "throw-check", href: `/g/${view.id}/verify#throw-${index}`,
    title: t("HMAC message %(message)s", { message: `${view.id}:${index}` }),
    "aria-label": t("Check this throw (HMAC message %(message)s)", { message: `${view.id}:${index}` }),
    text: t("✓ check"), onclick: (e) => e.stopPropagation(),
  });
}

// A move list's entries: the notation, the game's sentence for it where it says more, and a
// throw's check.
export function moveItems(view, props = () => ({})) {
  return view.history.map((h, i) => el("li", {
    class: `${h.chance ? "chance" : ""} ${h.seat !== null ? `seat${h.seat}` : ""}`, "data-ply": i + 1, ...props(i),
  }, el("span", { class: "mv", text: h.text }), h.say && h.say !== h.text ? el("span", { class: "say", text: h.say }) : null, throwCheck(view, h, i)));
}

export function renderPlayers(page) {
  const v = page.view;
  const box = $("#players");
  const rows = [];
  // Your seat at the bottom, like across a table.
  const order = page.you.length === 1 ? [1 - page.you[0], page.you[0]] : [0, 1];
  for (const seat of order) {
    const s = v.seats[seat];
    const toMove = v.status === "active" && (v.to_move === seat || v.thrower === seat);
    const who = s
      ? el("span", { class: "who" },
          s.kind === "bot" ? el("span", { text: playerName(s) }) : el("a", { href: `/players/${s.player}`, text: playerName(s) }),
          // The rating isolated left to right, so that beside a right-to-left name ("ضيف 3f4a")
          // the provisional mark stays after the figure ("1500?").
          " ", el("span", { class: "muted small", dir: "ltr", text: `${s.rating}${s.provisional ? "?" : ""}` }),
          page.mine(seat) && page.you.length === 1 ? el("span", { class: "you-tag", text: t("you") }) : null,
          presenceTag(page, seat))
      : el("span", { class: "who muted", text: t("waiting for a player…") });
    const row = el("div", { class: `player seat${seat}${toMove ? " to-move" : ""}`, "data-seat": seat },
      el("span", { class: "dot", title: seatName(v, seat) }),
      el("div", {}, who, el("div", { class: "seat-name", text: seatName(v, seat) })),
      el("span", { class: "score", "data-score": seat, "aria-label": t("score %(score)s", { score: fmtScore(v.scores[seat] ?? 0) }), text: fmtScore(v.scores[seat] ?? 0) }));
    if (page.clock) row.append(el("span", { class: "clock", "data-clock": seat }));
    // A turn-based move's deadline, in the reader's own time zone.
    if (toMove && v.deadline) {
      const due = new Date(v.deadline);
      row.append(el("time", { class: "deadline small", "data-deadline": seat, datetime: v.deadline, title: t("the move is due by then, or the game is lost on time"), text: t("move by %(when)s", { when: localTime(due) }) }));
    }
    rows.push(row);
  }
  // A card that reads as it did stays (the same element, whatever holds it): presence and
  // socket news redraw the cards often, and mostly nothing on them changed.
  const kept = [...box.children];
  const same = rows.length === kept.length && rows.every((row, i) => row.innerHTML === DRAWN.get(kept[i]) && row.className === kept[i].className);
  if (!same) {
    for (const row of rows) DRAWN.set(row, row.innerHTML);
    box.replaceChildren(...rows);
  }
  tickClocks(page);
}

// "online" or "offline" beside a person's name (said in words; the dot only repeats it). A
// player looking at their own game is online, also while the page's socket connects (the
// presence the page was served with is from before it opened): offline only once it is lost.
export function presenceTag(page, seat) {
  let online = page.presence?.[seat];
  const s = page.view.seats[seat];
  if (online === null || online === undefined || !s) return null;
  if (page.mine(seat)) online = !page.live.lost;
  const word = online ? "online" : "offline";
  const label = online ? t("%(name)s is online", { name: playerName(s) }) : t("%(name)s is offline", { name: playerName(s) });
  return el("span", { class: `presence ${word}`, "data-presence": seat, "aria-label": label, text: online ? t("online") : t("offline") });
}

export function tickClocks(page) {
  if (!page.clock) return;
  const elapsed = performance.now() - page.clock.at;
  for (const seat of [0, 1]) {
    const node = $(`[data-clock="${seat}"]`);
    if (!node) continue;
    const running = page.clock.running === seat && page.view.status === "active";
    const left = page.clock.remaining_ms[seat] - (running ? elapsed : 0);
    node.textContent = fmtClock(left);
    node.classList.toggle("running", running);
    node.classList.toggle("low", left < 10000);
  }
}

export function renderStatus(page) {
  const v = page.view;
  const status = $("#status");
  status.className = "status";
  const name = (seat) => playerName(v.seats[seat], seatName(v, seat));
  let text = "";
  if (v.status === "waiting") text = t("Waiting for an opponent…");
  else if (v.status === "aborted") text = v.termination === "aborted" ? t("This game was aborted: no result, no rating change.") : t("This game was cancelled.");
  else if (v.status === "finished") text = resultText(page.view);
  else if (v.node === "chance") {
    if (v.thrower !== null && page.mine(v.thrower)) {
      // Offline the button cannot work: say so rather than point at it.
      if (!page.live.open) text = t("Your throw: reconnecting…");
      else text = page.you.length === 2 ? t("%(seat)s: throw the coins", { seat: seatName(v, v.thrower) }) : t("Your throw: press “Throw the coins”");
      status.classList.add("your-turn");
    } else text = v.thrower !== null ? t("%(name)s is throwing…", { name: name(v.thrower) }) : t("Coins in the air…");
  } else if (v.to_move !== null) {
    if (page.mine(v.to_move)) {
      text = page.you.length === 2 ? t("%(seat)s to move", { seat: seatName(v, v.to_move) }) : t("Your turn");
      status.classList.add("your-turn");
    } else if (v.seats[v.to_move]?.kind === "bot") {
      text = t("%(name)s is thinking…", { name: name(v.to_move) });
      status.classList.add("thinking");
    } else text = t("%(name)s (%(seat)s) to move", { name: name(v.to_move), seat: seatName(v, v.to_move) });
  }
  status.textContent = text;
  status.dataset.status = v.status;
  status.hidden = v.status === "finished"; // the result card says it, once
}

export function renderControls(page) {
  const v = page.view;
  if (!v) return;
  const active = v.status === "active";
  const throwing = active && v.node === "chance" && v.thrower !== null && page.mine(v.thrower);
  const btn = $("#throw-btn");
  // Offline the button stays in view, disabled, matching the status line.
  btn.hidden = !throwing;
  btn.disabled = throwing && !page.live.open;
  const playing = active && page.you.length > 0;
  // Until each side has moved a game can be aborted: no result, no rating.
  $("#abort-btn").hidden = !(playing && v.abortable);
  $("#resign-btn").hidden = !playing;
  $("#cancel-btn").hidden = !(v.status === "waiting" && page.you.length > 0);
  // Draws and takebacks are asked of a person across the table (not of a bot, not on one screen).
  const me = page.you.length === 1 ? page.you[0] : null;
  const other = me === null ? null : v.seats[1 - me];
  const asking = playing && me !== null && other && other.kind !== "bot";
  $("#draw-btn").hidden = !asking || v.draw_offer === me;
  $("#draw-btn").textContent = asking && v.draw_offer === 1 - me ? t("Accept the draw") : t("Offer a draw");
  const moved = v.history.some((h) => h.seat === me && !h.chance);
  $("#takeback-btn").hidden = !asking || !moved || v.takeback_offer === me;
  renderOffers(page);
  if (throwing) renderStatus(page);
}

// Offers in play, seen by both players and the spectators: who offers, and the answer
// buttons for the one asked.
export function renderOffers(page) {
  const v = page.view;
  const box = $("#offers");
  const lines = [];
  const name = (seat) => playerName(v.seats[seat], seatName(v, seat));
  // text(name) words the offer for the others; mineText for the one who made it.
  const offer = (kind, seat, text, mineText) => {
    if (seat === null || seat === undefined || v.status !== "active") return;
    const asked = page.you.length === 1 && !page.mine(seat);
    const line = el("div", { class: "card offer", "data-offer": kind },
      el("span", { text: page.mine(seat) && page.you.length === 1 ? mineText : text(name(seat)) }));
    if (asked) {
      line.append(
        el("button", { class: "btn primary", type: "button", "data-answer": "accept", text: t("Accept"), onclick: () => page.live.send({ type: kind, game: page.id, answer: "accept" }) }),
        el("button", { class: "btn ghost", type: "button", "data-answer": "decline", text: t("Decline"), onclick: () => page.live.send({ type: kind, game: page.id, answer: "decline" }) }));
    }
    lines.push(line);
  };
  offer("draw", v.draw_offer, (who) => t("%(name)s offers a draw", { name: who }), t("Draw offered; waiting for the answer…"));
  offer("takeback", v.takeback_offer, (who) => t("%(name)s asks to take back their last move", { name: who }), t("Takeback asked; waiting for the answer…"));
  box.replaceChildren(...lines);
}

export function renderMoves(page) {
  const list = $("#moves");
  const v = page.view;
  if (list.childElementCount !== v.history.length || list.dataset.version !== String(v.version)) {
    list.replaceChildren(...moveItems(v));
    list.dataset.version = String(v.version);
    list.scrollTop = list.scrollHeight;
    $("#move-count").textContent = tn("%(num)d action", "%(num)d actions", v.history.length);
  }
  for (const li of list.children) li.classList.toggle("current", page.ply !== null && Number(li.dataset.ply) === page.ply);
}

export function renderFair(page) {
  const f = page.view.fair;
  $("#fair").hidden = !f;
  if (!f) return;
  $("#commitment").textContent = f.commitment;
  $("#seed-row").hidden = !f.seed;
  $("#seed").textContent = f.seed || "";
}

export function renderInvite(page) {
  const v = page.view;
  const waiting = v.status === "waiting";
  const inviteBox = $("#invite-box");
  inviteBox.hidden = !(waiting && DATA.invite_url && page.you.length);
  if (!inviteBox.hidden) $("#invite-url").value = DATA.invite_url;
  const canJoin = waiting && !page.you.length && (v.mode === "seek" || (v.mode === "friend" && DATA.invite));
  // An invitation opened is an invitation taken: the friend is in the game at once. (In the
  // page's script, not the server's GET, so a chat app fetching the link for a preview
  // never takes the seat.)
  if (canJoin && v.mode === "friend" && page.joining === undefined) page.joinByLink();
  $("#join-box").hidden = !canJoin || page.joining === true;
  if (canJoin) {
    const free = v.seats[0] ? 1 : 0;
    $("#join-text").textContent = t("Play %(game)s as %(seat)s against %(opponent)s, as %(name)s.", {
      game: v.title, seat: seatName(v, free), opponent: playerName(v.seats[1 - free], "?"), name: personName(DATA.me),
    });
  }
}

export function renderSummary(page) {
  const v = page.view;
  const box = $("#summary");
  const wasHidden = box.hidden;
  box.hidden = v.status !== "finished";
  if (box.hidden) return;
  // A rematch offer changes no version: it redraws the card too (the button becomes "Accept").
  const drawn = `${v.version}:${v.rematch.offers.join(",")}:${v.rematch.id || ""}`;
  if (!wasHidden && box.dataset.version === drawn) return;
  box.dataset.version = drawn;
  const parts = [el("h2", { text: resultText(page.view) })];
  if (v.rating_changes) {
    const lines = v.rating_changes.map((c) => {
      const seat = v.seats.findIndex((s) => s && s.player === c.player);
      const n = seat >= 0 ? playerName(v.seats[seat], "?") : "?";
      // Numbers left to right in any page: in Arabic a bare "(-63)" reads "(63-)".
      const change = `${c.before} → ${c.after} (${c.delta >= 0 ? "+" : ""}${c.delta})`;
      return el("div", { class: "small" }, `${n}: `, el("bdi", { dir: "ltr", text: change }));
    });
    parts.push(el("div", { class: "rating-changes" }, lines));
  }
  const row = el("div", { class: "row" });
  if (page.you.length) {
    const offered = v.rematch.offers.some((s) => page.mine(s));
    const theyOffered = v.rematch.offers.some((s) => !page.mine(s));
    if (theyOffered && !v.rematch.id && !offered) {
      const seat = v.rematch.offers.find((x) => !page.mine(x));
      parts.push(el("p", { class: "offer-line", "data-offer": "rematch", text: t("%(name)s offers a rematch", { name: playerName(v.seats[seat], seatName(v, seat)) }) }));
    }
    if (v.rematch.id) row.append(el("a", { class: "btn primary", href: `/g/${v.rematch.id}`, text: t("Go to the rematch") }));
    else row.append(el("button", {
      class: "btn primary", id: "rematch-btn", type: "button", disabled: offered,
      text: offered ? t("Rematch offered…") : theyOffered ? t("Accept rematch") : t("Rematch"),
      onclick: () => page.live.send({ type: "rematch", game: page.id }),
    }));
  } else if (v.rematch.id) row.append(el("a", { class: "btn", href: `/g/${v.rematch.id}`, text: t("Watch the rematch") }));
  row.append(el("a", { class: "btn", href: `/g/${page.id}/replay`, id: "replay-link", text: t("Replay") }));
  const replayUrl = `${location.origin}/g/${page.id}/replay`;
  row.append(el("button", {
    class: "btn", type: "button", id: "share-btn", "data-url": replayUrl, text: t("Share replay"),
    onclick: () => {
      if (navigator.share) navigator.share({ title: document.title, url: replayUrl }).catch(() => {});
      else navigator.clipboard?.writeText(replayUrl).then(() => toast(t("Replay link copied.")), () => toast(replayUrl));
    },
  }));
  if (v.fair) row.append(el("a", { class: "btn", href: `/g/${page.id}/verify`, text: t("Verify throws") }));
  row.append(el("a", { class: "btn ghost", href: `/new?game=${v.game}`, text: t("New game") }));
  parts.push(row);
  box.replaceChildren(...parts);
}

// FlipWars' series: between rounds the finished board gives way to a card saying how the
// round ended, what is being chosen (the block, who starts) and by whom.
export function renderInterlude(page) {
  const v = page.view;
  const box = $("#interlude");
  const p = v.position || {};
  const phase = v.status === "active" && v.game === "flipwars" ? p.phase : null;
  const between = phase === "block" || phase === "first";
  box.hidden = !between;
  const chooser = v.to_move;
  page.board.closest(".board-wrap").classList.toggle("interlude-on", between);
  page.board.closest(".board-wrap").classList.toggle("chooser", between && page.mine(chooser));
  if (!between) return;
  const you = page.mine(chooser) && page.you.length === 1;
  const who = playerName(v.seats[chooser], seatName(v, chooser));
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
export function renderThrow(page, freshFrom) {
  const v = page.view;
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

export function announce(page, previous, first) {
  const v = page.view;
  if (first || !previous) return;
  const lines = [];
  for (const h of v.history.slice(previous.history.length)) {
    if (h.chance) lines.push(t("Throw: %(move)s.", { move: h.say || h.text }));
    else if (h.seat !== null && !page.mine(h.seat)) lines.push(t("%(name)s: %(move)s.", { name: playerName(v.seats[h.seat], seatName(v, h.seat)), move: h.say || h.text }));
  }
  const rounds = v.position?.series?.rounds || [];
  const before = previous.position?.series?.rounds || [];
  if (rounds.length > before.length) {
    const r = rounds.at(-1);
    const round = t("Round %(round)s: %(result)s", { round: r.round, result: roundResult(r, v.seat_names) });
    lines.push(`${round}. ${roundWins(v.position, v.seat_names)}.`);
  }
  if (v.status === "finished" && previous.status !== "finished") lines.push(t("Game over: %(result)s.", { result: resultText(page.view) }));
  else if (page.myTurn() && !page.wasMyTurn) lines.push(t("Your turn."));
  if (lines.length) $("#announce").textContent = lines.join(" ");
}
