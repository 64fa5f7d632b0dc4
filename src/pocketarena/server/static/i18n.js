// The page's words in the reader's language, from the same catalog as the pages (the site's
// .po files, served as JSON by /i18n/<language>.json):
//   t("Your turn"), t("%(name)s to move", { name }), tn("%(num)d action", "%(num)d actions", n)
// Dates and times in the reader's time zone: dateTime(iso), ago(iso) ("3 minutes ago").
import { opening } from "./ready.js";

const DATA = JSON.parse(document.getElementById("page-data")?.textContent || "{}");
const SPEECH = DATA.i18n || {};
export const LOCALE = SPEECH.locale || "en";
export const LANG = document.documentElement.lang || "en";
// The browser's own zone: it is what the reader's clock shows.
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || SPEECH.time_zone || "UTC";

const SOURCE = { messages: {}, plurals: { one: 0, other: 1 } };
async function words() {
  try {
    const res = await fetch(`/i18n/${LOCALE}.json?v=${SPEECH.version || ""}`, { credentials: "same-origin" });
    if (res.ok) return await res.json();
  } catch { /* offline: the source words stay */ }
  return SOURCE;
}
const catalog = LOCALE === "en" ? SOURCE : await opening(words());
const PLURALS = new Intl.PluralRules(LANG);

function fill(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)[sd]/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function t(msgid, params) {
  const text = catalog.messages[msgid];
  return fill(typeof text === "string" ? text : msgid, params);
}

export function tn(singular, plural, n, params) {
  const forms = catalog.messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms)) text = forms[catalog.plurals[PLURALS.select(n)] ?? forms.length - 1] ?? forms.at(-1);
  return fill(text, { num: n, ...params });
}

export function dateTime(iso, options = { dateStyle: "medium", timeStyle: "short" }) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return "";
  return new Intl.DateTimeFormat(LANG, { timeZone: TIME_ZONE, ...options }).format(when);
}

const STEPS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
export function ago(iso, now = Date.now()) {
  const when = new Date(iso).getTime();
  if (Number.isNaN(when)) return "";
  const seconds = Math.round((when - now) / 1000);
  const [unit, size] = STEPS.find(([, s]) => Math.abs(seconds) >= s) || ["second", 1];
  return new Intl.RelativeTimeFormat(LANG, { numeric: "auto" }).format(Math.round(seconds / size), unit);
}

// The server shows times in the zone it was told: tell it once (kept in a cookie, and in the
// account when signed in), and again only when the browser's zone changes (a journey).
if (TIME_ZONE !== SPEECH.time_zone && sessionStorage.getItem("pa-tz-sent") !== TIME_ZONE) {
  sessionStorage.setItem("pa-tz-sent", TIME_ZONE);
  opening(fetch("/api/settings", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ time_zone: TIME_ZONE }),
    credentials: "same-origin",
  }).catch(() => {}));
}

// <time datetime> elements the server wrote: their words in the reader's zone, the full
// moment on hover.
for (const node of document.querySelectorAll("time[data-ago]")) {
  node.title = dateTime(node.dateTime);
  node.textContent = ago(node.dateTime);
}
