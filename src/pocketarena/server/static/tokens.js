// The notation's words as players read them on the game page's buttons: a place by its name on
// the board ("Gentle Wood"), a piece by the name its tray gives it, and the rest by the words
// its game declares (the page's data "words", from the game's drawing through the catalog, in
// the reader's language): a coin beside its letter ("Q · Quarter"), a choice or a rotation
// instead of its word ("Blue starts", "↻ 90°"), a verb alone ("End turn").
import { $$, DATA } from "./dom.js";
import { CLICK_SELECTOR, tokenOf } from "./board.js";

const WORDS = { names: {}, choices: {}, verbs: {}, rotations: [], ...DATA.words };

export const isRotation = (token) => WORDS.rotations.includes(token);

export function tokenWords(token, board) {
  if (WORDS.choices[token]) return WORDS.choices[token];
  const named = $$(`[data-place="${CSS.escape(token)}"]`, board)[0]?.getAttribute("data-name");
  if (named) return named;
  // A piece by the name its tray gives it ("twin-rifle", not the notation's "twin").
  const piece = $$(CLICK_SELECTOR, board).find((n) => tokenOf(n) === token && n.hasAttribute("data-name"));
  if (piece) return piece.getAttribute("data-name");
  if (WORDS.names[token]) return `${token} · ${WORDS.names[token]}`;
  return token;
}

export function actionWords(a, board) {
  if (!a.tokens.length) return WORDS.verbs[a.verb] || a.verb.charAt(0).toUpperCase() + a.verb.slice(1);
  return `${a.verb} ${a.tokens.map((tok) => tokenWords(tok, board)).join(" ")}`;
}
