// The page is whole: <html data-ready> once its load event has passed and nothing its scripts
// started on opening is still on its way: the reader's words (i18n.js), every request sent
// through api() (http.js: a puzzle, a lesson, a list), and what a page hands to opening() (the
// push switch's service worker). A request's caller draws what came back before the mark is
// set (a task later). The browser tests wait for it instead of a quiet network, which costs
// half a second more on every page. What the socket brings later is not waited for.
let pending = 0;
let loaded = document.readyState === "complete";

function settle() {
  setTimeout(() => {
    if (loaded && pending === 0) document.documentElement.dataset.ready = "";
  });
}

// ``work`` (a promise) as it was: the page is not whole until it has settled.
export function opening(work) {
  pending += 1;
  return work.finally(() => {
    pending -= 1;
    settle();
  });
}

if (loaded) settle();
else window.addEventListener("load", () => { loaded = true; settle(); }, { once: true });
