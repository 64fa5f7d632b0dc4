"""The site in each language: negotiation, the selector's cookie and the account, <html lang
dir>, and (the pseudo-locale) no word on a page that did not go through the catalog."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from pocketarena import explore, i18n, puzzles
from pocketarena.server import catalog
from pocketarena.server import store as store_module
from pocketarena.server.api.routes import ws as ws_route
from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app

from .conftest import Socket, create, make_settings, second_client
from .test_ws import friend_game

PAGES = [
    "/",
    "/new",
    "/lobby",
    "/rules",
    "/analysis",
    "/puzzles",
    "/verify",
    "/account",
    "/tournaments",
]


def html_attrs(page: str) -> dict[str, str]:
    match = re.search(r"<html ([^>]*)>", page)
    assert match
    return dict(re.findall(r'(\w[\w-]*)="([^"]*)"', match.group(1)))


@pytest.mark.parametrize(
    ("header", "lang", "direction"),
    [
        ("fr-FR,fr;q=0.9", "fr", "ltr"),
        ("ar", "ar", "rtl"),
        ("zh-CN", "zh-Hans", "ltr"),
        ("pt-BR", "pt-BR", "ltr"),
        ("sv", "en", "ltr"),
    ],
)
def test_first_visit_speaks_the_browsers_language(
    client: TestClient, header: str, lang: str, direction: str
) -> None:
    r = client.get("/", headers={"Accept-Language": header})
    assert r.status_code == 200
    attrs = html_attrs(r.text)
    assert (attrs["lang"], attrs["dir"]) == (lang, direction)
    assert r.headers["content-language"] == lang


def test_every_page_in_every_language(client: TestClient) -> None:
    heading = {
        "en": "New game",
        "fr": "Nouvelle partie",
        "de": "Neue Partie",
        "ja": "新しい対局",
        "ar": "مباراة جديدة",
        "zh_Hans": "新对局",
        "es": "Nueva partida",
        "pt_BR": "Nova partida",
    }
    for code in i18n.LANGUAGES:
        client.cookies.set("lang", code)
        for path in PAGES:
            r = client.get(path)
            assert r.status_code == 200, (code, path)
            assert html_attrs(r.text)["lang"] == i18n.html_lang(code)
        assert heading[code] in client.get("/new").text
    client.cookies.delete("lang")


def test_the_selector_keeps_the_choice_in_a_cookie_and_goes_back(client: TestClient) -> None:
    r = client.post(
        "/settings",
        data={"language": "de", "theme": "dark", "next": "/lobby?x=1"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/lobby?x=1"
    page = client.get("/lobby", headers={"Accept-Language": "fr"}).text  # the choice wins
    assert html_attrs(page)["lang"] == "de" and html_attrs(page)["data-theme"] == "dark"
    assert "Offene Angebote" in page
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        r = client.post(
            "/settings", data={"language": "en", "next": target}, follow_redirects=False
        )
        assert r.headers["location"] == "/"


@pytest.mark.parametrize(
    "body",
    [
        {"language": "xx"},
        {"time_zone": "Mars/Olympus"},
        {"time_zone": "../../etc/passwd"},
        {"theme": "neon"},
        {"language": 5},
    ],
)
def test_bad_choices_are_refused_in_words(client: TestClient, body: dict[str, object]) -> None:
    r = client.post("/api/settings", json=body)
    assert r.status_code in (400, 422)
    assert "detail" in r.json()
    assert "lang" not in r.cookies and "tz" not in r.cookies


def test_an_account_brings_its_choices_to_another_browser(client: TestClient) -> None:
    client.post("/api/auth/register", json={"username": "polyglot", "password": "s3cret-pass"})
    r = client.post(
        "/api/settings", json={"language": "ja", "time_zone": "Asia/Tokyo", "theme": "dark"}
    )
    assert r.status_code == 200, r.text
    assert r.json() == {"language": "ja", "time_zone": "Asia/Tokyo", "theme": "dark"}
    other = second_client(client)
    r = other.post("/api/auth/login", json={"username": "polyglot", "password": "s3cret-pass"})
    assert r.status_code == 200
    assert r.cookies.get("lang") == "ja" and r.cookies.get("tz", "").strip('"') == "Asia/Tokyo"
    assert html_attrs(other.get("/").text)["lang"] == "ja"


def test_times_are_shown_in_the_readers_zone_and_language(client: TestClient) -> None:
    game = create(client, game="stack-a-cash", mode="bot", bot="random")["game"]
    me = client.get("/api/me").json()["id"]
    client.cookies.set("lang", "de")
    client.cookies.set("tz", "Asia/Tokyo")
    page = client.get(f"/players/{me}").text
    assert game["id"] in page
    assert re.search(r'title="[^"]*\d{2}\.\d{2}\.\d{4}', page)  # German date
    assert "vor" in page or "in" in page  # relative, in German


class TextNodes(HTMLParser):
    """The visible text of a page and the attributes people read (title, aria-label,
    placeholder, alt), outside what is not words: scripts, styles, boards (SVG), code."""

    SKIP = {"script", "style", "svg", "code", "time", "option"}
    READ = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # Text declared in another language (lang="en" on a rules page shown in English for
        # want of a translation into the reader's language) is not the page's own words.
        if tag in self.SKIP or (tag != "html" and dict(attrs).get("lang") == "en"):
            self.skipping.append(tag)
        if not self.skipping:
            self.texts += [v for k, v in attrs if k in self.READ and v]

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.texts.append(data.strip())


# What a page may show without a catalog: names of games and of the site, notation, numbers,
# punctuation, the visitor's own name.
GAME_TITLES = {catalog.game_class(g).TITLE for g in catalog.game_ids()}
NOTATION = {"place L b2; flip b2", "pocketarena verify RECORD"}
ALLOWED = re.compile(r"^[\s\d·•—–\-+±?.,:;/()|«»◀▶←→✓✗…%#]*$")


def untranslated(page: str, names: set[str]) -> list[str]:
    parser = TextNodes()
    parser.feed(page)
    found = []
    for text in parser.texts:
        rest, before = text, None
        while rest != before:  # innermost first: a translated text may hold translated words
            before, rest = rest, re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
        known = names | GAME_TITLES | NOTATION | {"Pocket Arena", "API"}
        for name in sorted(known, key=len, reverse=True):
            rest = rest.replace(name, " ")
        if not ALLOWED.match(rest):
            found.append(text)
    return found


def test_pseudo_locale_shows_nothing_outside_the_catalog(client: TestClient) -> None:
    game = create(client, game="flipwars", mode="bot", bot="random")["game"]
    me = client.get("/api/me").json()
    client.cookies.set("lang", "qps")
    paths = [
        *PAGES,
        f"/g/{game['id']}",
        f"/g/{game['id']}/replay",
        f"/g/{game['id']}/verify",
        f"/players/{me['id']}",
        "/rules/flipwars",
        "/learn",
        "/learn/flipwars",
        "/no/such/page",
    ]
    names = {game["id"], "Randy (random)"}  # the guest's given name is worded too
    problems = {}
    for path in paths:
        r = client.get(path)
        found = untranslated(r.text, names)
        if found:
            problems[path] = found
    assert not problems, "\n".join(f"{p}: {t!r}" for p, ts in problems.items() for t in ts)


def test_a_bot_keeps_one_name_whatever_its_first_visitors_language(settings: Settings) -> None:
    """A bot's player row was made with the words of the first visitor to play it (an Arabic
    'Bot · medium' then showed on a Japanese page): it is stored in the source words and each
    page words it in its own language."""
    with TestClient(create_app(settings)) as c:
        c.headers["Accept-Language"] = "ar"
        body = {"game": "stack-a-cash", "mode": "bot", "bot": "medium", "seat": 0}
        view = c.post("/api/games", json=body).json()["game"]
        bot = next(s for s in view["seats"] if s["kind"] == "bot")
        assert bot["name"] == "Bot · medium"
        c.headers["Accept-Language"] = "ja"
        again = c.get(f"/api/games/{view['id']}").json()
        assert next(s for s in again["seats"] if s["kind"] == "bot")["name"] == "Bot · medium"


def worded(text: str, names: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """Whether ``text`` (not a page: one line the API words) holds no word outside the
    catalog, notation (a coin's letter, a cell, a move) and ``names`` aside."""
    rest = re.sub(r"\b(place|flip|move)\b( [A-Z])?( [a-e][1-5])+( flip)?", " ", text)
    return not untranslated(f"<p>{rest}</p>", set(names))


def test_the_analysis_board_speaks_the_readers_language(client: TestClient) -> None:
    """Everything the analysis board's API says (whose turn, the result, the evaluation and
    its method, each move's value, why a position has no exact values, a refused move) goes
    through a catalog: in the pseudo-locale no word of it is bare English."""
    client.cookies.set("lang", "qps")
    said: list[str] = []
    r = client.post(
        "/api/analysis/position", json={"game_id": "stack-a-cash", "moves": ["place L b2"]}
    )
    assert r.status_code == 200, r.text
    said += [r.json()["status"], r.json()["options_text"]]
    finished = ["place L a1", "place S b1", "place M a2", "place S b2", "place L a3"]
    body = {"game_id": "stack-a-cash", "moves": finished}
    said.append(client.post("/api/analysis/position", json=body).json()["status"])
    said.append(client.post("/api/analysis/evaluate", json=body).json()["method"])
    ev = client.post("/api/analysis/evaluate", json={"game_id": "stack-a-cash"}).json()
    said += [ev["summary"], ev["method"], *(m["describe"] for m in ev["explorer"])]
    r = client.post("/api/analysis/position", json={"game_id": "flipwars"})
    said += [r.json()["exact_reason"], r.json()["status"]]
    coins = {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}
    ev = client.post(
        "/api/analysis/evaluate", json={"game_id": "wallet-battles", "options": coins}
    ).json()
    said += [ev["summary"], ev["method"], ev["note"], *(b["describe"] for b in ev["best"])]
    bad = {"game_id": "stack-a-cash", "moves": ["flip b2"]}
    r = client.post("/api/analysis/position", json=bad)
    assert r.status_code == 400
    said.append(r.json()["detail"])
    bare = [text for text in said if not worded(text, {"FlipWars", "Stack-a-Cash", "hard", "mcts"})]
    assert not bare, bare
    client.cookies.set("lang", "de")
    r = client.post("/api/analysis/position", json={"game_id": "stack-a-cash"})
    assert r.json()["status"] == "Kopf ist am Zug"
    client.cookies.delete("lang")


def test_refusals_are_worded_in_the_readers_language(client: TestClient) -> None:
    """What the server answers a refused request with (a stale move, a gesture nobody can
    answer, an empty chat line, a claim against a bot, a game that does not exist, a bad new
    game) is the reader's language: in the pseudo-locale no word of it is bare English."""
    local = create(client, game="stack-a-cash", mode="local")["id"]
    bot = create(client, game="stack-a-cash", mode="bot", bot="random", seat=0)["game"]["id"]
    client.cookies.set("lang", "qps")
    answers = {
        "stale move": client.post(f"/api/games/{local}/moves", json={"action": "x", "version": 9}),
        "empty move": client.post(f"/api/games/{local}/moves", json={"action": " ", "version": 0}),
        "draw, both seats": client.post(f"/api/games/{local}/draw", json={"answer": "offer"}),
        "draw, a bot": client.post(f"/api/games/{bot}/draw", json={"answer": "offer"}),
        "takeback, none": client.post(f"/api/games/{local}/takeback", json={"answer": "accept"}),
        "claim, a bot": client.post(f"/api/games/{bot}/claim-win"),
        "empty chat": client.post(
            f"/api/games/{local}/chat", json={"room": "players", "text": " "}
        ),
        "no such game": client.get("/api/games/nosuchgame"),
        "bad days": client.post(
            "/api/games", json={"game": "stack-a-cash", "mode": "seek", "days_per_move": 4}
        ),
        "no bot level": client.post("/api/games", json={"game": "stack-a-cash", "mode": "bot"}),
        "analysis, no game": client.post("/api/analysis/position", json={"game_id": "chess"}),
        "a guest follows": client.put("/api/players/nobody/follow"),
        "a guest organises": client.post(
            "/api/tournaments", json={"name": "Cup", "game": "stack-a-cash", "kind": "swiss"}
        ),
        "tournaments, bad status": client.get("/api/tournaments?status=soon"),
        "analysis, long move": client.post(
            "/api/analysis/position", json={"game_id": "stack-a-cash", "moves": ["x" * 81]}
        ),
    }
    bare = {}
    for what, r in answers.items():
        assert 400 <= r.status_code < 500, (what, r.status_code, r.text)
        detail = r.json()["detail"]
        if not isinstance(detail, str) or not worded(detail, {"nosuchgame", "chess", "solo"}):
            bare[what] = detail
    claim = client.get(f"/api/games/{bot}/claim").json()
    if not worded(claim["reason"]):
        bare["claim reason"] = claim["reason"]
    client.cookies.delete("lang")
    assert not bare, bare


def test_the_move_list_and_options_in_each_watchers_language(client: TestClient) -> None:
    """The move list's sentences ("Heads places a large coin on b2") and the options line are
    worded for each reader: over HTTP in the request's language, and over the WebSocket in
    each watcher's own, whoever made the move (the broadcast was made once, in the mover's)."""
    gid = create(client, game="stack-a-cash", mode="local")["id"]
    client.cookies.set("lang", "fr")
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    assert r.status_code == 200, r.text
    assert r.json()["history"][0]["say"] == "Face pose une pièce grande en b2"
    client.cookies.set("lang", "de")
    view = client.get(f"/api/games/{gid}").json()
    assert view["history"][0]["say"] == "Kopf setzt eine große Münze auf b2"
    client.cookies.set("lang", "ja")
    with client.websocket_connect("/ws") as raw:
        ws = Socket(raw)
        first = ws.watch(gid)["game"]
        assert first["history"][0]["say"] == "表が大のコインを b2 に置く"
        client.cookies.set("lang", "fr")  # the mover speaks French; the watcher still Japanese
        r = client.post(f"/api/games/{gid}/moves", json={"action": "place M a1", "version": 1})
        assert r.status_code == 200, r.text
        game = ws.state(min_version=2)["game"]
        assert game["history"][1]["say"].startswith("裏が"), game["history"][1]
        assert game["options_text"] == i18n.translations("ja", "site").gettext(
            "%(option)s: %(value)s"
        ) % {"option": "守られたコイン", "value": "前の手番で触れたコイン"}
    client.cookies.delete("lang")


def test_a_stack_a_cash_board_speaks_the_readers_language(client: TestClient) -> None:
    """The words drawn on a Stack-a-Cash board (whose turn, the protected coin, the supply)
    are the reader's: German in German, and nothing bare in the pseudo-locale."""
    gid = create(client, game="stack-a-cash", mode="local")["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    assert r.status_code == 200, r.text
    client.cookies.set("lang", "de")
    board = client.get(f"/api/games/{gid}/board?ply=1").text
    assert "Zahl ist am Zug" in board and "Vorrat" in board, board[-400:]
    client.cookies.set("lang", "qps")
    board = client.get(f"/api/games/{gid}/board?ply=1").text
    drawn = re.findall(r"<text[^>]*>([^<]*)</text>", board)
    words = [t for t in drawn if re.search(r"[A-Za-z]{2,}", t)]  # not a coin's letter, a file
    assert len(words) >= 3, drawn
    # What a screen reader says of each cell and supply coin ("b2, Heads large, protected").
    labels = re.findall(r'data-label="([^"]*)"', board)
    assert len(labels) >= 9, labels
    bare = [t for t in words + labels if not worded(t, {"Stack-a-Cash"})]
    client.cookies.delete("lang")
    assert not bare, bare


def test_a_refused_request_body_is_explained_in_the_readers_language(client: TestClient) -> None:
    """A 422 from the API's schemas keeps its shape (``detail``: ``loc``, ``msg``, ``type``)
    with each reason in the reader's language, and ``message`` names every field; in the
    pseudo-locale no word of it is bare English."""
    body = {"game": "stack-a-cash", "mode": "online", "seat": 2, "clock": {"initial_s": 1}}
    client.cookies.set("lang", "fr")
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    answer = r.json()
    assert answer["code"] == "invalid"
    by_field = {tuple(d["loc"]): d for d in answer["detail"]}
    assert by_field[("body", "seat")]["msg"] == "doit être l'un de : 0, 1", answer
    assert by_field[("body", "seat")]["type"] == "literal_error"
    assert "seat : doit être l'un de : 0, 1" in answer["message"]
    assert "clock.initial_s : doit valoir au moins" in answer["message"], answer["message"]
    assert "mode : doit être l'un de" in answer["message"], answer["message"]
    client.cookies.set("lang", "qps")
    missing = client.post("/api/games", json={"mode": "local", "extra": 1, "seat": "x"}).json()
    client.cookies.delete("lang")
    said = [d["msg"] for d in missing["detail"]] + [missing["message"]]
    fields = {"game", "extra", "seat", "mode"}
    bare = [t for t in said if not worded(t, fields | {"local", "bot"})]
    assert not bare, bare


def test_game_option_and_unknown_game_refusals_in_the_readers_language(
    client: TestClient,
) -> None:
    """A new game's, a tournament's or the analysis board's options that the game refuses,
    and a game that does not exist, are answered in the request's language
    (``Accept-Language`` or the ``lang`` cookie), as the engine words them; the English
    answer, its status and code are as before, and nothing was made."""
    r = client.post("/api/auth/register", json={"username": "odile", "password": "pw-" + "x" * 10})
    assert r.status_code == 200, r.text
    tournament = {"name": "Coupe", "kind": "swiss", "rounds": 3, "starts_in_s": 3600}
    asked = {
        "game option": (
            "post",
            "/api/games",
            {"game": "stack-a-cash", "mode": "local", "options": {"protect": "never"}},
        ),
        "unknown option": (
            "post",
            "/api/games",
            {"game": "stack-a-cash", "mode": "local", "options": {"size": 4}},
        ),
        "game, unknown": ("post", "/api/games", {"game": "chess", "mode": "local"}),
        "catalog, unknown": ("get", "/api/catalog/chess", None),
        "tournament option": (
            "post",
            "/api/tournaments",
            {**tournament, "game": "wallet-battles", "options": {"coins": None}},
        ),
        "tournament, unknown": ("post", "/api/tournaments", {**tournament, "game": "chess"}),
        "analysis option": (
            "post",
            "/api/analysis/position",
            {"game_id": "stack-a-cash", "options": {"protect": "never"}},
        ),
    }
    french = {
        "game option": "l'option protect='never' de stack-a-cash n'est pas valide ; choisissez "
        "parmi : touched, placed",
        "unknown option": "option inconnue 'size' pour stack-a-cash ; options valides : protect",
        "game, unknown": "jeu inconnu 'chess' ; jeux valides : ",
        "catalog, unknown": "jeu inconnu 'chess' ; jeux valides : ",
        "tournament option": "option 'coins' de wallet-battles : doit être un dict de nombres",
        "tournament, unknown": "jeu inconnu 'chess' ; jeux valides : ",
        "analysis option": "l'option protect='never' de stack-a-cash n'est pas valide",
    }
    english = {
        "game option": "stack-a-cash option protect='never' is not valid; choose one of: touched",
        "unknown option": "unknown option 'size' for stack-a-cash; valid options: protect",
        "game, unknown": "unknown game 'chess'; valid games: ",
        "catalog, unknown": "unknown game 'chess'; valid games: ",
        "tournament option": "wallet-battles option 'coins': must be a dict of coin counts like",
        "tournament, unknown": "unknown game 'chess'; valid games: ",
        "analysis option": "stack-a-cash option protect='never' is not valid; choose one of",
    }
    tournaments = client.get("/api/tournaments").json()

    def answers(**headers: str) -> dict[str, tuple[int, str | None, str]]:
        out = {}
        for what, (method, url, body) in asked.items():
            r = client.request(method, url, json=body, headers=headers)
            out[what] = (r.status_code, r.json().get("code"), r.json()["detail"])
        return out

    said = {"en": answers(), "fr": answers(**{"Accept-Language": "fr"})}
    client.cookies.set("lang", "fr")
    said["fr cookie"] = answers()
    client.cookies.delete("lang")
    for what, (status, code, detail) in said["en"].items():
        assert status in (400, 404) and english[what] in detail, (what, status, detail)
        for lang in ("fr", "fr cookie"):
            assert said[lang][what][:2] == (status, code), (what, lang, said[lang][what])
            assert french[what] in said[lang][what][2], (what, lang, said[lang][what])
    assert client.get("/api/tournaments").json() == tournaments


def test_account_refusals_in_the_readers_language(client: TestClient) -> None:
    """Registering with a too-short password, a taken or a malformed username, again while
    signed in, and signing in with a wrong password are answered in the request's language
    (``Accept-Language`` or the ``lang`` cookie); the English answer, status and code are as
    before."""
    r = client.post("/api/auth/register", json={"username": "odile", "password": "pw-" + "x" * 10})
    assert r.status_code == 200, r.text
    guest = second_client(client)
    long_enough = "pw-" + "y" * 10
    asked = {
        "short password": (guest, "register", {"username": "pauline", "password": "short"}),
        "taken": (guest, "register", {"username": "Odile", "password": long_enough}),
        "bad username": (guest, "register", {"username": "a b!", "password": long_enough}),
        "signed in": (client, "register", {"username": "pauline", "password": long_enough}),
        "wrong password": (guest, "login", {"username": "odile", "password": long_enough}),
        "wrong username": (guest, "login", {"username": "a b!", "password": long_enough}),
    }
    english = {
        "short password": "a password must be at least 8 characters long",
        "taken": "the username 'odile' is taken",
        "bad username": "a username is 3 to 24 letters, digits, '-' or '_'",
        "signed in": "you are already signed in to an account; sign out first",
        "wrong password": "wrong username or password",
        "wrong username": "wrong username or password",
    }
    french = {
        "short password": "un mot de passe doit compter au moins 8 caractères",
        "taken": "le nom d'utilisateur 'odile' est déjà pris",
        "bad username": "un nom d'utilisateur compte de 3 à 24 lettres, chiffres, « - » ou « _ »",
        "signed in": "vous êtes déjà connecté à un compte ; déconnectez-vous d'abord",
        "wrong password": "nom d'utilisateur ou mot de passe incorrect",
        "wrong username": "nom d'utilisateur ou mot de passe incorrect",
    }

    def answers(**headers: str) -> dict[str, tuple[int, str | None, str]]:
        out = {}
        for what, (browser, path, body) in asked.items():
            r = browser.post(f"/api/auth/{path}", json=body, headers=headers)
            out[what] = (r.status_code, r.json().get("code"), r.json()["detail"])
        return out

    said = {"en": answers(), "fr": answers(**{"Accept-Language": "fr"})}
    for browser in (client, guest):
        browser.cookies.set("lang", "fr")
    said["fr cookie"] = answers()
    for what, (status, code, detail) in said["en"].items():
        assert (status, code, detail) == (400, "bad_request", english[what]), what
        for lang in ("fr", "fr cookie"):
            assert said[lang][what] == (400, "bad_request", french[what]), (what, lang)


Answer = tuple[int, str | None, str]  # status, code, detail


def _in_three_languages(
    ask: Callable[[dict[str, str]], Answer], client: TestClient
) -> dict[str, Answer]:
    """``ask``'s answer in English, with ``Accept-Language: fr``, and with the ``lang`` cookie."""
    said = {"en": ask({}), "fr": ask({"Accept-Language": "fr"})}
    client.cookies.set("lang", "fr")
    try:
        said["fr cookie"] = ask({})
    finally:
        client.cookies.delete("lang")
    return said


def _refused_in_french(
    client: TestClient,
    url: str,
    body: dict[str, Any],
    english: Answer,
    french: str,
    method: str = "POST",
    headers: dict[str, str] | None = None,
) -> None:
    """The request is refused with ``english``; asked in French (header or cookie), with the
    same status and code and the ``french`` words."""

    def ask(language: dict[str, str]) -> Answer:
        r = client.request(method, url, json=body, headers={**(headers or {}), **language})
        return r.status_code, r.json().get("code"), r.json()["detail"]

    said = _in_three_languages(ask, client)
    assert said["en"] == english, said["en"]
    for lang in ("fr", "fr cookie"):
        assert said[lang] == (*english[:2], french), (lang, said[lang])


def test_a_puzzle_refusal_in_the_readers_language(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A puzzle answer the solver cannot judge (a FlipWars round beyond its reach: here its
    budget made tiny) is refused in the reader's language, the solver's reason included.
    Status 400 and code bad_request as in English."""
    monkeypatch.setattr(explore, "FLIPWARS_MAX_NODES", 1)
    answer = puzzles.by_id()["fw-standard-001"].answer
    _refused_in_french(
        client,
        "/api/puzzles/fw-standard-001/answer",
        {"move": answer},
        (
            400,
            "bad_request",
            f"{answer!r} cannot be played here: this round is beyond the endgame solver's reach "
            "(too many positions to search); play on a few moves and explore again",
        ),
        f"{answer!r} ne peut pas être joué ici : cette manche dépasse la portée du solveur de "
        "fin de partie (trop de positions à chercher) ; jouez encore quelques coups et "
        "explorez de nouveau",
    )


def test_a_hidden_character_refused_in_the_readers_language(client: TestClient) -> None:
    """A name or a chat message holding a format character (U+202E, which turns the text
    around) is refused in the reader's language: the character by its code point and, marked
    as such, its Unicode name (which the standard gives in English only); the English answer,
    status and code as before."""
    r = client.post("/api/auth/register", json={"username": "odile", "password": "pw-" + "x" * 10})
    assert r.status_code == 200, r.text
    gid, _friend = friend_game(client)
    _refused_in_french(
        client,
        "/api/me",
        {"name": "Ada\u202eLovelace"},
        (
            400,
            "bad_request",
            "a name cannot hold U+202E RIGHT-TO-LEFT OVERRIDE, a format character (it changes "
            "or hides how text is shown)",
        ),
        "un nom ne peut pas contenir U+202E (nom Unicode : RIGHT-TO-LEFT OVERRIDE), un "
        "caractère de mise en forme (il change ou masque l'affichage du texte)",
        method="PATCH",
    )
    _refused_in_french(  # U+0007 has no Unicode name: its code point alone
        client,
        f"/api/games/{gid}/chat",
        {"room": "players", "text": "ab\u0007cd"},
        (
            400,
            "bad_request",
            "a chat message cannot hold U+0007, a control character (it changes or hides how "
            "text is shown)",
        ),
        "un message de discussion ne peut pas contenir U+0007, un caractère de contrôle (il "
        "change ou masque l'affichage du texte)",
    )
    assert client.get("/api/me").json()["name"] != "Ada\u202eLovelace"
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []


def test_a_lost_race_answered_in_the_readers_language(client: TestClient) -> None:
    """A move whose write finds the game changed elsewhere (another process wrote it) is
    refused with 409 and code conflict, in the mover's language. (A save that waited in a
    batch another request started is worded in its own request's language too:
    tests/server/test_writer.py.)"""
    gid = create(client, game="stack-a-cash", mode="local")["id"]
    store = client.app.state.ctx.store  # type: ignore[attr-defined]
    games = store_module._GAMES

    def ask(headers: dict[str, str]) -> Answer:
        version = client.get(f"/api/games/{gid}?svg=false").json()["version"]
        with store.engine.begin() as conn:  # another process moves the stored game on
            conn.execute(update(games).where(games.c.id == gid).values(version=version + 1))
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"action": "place L b2", "version": version},
            headers=headers,
        )
        return r.status_code, r.json().get("code"), r.json()["detail"]

    said = _in_three_languages(ask, client)
    assert said["en"] == (409, "conflict", f"game {gid} changed elsewhere; reload it")
    for lang in ("fr", "fr cookie"):
        assert said[lang] == (409, "conflict", f"la partie {gid} a changé ailleurs ; rechargez-la")


def test_websocket_refusals_in_the_readers_language(tmp_path: Path) -> None:
    """What the live socket refuses (text that is no UTF-8 or no JSON object, a message too
    large, of an unknown type or with a bad field, too many messages) is said in the language
    the socket was opened in; the error codes are as in English."""
    settings = make_settings(tmp_path, ws_messages_per_s=0.01, ws_burst=3, max_message_bytes=100)
    sent: list[Callable[[Any], None]] = [
        lambda ws: ws.send_bytes(b"\xff\xfe"),
        lambda ws: ws.send_text("[1]"),
        lambda ws: ws.send_text("x" * 150),
        lambda ws: ws.send_json({"type": "nope", "ref": 1}),
        lambda ws: ws.send_json({"type": "watch", "game": "abc", "svg": "yes", "ref": 2}),
        lambda ws: ws.send_json({"type": "ping", "ref": 3}),  # past the burst of 3
    ]

    def errors(client: TestClient, **headers: str) -> list[tuple[str, str]]:
        with client.websocket_connect("/ws", headers=headers) as raw:
            Socket(raw)
            out = []
            for send in sent:
                send(raw)
                error = raw.receive_json()
                assert error["type"] == "error", error
                out.append((error["code"], error["message"]))
            return out

    with TestClient(create_app(settings)) as client:
        said = {"en": errors(client), "fr": errors(client, **{"Accept-Language": "fr"})}
        client.cookies.set("lang", "fr")
        said["fr cookie"] = errors(client)
    assert said["en"] == [
        ("bad_json", "messages must be UTF-8 JSON text"),
        ("bad_json", 'a message must be a JSON object like {"type": "ping"}'),
        ("too_large", "messages are limited to 100 bytes; this one has 150"),
        ("bad_request", f"unknown message type 'nope'; known types: {', '.join(ws_route.KNOWN)}"),
        ("bad_request", "bad watch message: field 'svg': must be true or false"),
        ("rate_limited", said["en"][5][1]),
    ]
    assert re.fullmatch(r"too many messages; slow down \(retry in \d+\.\d\d s\)", said["en"][5][1])
    for lang in ("fr", "fr cookie"):
        assert said[lang][:5] == [
            ("bad_json", "les messages doivent être du texte JSON en UTF-8"),
            ("bad_json", 'un message doit être un objet JSON comme {"type": "ping"}'),
            ("too_large", "les messages sont limités à 100 octets ; celui-ci en a 150"),
            (
                "bad_request",
                f"type de message inconnu 'nope' ; types connus : {', '.join(ws_route.KNOWN)}",
            ),
            ("bad_request", "message watch incorrect : champ 'svg' : doit être true ou false"),
        ], said[lang]
        code, words = said[lang][5]
        assert code == "rate_limited", said[lang]
        assert re.fullmatch(r"trop de messages ; ralentissez \(réessayez dans \d+,\d\d s\)", words)


def test_a_cross_site_refusal_in_the_readers_language(client: TestClient) -> None:
    """A request another site sent in the reader's name, refused before the app is reached, is
    said in the reader's language: 403, code forbidden."""
    _refused_in_french(
        client,
        "/api/games",
        {"game": "stack-a-cash", "mode": "local"},
        (403, "forbidden", "cross-site request refused"),
        "requête intersite refusée",
        headers={"Origin": "https://evil.example"},
    )


def test_a_players_page_says_how_a_game_ended_as_the_terminal_does(client: TestClient) -> None:
    """A resigned game on a player's page reads "(abandon)" in French: the engine message the
    terminal's replay words too (records.termination_message)."""
    from pocketarena.cli.replay import termination_word

    game = create(client, game="stack-a-cash", mode="bot", bot="random")["game"]
    assert client.post(f"/api/games/{game['id']}/resign").status_code == 200
    me = client.get("/api/me").json()["id"]
    client.cookies.set("lang", "fr")
    page = client.get(f"/players/{me}").text
    with i18n.use_locale("fr"):
        worded = termination_word("resignation")
    assert worded == "abandon"
    assert f'<span class="muted small">({worded})</span>' in page


def test_a_players_games_name_a_bot_opponent_in_the_readers_language(client: TestClient) -> None:
    """The games on a player's page name each opponent as the reader reads them: a bot's
    stored name (the catalog's source words) in the reader's language. It stayed English
    (the list did not say the opponent was a bot); the API says so now (``opponent_kind``)."""
    game = create(client, game="stack-a-cash", mode="bot", bot="random")["game"]
    me = client.get("/api/me").json()["id"]
    listed = client.get(f"/api/players/{me}/games").json()["games"]
    assert [(g["opponent"], g["opponent_kind"]) for g in listed] == [("Randy (random)", "bot")]
    client.cookies.set("lang", "fr")
    page = re.sub(r"<script.*?</script>", "", client.get(f"/players/{me}").text, flags=re.S)
    assert game["id"] in page  # (the page's data for its scripts keeps the stored name)
    assert ">Randy (au hasard)</a>" in page and "Randy (random)" not in page
