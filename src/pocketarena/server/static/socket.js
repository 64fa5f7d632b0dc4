// The page's one live connection (/ws): it reconnects by itself (backing off to 8 s), says so
// in the header's banner, and watches again what it watched. Handlers hear messages by type
// (live.on("state", fn)); other scripts of the page (chat.js) hear them as "pa:live" events of
// the document. A hello of another build than the page's (an upgrade while the tab stayed open)
// tells the player to reload.
import { $, el, toast } from "./dom.js";
import { t } from "./i18n.js";

const PING_MS = 25000;

// The server was upgraded while this tab stayed open: its scripts are the old ones and may no
// longer read what the new server sends (a move list, a state). Said once, until the player
// reloads; never reloaded for them (a chat message may be half typed).
function noticeUpgrade(build) {
  const mine = document.querySelector('meta[name="pa-build"]')?.content;
  if (!build || !mine || build === mine || $("#upgrade-notice")) return;
  const notice = el("div", { id: "upgrade-notice", class: "toast upgrade-notice", role: "alert" },
    el("span", { text: t("Pocket Arena was updated. Reload the page to go on.") }),
    el("button", { type: "button", class: "btn", text: t("Reload"), onclick: () => location.reload() }));
  const box = $("#toasts");
  if (box) box.prepend(notice);
  else document.body.append(notice);
}

export class Live {
  constructor() {
    this.handlers = {};
    this.watching = new Map(); // game id -> wants svg
    this.lobby = false;
    this.backoff = 500;
    this.refs = 0;
    this.lost = false; // the socket was open and closed, and is not open again yet
    // What the player did while the page's first connection was still opening: sent once it
    // opens (a page is never "reconnecting" before it was connected).
    this.early = [];
    this.connect();
    setInterval(() => this.send({ type: "ping" }, true), PING_MS);
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
      for (const msg of this.early.splice(0)) this.ws.send(JSON.stringify(msg));
      this.emit("open", {});
    });
    this.ws.addEventListener("message", (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "hello") noticeUpgrade(msg.build);
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
    document.dispatchEvent(new CustomEvent("pa:live", { detail: { ...msg, type } }));
  }

  get open() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  // The message's ref, or null when the socket is not open (said in a toast unless quiet);
  // before the first connection opens, the player's messages wait for it.
  send(msg, quiet = false) {
    if (!this.open) {
      if (!this.lost && !quiet && this.ws?.readyState === WebSocket.CONNECTING) {
        msg.ref = ++this.refs;
        this.early.push(msg);
        return msg.ref;
      }
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
