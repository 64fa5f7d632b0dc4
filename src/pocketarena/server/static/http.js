// The one way the pages ask the server: a JSON body (or ``raw`` text) out, JSON back (or the
// text, ``as: "text"``, for a board's SVG). A refusal throws an Error carrying the server's words
// (``detail``) and its status; a list of field errors reads "where: what; …".
// Each request is one the page waits for before it is whole (ready.js).
import { t } from "./i18n.js";
import { opening } from "./ready.js";

export function api(path, options = {}) {
  return opening(request(path, options));
}

async function request(path, { method = "GET", body, raw = false, as = "json", signal } = {}) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": raw ? "text/plain" : "application/json" },
    body: body === undefined || raw ? body : JSON.stringify(body),
    credentials: "same-origin",
    signal,
  });
  if (res.ok && as === "text") return res.text();
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    let detail = data?.detail ?? t("The request failed (%(status)s).", { status: res.status });
    if (Array.isArray(detail)) {
      detail = detail.map((d) => {
        const where = (d.loc || []).slice(1).join(".");
        return where ? `${where}: ${d.msg}` : d.msg;
      }).join("; ");
    }
    const err = new Error(detail);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return data;
}
