// Tournaments: the create form of /tournaments, and a tournament's page (/t/{id}), whose
// standings and pairings follow the tournament live: the socket says it changed
// ({"type": "tournament"}), the page fetches its live part again as HTML (/t/{id}/live), so
// every word on it comes from the server's templates, in the reader's language.
import { api as request } from "./http.js";

const ask = (method, path, body) => request(path, { method, body });

function showError(err) {
  const box = document.getElementById("tournament-error");
  if (!box) return;
  box.textContent = err ? err.message : "";
  box.hidden = !err;
}

// -- the create form -----------------------------------------------------------------------------
const form = document.getElementById("tournament-form");
if (form) {
  const kindChanged = () => {
    const kind = form.elements.kind.value;
    for (const el of form.querySelectorAll("[data-for-kind]")) el.hidden = el.dataset.forKind !== kind;
    for (const el of form.querySelectorAll("[data-for-kind-not]")) el.hidden = el.dataset.forKindNot === kind;
    if (kind === "arena") form.elements.timed.checked = true;
  };
  form.elements.kind.addEventListener("change", kindChanged);
  kindChanged();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = form.elements;
    const number = (el) => Number.parseInt(el.value, 10);
    const body = {
      name: f.name.value,
      kind: f.kind.value,
      game: f.game.value,
      starts_in_s: number(f.starts_in_min) * 60,
      rated: f.rated.checked,
      invite_only: f.invite_only.checked,
      min_games: number(f.min_games),
      max_players: number(f.max_players),
    };
    if (body.kind === "swiss") body.rounds = number(f.rounds);
    if (body.kind === "arena") body.duration_s = number(f.duration_min) * 60;
    const days = Number.parseInt(f.days_per_move.value, 10);
    if (days && body.kind !== "arena") {
      body.days_per_move = days; // turn-based: no clock
    } else if (f.timed.checked || body.kind === "arena") {
      body.clock = { initial_s: number(f.clock_min) * 60, increment_s: number(f.increment_s) };
    }
    try {
      const made = await ask("POST", "/api/tournaments", body);
      location.assign(`/t/${made.id}`);
    } catch (err) {
      showError(err);
    }
  });
}

// -- a tournament's page --------------------------------------------------------------------------
const head = document.getElementById("tournament");
const id = head?.dataset.tournamentId;
if (head && id) {
  const api = `/api/tournaments/${encodeURIComponent(id)}`;
  const invite = new URLSearchParams(location.search).get("invite");
  const actions = {
    join: () => ask("POST", `${api}/join`, invite ? { invite } : undefined),
    withdraw: () => ask("POST", `${api}/withdraw`),
    start: () => ask("POST", `${api}/start`),
    pause: () => ask("POST", `${api}/pause`),
    resume: () => ask("POST", `${api}/pause?resume=true`),
  };
  for (const button of head.querySelectorAll("[data-action]")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await actions[button.dataset.action]();
        location.reload();
      } catch (err) {
        showError(err);
        button.disabled = false;
      }
    });
  }
  const bots = document.getElementById("bots-form");
  bots?.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await ask("POST", `${api}/bots`, {
        level: bots.elements.level.value,
        count: Number.parseInt(bots.elements.count.value, 10),
      });
      location.reload();
    } catch (err) {
      showError(err);
    }
  });

  const live = document.getElementById("tournament-live");
  let status = document.getElementById("tournament-status")?.dataset.status;
  let game = null;
  let fetching = Promise.resolve();
  const refresh = (view) => {
    fetching = fetching.then(async () => {
      if (view.status !== status) {
        // The buttons change with the status: the whole page again, at once (drawing the live
        // part first only showed it a moment before the reload threw it away).
        status = view.status;
        location.reload();
        return;
      }
      const res = await fetch(`/t/${encodeURIComponent(id)}/live`, { credentials: "same-origin" });
      if (!res.ok) return;
      live.innerHTML = await res.text();
      const mine = view.you?.game ?? null;
      if (mine && mine !== game) {
        // Your next game has started: say so where the eye is (the live part shows the link).
        document.getElementById("your-game")?.scrollIntoView({ block: "center" });
        document.title = `▶ ${document.title.replace(/^▶ /, "")}`;
      }
      game = mine;
    }).catch(() => {});
  };
  let backoff = 500;
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws`);
    ws.addEventListener("open", () => {
      backoff = 500;
      ws.send(JSON.stringify({ type: "tournament", id }));
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "tournament" && msg.tournament?.id === id) refresh(msg.tournament);
    });
    ws.addEventListener("close", () => {
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 8000);
    });
  };
  connect();
}
