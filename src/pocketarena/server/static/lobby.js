// The lobby and the home page: open seeks to join and games to watch, kept current by the socket.
import { $, DATA, el, toast } from "./dom.js";
import { api } from "./http.js";
import { t, tn } from "./i18n.js";
import { clockText, optionsText, playerName, standingText } from "./format.js";

// ------------------------------------------------------------------------------------------
function lobbyEntry(g, kind) {
  const names = g.seats.map((s) => (s ? playerName(s) : null));
  const open = t("open seat");
  const info = el("span", { class: "grow" }, el("strong", { text: g.title }), " ",
    el("span", { class: "muted small", text: [g.options_text ?? optionsText(g.options), clockText(g.clock, g.days_per_move), standingText(g)].filter(Boolean).join(" · ") }),
    el("div", { class: "small", text: kind === "seek" ? t("by %(name)s", { name: names.find(Boolean) ?? open })
      : [t("%(first)s vs %(second)s", { first: names[0] ?? open, second: names[1] ?? open }), tn("%(num)d action", "%(num)d actions", g.plies)].join(" · ") }));
  if (kind === "seek") {
    const mine = g.seats.some((s) => s && s.player === DATA.me?.id);
    return el("li", { "data-id": g.id }, info, mine
      ? el("a", { class: "btn", href: `/g/${g.id}`, text: t("Yours — open") })
      : el("button", { class: "btn primary", type: "button", "data-join": g.id, text: t("Join"), onclick: async () => {
        try { await api(`/api/games/${g.id}/join?svg=false`, { method: "POST", body: {} }); location.href = `/g/${g.id}`; } catch (err) { toast(err.message, "error"); }
      } }));
  }
  return el("li", { "data-id": g.id }, info, el("a", { class: "btn", href: `/g/${g.id}`, text: t("Watch") }));
}

// The lobby arrives whole, then as updates: the entries that changed and both lists' order by id.
const lobbyState = { entries: new Map(), seeks: [], live: [] };
export function applyLobby(msg) {
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

export function startLobby(live) {
  applyLobby(DATA.lobby);
  live.on("lobby", applyLobby);
  live.on("online", (msg) => {
    const where = $("#online-count");
    if (where) where.textContent = tn("%(num)d player online", "%(num)d players online", msg.players);
  });
  live.subscribeLobby();
}
