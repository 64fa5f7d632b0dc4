// The new-game form: the game's options as fields (from the catalog), the opponent, the clock.
import { $, $$, DATA, el } from "./dom.js";
import { api } from "./http.js";
import { t } from "./i18n.js";

export function setupNewGame() {
  const form = $("#new-game");
  const catalog = Object.fromEntries(DATA.catalog.map((g) => [g.id, g]));
  const pick = (name, value) => { const r = form.querySelector(`input[name="${name}"][value="${value}"]`); if (r) r.checked = true; };
  pick("game", DATA.game);
  pick("mode", DATA.mode);

  function renderGame() {
    const g = catalog[form.game.value];
    if (!g) return;
    $("#game-pitch").textContent = g.pitch;
    $("#seat0-label").textContent = t("%(seat)s (first)", { seat: g.seats[0] });
    $("#seat1-label").textContent = g.seats[1];
    const box = $("#options");
    box.replaceChildren(...g.options.map((o) => optionField(o)));
    if (!g.options.length) box.append(el("p", { class: "muted", text: t("This game has no options.") }));
    // An option that applies only with some value of another is shown only then (and not sent
    // otherwise): the form never offers what the game would ignore.
    // The game declares which (a random map's number, FlipWars' series of rounds).
    for (const o of g.options.filter((x) => x.applies_when)) {
      const values = o.applies_when.values.map(String);
      const input = $(`#opt-${o.name}`, box), ruler = $(`#opt-${o.applies_when.option}`, box);
      if (!input || !ruler) continue;
      const sync = () => { input.closest(".field").hidden = !values.includes(ruler.value); };
      ruler.addEventListener("change", sync);
      sync();
    }
    const bot = $("#bot");
    bot.replaceChildren(...g.bots.map((b, i) => el("option", { value: b, text: g.bot_names?.[i] || b })));
    history.replaceState(null, "", `/new?game=${g.id}`);
  }
  function optionField(o) {
    const id = `opt-${o.name}`;
    const title = o.label || o.name.replace(/_/g, " ");
    const label = el("label", { for: id }, title, el("div", { class: "help", text: o.help }));
    let input;
    if (o.type === "bool") {
      input = el("input", { type: "checkbox", id, "data-opt": o.name, "data-type": "bool" });
      input.checked = !!o.default;
      return el("div", { class: "field" }, el("label", { class: "check" }, input, title), el("div", { class: "help muted small", text: o.help }));
    }
    if (o.choices) {
      input = el("select", { id, "data-opt": o.name, "data-type": o.type }, o.choices.map((c, i) => el("option", { value: String(c), text: (o.choice_labels || [])[i] || String(c), selected: c === o.default })));
    } else if (o.type === "int") {
      input = el("input", { type: "number", id, value: o.default, "data-opt": o.name, "data-type": "int" });
    } else if (o.type === "dict" && o.default && Object.values(o.default).every((x) => Number.isInteger(x))) {
      return el("div", { class: "field" }, label, el("div", { class: "coin-counts", "data-opt": o.name, "data-type": "dict" },
        Object.entries(o.default).map(([k, v]) => el("label", {}, k, el("input", { type: "number", min: 0, max: 20, value: v, "data-key": k })))));
    } else {
      input = el("input", { id, value: typeof o.default === "object" ? JSON.stringify(o.default) : o.default, "data-opt": o.name, "data-type": o.type });
    }
    return el("div", { class: "field" }, label, input);
  }
  function renderMode() {
    const mode = form.mode.value;
    $("#bot-field").hidden = mode !== "bot";
    $("#rated-field").hidden = mode === "local";
  }
  form.addEventListener("change", (e) => {
    if (e.target.name === "game") renderGame();
    if (e.target.name === "mode") renderMode();
  });
  renderGame();
  renderMode();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const options = {};
    for (const node of $$("[data-opt]", form)) {
      const name = node.dataset.opt;
      const type = node.dataset.type;
      if (node.closest(".field")?.hidden) continue; // does not apply: left to the game
      if (type !== "dict" && type !== "bool" && node.value === "") continue; // left to its default
      if (type === "bool") options[name] = node.checked;
      else if (type === "int") options[name] = Number(node.value);
      else if (type === "dict") options[name] = Object.fromEntries($$("input", node).map((i) => [i.dataset.key, Number(i.value)]));
      else if (type === "list") { try { options[name] = JSON.parse(node.value); } catch { options[name] = node.value; } }
      else options[name] = node.value;
    }
    const mode = form.mode.value;
    const seat = form.seat.value;
    const clock = form.clock.value;
    const body = {
      game: form.game.value, options, mode,
      seat: seat === "random" ? null : Number(seat),
      bot: mode === "bot" ? $("#bot").value : null,
      clock: clock && !clock.startsWith("days:") ? { initial_s: Number(clock.split("+")[0]), increment_s: Number(clock.split("+")[1]) } : null,
      days_per_move: clock.startsWith("days:") ? Number(clock.slice(5)) : null,
      rated: mode !== "local" && !!$("#rated")?.checked, // a guest is offered no rated game
    };
    const err = $("#new-error");
    err.hidden = true;
    $("#start").disabled = true;
    try {
      const created = await api("/api/games?svg=false", { method: "POST", body }); // the page draws the board from its socket
      location.href = `/g/${created.id}`;
    } catch (ex) {
      err.textContent = ex.message;
      err.hidden = false;
      $("#start").disabled = false;
    }
  });
}
