// A player's page: follow and block, the challenges sent and received, the people followed.
import { $, el, toast } from "./dom.js";
import { api } from "./http.js";
import { t } from "./i18n.js";
import { clockText } from "./format.js";

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

export function setupFriends() {
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
