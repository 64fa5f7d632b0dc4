// The account page's notifications: the email address (verified by a link the server sends),
// Web Push on this browser (a service worker at /push-worker.js, subscribed with the server's
// VAPID key), and the switches of each kind of notice per channel, each saved as it changes.

import { api } from "./http.js";
import { t } from "./i18n.js";
import { opening } from "./ready.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
const $ = (sel, root = document) => root.querySelector(sel);

const ask = (method, path, body) => api(path, { method, body });

function say(where, message, error = false) {
  where.textContent = message;
  where.classList.toggle("form-error", error);
}

// -- the switches ------------------------------------------------------------------------------
const table = $("#notices-table");
table?.addEventListener("change", async (ev) => {
  const box = ev.target;
  const kind = box.closest("tr")?.dataset.kind;
  if (!kind || !box.dataset.channel) return;
  try {
    await ask("PUT", "/api/me/notices/channels", { [kind]: { [box.dataset.channel]: box.checked } });
  } catch (err) {
    box.checked = !box.checked;
    say($("#push-state"), err.message, true);
  }
});

// -- the address -------------------------------------------------------------------------------
const form = $("#email-form");
form?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const error = $(".form-error", form);
  error.hidden = true;
  try {
    const got = await ask("PUT", "/api/me/email", { email: form.email.value.trim() || null });
    form.email.value = got.email || "";
    $("#email-state").textContent = !got.email ? t("We send a link to verify it first.")
      : got.email_verified ? t("Verified: the notifications you switch on for email go there.")
      : t("Sent: open the link in that email to verify the address.");
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
});

// -- push on this browser ----------------------------------------------------------------------
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function setupPush() {
  const button = $("#push-btn");
  const state = $("#push-state");
  const key = DATA.notices?.push_key;
  if (!button || !key) return;
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(state, t("This browser cannot receive push notifications."));
    return;
  }
  const registration = await navigator.serviceWorker.register("/push-worker.js");
  let current = await registration.pushManager.getSubscription();
  const show = () => {
    button.textContent = current ? t("Turn off push on this browser") : t("Turn on push on this browser");
    button.dataset.on = String(Boolean(current));
    button.hidden = false;
  };
  show();
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (current) {
        await ask("DELETE", "/api/me/push", { endpoint: current.endpoint });
        await current.unsubscribe();
        current = null;
        say(state, t("Push is off on this browser."));
      } else {
        if ((await Notification.requestPermission()) !== "granted") {
          say(state, t("The browser does not allow notifications from this site."), true);
          return;
        }
        current = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
        await ask("PUT", "/api/me/push", current.toJSON());
        say(state, t("Push is on on this browser."));
      }
    } catch (err) {
      say(state, err.message, true);
    } finally {
      button.disabled = false;
      show();
    }
  });
}

opening(setupPush().catch((err) => say($("#push-state"), err.message, true)));

