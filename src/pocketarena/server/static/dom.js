// Small helpers shared by the study pages (analysis board, puzzles, lessons).

// An element with properties (text, class, onclick, attributes) and children.
export function node(tag, props = {}, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") n.textContent = v;
    else if (k === "class") n.className = v;
    else if (k === "onclick") n.addEventListener("click", v);
    else n.setAttribute(k, v === true ? "" : v);
  }
  n.append(...kids.flat().filter((c) => c !== null && c !== undefined));
  return n;
}

// A request with a JSON body (or ``raw`` text) and a JSON answer; a refusal throws an Error
// with the server's words.
export async function request(method, path, body, raw = false) {
  const type = raw ? "text/plain" : "application/json";
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": type },
    body: body === undefined || raw ? body : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    let detail = data?.detail ?? `the server answered ${res.status}`;
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg).join("; ");
    throw new Error(detail);
  }
  return data;
}
