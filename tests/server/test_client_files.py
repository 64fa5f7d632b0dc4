"""The web client as files (issue 26, item 4): ES modules that import one another by name,
served as JavaScript and revalidated on use; the game knowledge they need (the buttons' words,
which option applies when) comes from the games through the catalog."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

import pocketarena as pa
from pocketarena.server import catalog

STATIC = Path(catalog.__file__).parent / "static"
IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+)";', re.M)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function|class|const|let)\s+([\w$]+)", re.M)


def test_every_import_of_a_module_names_a_file_and_its_exports() -> None:
    """A name moved or renamed in one module breaks every page that imports it (a SyntaxError
    before any code runs): each relative import names a file there and names it exports."""
    modules = sorted(STATIC.glob("*.js"))
    exports = {p.name: set(EXPORT.findall(p.read_text(encoding="utf-8"))) for p in modules}
    wrong = []
    for path in modules:
        for names, target in IMPORT.findall(path.read_text(encoding="utf-8")):
            if target not in exports:
                wrong.append(f"{path.name}: no file {target}")
                continue
            for name in (n.split(" as ")[0].strip() for n in names.split(",")):
                if name and name not in exports[target]:
                    wrong.append(f"{path.name}: {target} exports no {name}")
    assert not wrong, wrong
    assert len((STATIC / "app.js").read_text(encoding="utf-8").splitlines()) < 450


def test_modules_are_javascript_and_revalidated(client: TestClient) -> None:
    for name in ("app.js", "dom.js", "picker.js", "game-page.js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert r.headers["content-type"] == "text/javascript; charset=utf-8", name
        assert r.headers["cache-control"] == "no-cache", name
        again = client.get(f"/static/{name}", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")


def test_each_games_button_words_name_words_of_its_notation() -> None:
    """The words a game gives the page's buttons are for tokens and verbs its actions use (a
    renamed token would leave a button in code words)."""
    for game_id in catalog.game_ids():
        words = catalog.game_info(game_id)["words"]
        tokens: set[str] = set()
        alone: set[str] = set()
        for variant in catalog.game_class(game_id).VARIANTS:
            for action in pa.load(game_id, **variant).decisions:
                verb, *rest = action.text.split()
                tokens.update(rest)
                if not rest:
                    alone.add(verb)
        assert set(words["names"]) | set(words["choices"]) <= tokens, game_id
        assert set(words["verbs"]) <= alone, game_id
        assert set(words["rotations"]) <= set(words["choices"]), game_id


def test_an_options_dependency_names_another_option_and_its_choices() -> None:
    """``applies_when`` is what the new-game form shows an option by: it names another option
    of the game with choices, and values among them."""
    seen = []
    for game_id in catalog.game_ids():
        options = {o["name"]: o for o in catalog.game_info(game_id)["options"]}
        for option in options.values():
            when = option["applies_when"]
            if when is None:
                continue
            ruler = options[when["option"]]
            assert ruler["choices"] and set(when["values"]) <= set(ruler["choices"]), option
            seen.append((game_id, option["name"], when["option"]))
    assert ("coin-age", "seed", "map") in seen and ("flipwars", "series", "mode") in seen


def test_the_words_come_in_the_readers_language(client: TestClient) -> None:
    french = client.get("/api/catalog/flipwars", headers={"Accept-Language": "fr"}).json()
    assert french["words"]["choices"]["blue"] == "Bleu commence"
    assert french["words"]["choices"]["r90"] == "↻ 90°"
    english = client.get("/api/catalog/coin-age").json()
    assert english["words"] == {
        "names": {"Q": "Quarter", "N": "Nickel", "P": "Penny", "D": "Dime"},
        "choices": {},
        "verbs": {"end": "End turn"},
        "rotations": [],
    }
