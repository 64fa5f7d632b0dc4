// The visitor: the name chip in every page's header, the bell of notifications, and the
// account page (sign in, register, sign out, sessions).
import { $, DATA, el, toast } from "./dom.js";
import { api } from "./http.js";
import { t, tn } from "./i18n.js";
import { localTime, personName } from "./format.js";

// -- identity: the name chip in the header --------------------------------------------------------
export function setupName() {
  const chip = $("#me-name");
  const dialog = $("#name-dialog");
  if (!chip || !dialog) return;
  chip.addEventListener("click", () => { $("#name-error").hidden = true; dialog.showModal(); $("#name-input").select(); });
  $("#name-cancel").addEventListener("click", () => dialog.close());
  $("#name-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const me = await api("/api/me", { method: "PATCH", body: { name: $("#name-input").value } });
      chip.textContent = personName(me);
      Object.assign(DATA.me, { name: me.name, guest: me.guest });
      dialog.close();
      toast(t("You are now %(name)s.", { name: personName(me) }));
    } catch (err) {
      const p = $("#name-error");
      p.textContent = err.message;
      p.hidden = false;
    }
  });
}

// -- the bell: notifications, read when opened ----------------------------------------------------------------
export function setupBell() {
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

// -- accounts -----------------------------------------------------------------------------------------------------
export function setupAccount() {
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
