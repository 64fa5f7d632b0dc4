// How the game's values read on a page: names, scores, clocks, times, options and results, in
// the reader's language.
import { dateTime, t, tn } from "./i18n.js";

// A seat's name as the reader says it ("Heads" is "Face" in French).
export const seatName = (v, seat) => t(v.seat_names[seat]);

// A player's name as the reader says it. A bot's stored name is the catalog's source words
// ("Bot · medium") and a guest still called by the name they were given ("Guest 0467") comes
// with its number (``guest``): both are worded here in the reader's language, as the lists of
// bots are; a name a person chose reads as they wrote it.
export function personName(p) {
  if (p.kind === "bot") {
    // A tournament's bot: its level's stored name and a number (server/names.py).
    const numbered = /^(.+) ([0-9]+)$/.exec(p.name);
    return numbered ? t(numbered[1]) + " " + numbered[2] : t(p.name);
  }
  return p.guest ? t("Guest %(number)s", { number: p.guest }) : p.name;
}
export function playerName(seat, fallback) { return seat ? personName(seat) : fallback; }

// A player's name, else their seat's ("Ada", or "Heads" for an empty seat).
export const whoIn = (v, seat) => playerName(v.seats[seat], seatName(v, seat));

export function fmtScore(x) { return Number.isInteger(x) ? String(x) : x.toFixed(1); }

export function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = ms / 1000;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const m = Math.floor(s / 60);
  const r = Math.floor(s % 60);
  return `${m}:${String(r).padStart(2, "0")}`;
}

// How a game counts: a tournament's game says so (it is no friendly, "casual", game).
export function standingText(g) {
  if (g.mode === "tourney") return [t("tournament game"), g.rated ? t("rated") : null].filter(Boolean).join(" · ");
  return g.rated ? t("rated") : t("casual");
}

export function clockText(clock, days) {
  if (days) return tn("%(num)d day per move", "%(num)d days per move", days);
  if (!clock) return t("untimed");
  const [initial, inc] = clock;
  return `${Math.round(initial / 60000 * 10) / 10}+${Math.round(inc / 1000)}`;
}

// A moment as the reader's clock shows it (their time zone and language).
export function localTime(date) {
  return dateTime(date, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

export function showLocalTimes(root = document) {
  for (const node of root.querySelectorAll("[data-local-time]")) {
    const at = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(at.getTime())) node.textContent = localTime(at);
  }
}

// Options as a line, for views the server sent no options_text with.
export function optionsText(options) {
  return Object.entries(options || {})
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? Object.entries(v).map(([a, b]) => `${b}${a}`).join(" ") : v}`)
    .join(" · ");
}

// The game page's options line as players read it: "series", "coins 1Q 1N", no "false".
export function gameOptionsText(options) {
  return Object.entries(options || {})
    .filter(([, v]) => v !== null && v !== undefined && v !== false && v !== "")
    .map(([k, v]) => {
      const name = k.replace(/_/g, " ");
      if (v === true) return name;
      if (typeof v === "object") return `${name} ${Object.entries(v).map(([a, b]) => `${b}${a}`).join(" ")}`;
      return `${name} ${v}`;
    })
    .join(" · ");
}

// The result as the boards say it: the winner named, their score first ("Ada (Tails) wins ·
// 28–7", as Coin Age's "Tails wins 28-7"); a draw in seat order.
export function resultText(v) {
  const score = (seat) => fmtScore(v.scores[seat] ?? 0);
  if (v.winner === null || v.winner === undefined) {
    const draw = {
      resignation: t("Draw by resignation"), "time forfeit": t("Draw on time"),
      abandoned: t("Draw (abandoned)"), agreement: t("Draw by agreement"),
    }[v.termination] || t("Draw");
    return `${draw} · ${score(0)}–${score(1)}`;
  }
  const params = { name: whoIn(v, v.winner), seat: seatName(v, v.winner) };
  const wins = {
    resignation: () => t("%(name)s (%(seat)s) wins by resignation", params),
    "time forfeit": () => t("%(name)s (%(seat)s) wins on time", params),
    abandoned: () => t("%(name)s (%(seat)s) wins (abandoned)", params),
  }[v.termination]?.() ?? t("%(name)s (%(seat)s) wins", params);
  return `${wins} · ${score(v.winner)}–${score(1 - v.winner)}`;
}

// A series of rounds (FlipWars' Tactical War): a finished round and the round wins so far.
export function roundResult(r, seats) {
  const score = [t(seats[0]), r.score?.blue ?? 0, "–", t(seats[1]), r.score?.red ?? 0].join(" ");
  const winner = r.winner ? seats.find((n) => n.toLowerCase() === r.winner) || r.winner : null;
  return winner ? t("%(winner)s wins the round, %(score)s", { winner: t(winner), score }) : t("the round is drawn, %(score)s", { score });
}

export function roundWins(p, seats) {
  const w = p?.series?.round_wins || {};
  return t("Round wins: %(first)s %(a)s – %(second)s %(b)s (first to %(target)s)", {
    first: t(seats[0]), a: w.blue ?? 0, second: t(seats[1]), b: w.red ?? 0, target: p?.series?.target ?? "?",
  });
}

// Chance outcomes as coins: "slap Q:H N:T" (coin letter and face), "flip HH", "flip odd".
export function coinsOf(text) {
  const coins = [];
  for (const tok of text.split(/\s+/).slice(1)) {
    let m;
    if ((m = tok.match(/^([A-Za-z]+):([HT])$/))) coins.push({ label: m[1], face: m[2] });
    else if (/^[HT]+$/.test(tok)) for (const f of tok) coins.push({ label: "", face: f });
    else if (tok === "odd") coins.push({ label: "", face: "H" }, { label: "", face: "T" });
  }
  return coins;
}
