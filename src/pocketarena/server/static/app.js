// Pocket Arena's browser client: ES modules, no build step. This one starts what the page
// needs (body[data-page]); each page's code is a module named after it.
// The server is authoritative: the pages only show what they are sent and ask for moves.
//
//   dom.js      the one DOM helper (el, $, $$, toast) and the page's data
//   http.js     the one fetch wrapper (api)
//   ready.js    when the page is whole (html[data-ready])
//   socket.js   the live connection (Live)
//   format.js   names, scores, clocks, times and results as they read
//   board.js    the board's elements, its focus and its keys
//   picker.js   the one move picker (the game page's and the study pages')
//   tokens.js   the notation's words as players read them
//   panels.js   the game page's panels;  turn.js  the player's turn;  game-page.js  the page
//   replay-page.js, lobby.js, new-game.js, account.js, friends.js   the other pages
import { DATA } from "./dom.js";
import { setupAccount, setupBell, setupName } from "./account.js";
import { showLocalTimes } from "./format.js";
import { setupFriends } from "./friends.js";
import { GamePage } from "./game-page.js";
import { startLobby } from "./lobby.js";
import { setupNewGame } from "./new-game.js";
import { ReplayPage } from "./replay-page.js";
import { Live } from "./socket.js";

setupName();
showLocalTimes();
setupBell();

// Everything is imported at once (each file is small and cached), with no second round of
// fetches for the code. The page is whole once <html data-ready> is set (ready.js): its load
// event has passed and the words and requests its scripts started on opening have come back.
const page = document.body.dataset.page;
if (page === "game") window.paGame = new GamePage(new Live(), DATA.game);
else if (page === "replay") window.paReplay = new ReplayPage(DATA.game);
else if (page === "lobby" || page === "home") startLobby(new Live());
else if (page === "new") setupNewGame();
else if (page === "account") setupAccount();
else if (page === "player") setupFriends();
