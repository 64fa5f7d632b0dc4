// Table chat of a game (served by /api/games/{id}/chat; new messages arrive on the page's
// socket as {"type": "chat"}, which app.js passes on as "pa:live" events of the document).
// Players see the players' room, everyone else the spectators'. Messages are always shown as
// text (textContent), never as HTML. Muted people and the off switch are kept in this browser.
import { dateTime, t } from "./i18n.js";
import { api } from "./http.js";
import { personName } from "./format.js";

const box = document.getElementById("chat");
const gameId = box?.closest("[data-game-id]")?.dataset.gameId;
const MUTED_KEY = "pa-chat-muted";
const OFF_KEY = "pa-chat-off";

function load(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
function keep(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: this page only */ }
}

const ask = (method, path, body) => api(path, { method, body });

if (box && gameId) {
  const replay = box.dataset.mode === "replay";
  const $ = (id) => document.getElementById(id);
  const log = $("chat-log"), empty = $("chat-empty"), quick = $("chat-quick"), form = $("chat-form");
  const input = $("chat-input"), error = $("chat-error"), mutedBox = $("chat-muted");
  const toggle = $("chat-toggle"), body = $("chat-body"), title = $("chat-title");
  let view = null;
  const seen = new Set();
  const names = new Map(); // player id -> name, for the muted list
  let muted = new Set(load(MUTED_KEY, []));
  let seatKey = null;
  let meId = null;
  try { meId = JSON.parse(document.getElementById("page-data")?.textContent || "{}").me?.id ?? null; } catch { /* none */ }

  const setOff = (off) => {
    body.hidden = off;
    toggle.textContent = off ? t("Show chat") : t("Hide chat");
    toggle.setAttribute("aria-pressed", String(off));
    keep(OFF_KEY, off);
  };
  toggle.addEventListener("click", () => setOff(!body.hidden));
  setOff(Boolean(load(OFF_KEY, false)));

  const showError = (text) => { error.textContent = text; error.hidden = !text; };

  const renderMuted = () => {
    mutedBox.replaceChildren();
    mutedBox.hidden = muted.size === 0;
    for (const pid of muted) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn ghost small-btn";
      b.textContent = t("Unmute %(name)s", { name: names.get(pid) || t("someone") });
      b.addEventListener("click", () => setMuted(pid, false));
      mutedBox.append(b);
    }
  };
  const setMuted = (pid, on) => {
    if (on) muted.add(pid); else muted.delete(pid);
    keep(MUTED_KEY, [...muted]);
    for (const li of log.children) li.hidden = muted.has(li.dataset.player);
    renderMuted();
  };

  const add = (m) => {
    if (seen.has(m.id) || m.room !== view?.room) return;
    seen.add(m.id);
    names.set(m.player, personName(m));
    const li = document.createElement("li");
    li.dataset.player = m.player;
    li.hidden = muted.has(m.player);
    // When it was said, on the reader's clock (their time zone); the full moment on hover.
    const when = document.createElement("time");
    when.className = "chat-time muted small";
    when.dateTime = m.at;
    when.title = dateTime(m.at);
    when.textContent = dateTime(m.at, { hour: "2-digit", minute: "2-digit" });
    const who = document.createElement("strong");
    who.textContent = personName(m);
    const text = document.createElement("span");
    text.className = "chat-text";
    // A quick phrase is said in the reader's language; what people write, as they wrote it.
    text.textContent = view?.quick?.includes(m.text) ? t(m.text) : m.text;
    li.append(when, " ", who, " ", text);
    if (m.player !== meId) {
      const mute = document.createElement("button");
      mute.type = "button";
      mute.className = "chat-mute";
      mute.textContent = t("Mute");
      mute.setAttribute("aria-label", t("Mute %(name)s", { name: personName(m) }));
      mute.addEventListener("click", () => setMuted(m.player, true));
      li.append(" ", mute);
    }
    log.append(li);
    empty.hidden = true;
    log.scrollTop = log.scrollHeight;
  };

  const send = async (text) => {
    showError("");
    try {
      add(await ask("POST", `/api/games/${gameId}/chat`, { room: view.room, text }));
      return true;
    } catch (e) {
      showError(e.message);
      return false;
    }
  };

  const refresh = async () => {
    try {
      const fresh = await ask("GET", `/api/games/${gameId}/chat`);
      const roomChanged = !view || view.room !== fresh.room;
      view = fresh;
      if (roomChanged) { log.replaceChildren(); seen.clear(); }
      const rooms = { players: t("Players' chat"), spectators: t("Spectators' chat") };
      title.textContent = rooms[view.room];
      for (const m of view.messages) add(m);
      empty.hidden = log.children.length > 0;
      const writing = !replay && view.can_write;
      form.hidden = !(writing && view.free_text);
      quick.hidden = !writing;
      if (writing && !quick.children.length) {
        for (const phrase of view.quick) {
          const b = document.createElement("button");
          b.type = "button";
          b.className = "btn ghost small-btn";
          b.textContent = t(phrase);
          b.addEventListener("click", () => send(phrase));
          quick.append(b);
        }
      }
      renderMuted();
    } catch (e) {
      showError(e.message);
    }
  };

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (await send(text)) input.value = "";
  });

  document.addEventListener("pa:live", (e) => {
    const msg = e.detail;
    if (msg.type === "hello") meId = msg.player ?? meId;
    else if (msg.type === "chat" && msg.game === gameId) add(msg.message);
    else if (msg.type === "open") refresh(); // after a reconnection: what was missed
    else if (msg.type === "state" && msg.game?.id === gameId) {
      const key = `${(msg.you || []).length > 0}`;
      if (seatKey !== null && key !== seatKey) refresh(); // joined: now in the players' room
      seatKey = key;
    }
  });
  refresh();
}
