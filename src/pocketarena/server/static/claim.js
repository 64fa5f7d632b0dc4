// Claim the win when the opponent has left an untimed game (served by /api/games/{id}/claim).
// Self-contained: it asks the server every few seconds while the game page is open and shows
// the block in game.html marked "claim the win" only when the opponent has gone.
import { t } from "./i18n.js";
import { api } from "./http.js";

const box = document.getElementById("claim-box");
const gameId = document.getElementById("game")?.dataset.gameId;
const POLL_MS = 5000;

const ask = (method, path) => api(path, { method });

if (box && gameId) {
  const text = box.querySelector("#claim-text");
  const button = box.querySelector("#claim-btn");
  let waitUntil = null;
  let done = false;

  const show = () => {
    if (waitUntil === null) return;
    const left = Math.max(0, Math.ceil((waitUntil - Date.now()) / 1000));
    button.disabled = left > 0;
    button.textContent = left > 0 ? t("Claim the win in %(seconds)s s", { seconds: left }) : t("Claim the win");
  };

  const poll = async () => {
    if (done) return;
    try {
      const claim = await ask("GET", `/api/games/${gameId}/claim`);
      if (claim.wait_s === null) {
        box.hidden = true;
        waitUntil = null;
        if (claim.final) done = true;
      } else {
        // The reason is worded by the server in the reader's language; a capital first letter
        // where the language has them.
        text.textContent = t("%(reason)s. If they do not come back, you may end the game as a win.", { reason: claim.reason.charAt(0).toLocaleUpperCase(document.documentElement.lang) + claim.reason.slice(1) });
        waitUntil = Date.now() + claim.wait_s * 1000;
        box.hidden = false;
        show();
      }
    } catch { /* offline or gone: try again at the next poll */ }
    if (!done) setTimeout(poll, POLL_MS);
  };

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await ask("POST", `/api/games/${gameId}/claim-win`);
      done = true;
      box.hidden = true;
    } catch (err) {
      text.textContent = err.message;
      button.disabled = false;
    }
  });
  setInterval(show, 1000);
  poll();
}
