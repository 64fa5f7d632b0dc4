"""The view sent after every change is made without pydantic's models (``views.view_data``,
``views.view_json``): it must be, byte for byte, what ``GameView``'s model writes. Random games
of every game and variant, with chance, clocks, turn-based deadlines, draw and takeback offers,
resignations, aborts, rating changes and rematch offers, compared at every ply for readers in
English and in another language, with the SVG board and without, whole and as a delta."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pydantic_core
import pytest

from pocketarena import i18n
from pocketarena.core import CHANCE
from pocketarena.ratings import Rating
from pocketarena.server import catalog
from pocketarena.server.core.security import default_guest_name
from pocketarena.server.live import session, views
from pocketarena.server.live.clock import Clock
from pocketarena.server.live.games import LiveGame
from pocketarena.server.live.session import Change, GameError, Seat

from .tables import made

WALL = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
OTHER_LANGUAGES = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
GAMES_EACH = 3  # random games of each variant


def variants() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for game_id in catalog.game_ids():
        out.append((game_id, {}))
        out += [(game_id, dict(v)) for v in catalog.game_class(game_id).VARIANTS]
    out.append(("coin-age", {"map": "random"}))  # a set-up left to chance: a seed in the options
    return out


def seats(rng: random.Random) -> tuple[Seat, Seat]:
    """Two players of the kinds a game may have: an account with a name not in ASCII, a guest
    still called by the name they were given, a bot; ratings provisional or not."""
    ann = Seat("ann1", 'Zoë 李 "the" <ann>', "account", None, Rating(1612.4, 80.0))
    guest = Seat("b0b2x", default_guest_name("b0b2x"), "guest", None, Rating())
    bot = Seat("bot-r", catalog.stored_bot_name("random"), "bot", "random", Rating(1400.0))
    other = rng.choice([guest, bot, Seat("bob3", "Bob", "account", None, Rating(1500.0, 40.0))])
    pair = (ann, other) if rng.random() < 0.5 else (other, ann)
    return pair


def new_game(game_id: str, options: dict[str, Any], rng: random.Random) -> LiveGame:
    timing = rng.choice(["clock", "days", "none"])
    live = made(
        LiveGame,
        game_id,
        seats(rng),
        clock=Clock(60_000, 2_000) if timing == "clock" else None,
        **options,
    )
    live.id, live.created_at = "VJ" + str(rng.randrange(1000)), WALL
    live.mode = rng.choice(["friend", "seek", "bot", "tourney"])
    live.rated = rng.random() < 0.7
    live.days_per_move = 3 if timing == "days" else None
    if rng.random() < 0.2:
        live.rematch_of = "OLD1"
    start = session.begin(live, 0.0, WALL)
    if start is not None:
        session.adopt(live, start)
    if live.days_per_move is not None:
        live.deadline = WALL + timedelta(days=3)
    return live


def player_of(live: LiveGame, seat: int) -> str:
    s = live.seats[seat]
    assert s is not None
    return s.player_id


def next_change(live: LiveGame, rng: random.Random, now: float, wall: datetime) -> Change:
    """A move or a throw mostly; now and then a gesture (an offer and its answer, a takeback,
    a resignation, an abort, a flag), as long as the rules let it be made."""
    actor = live.actor()
    seat = actor if actor is not None else 0
    me, them = player_of(live, seat), player_of(live, 1 - seat)
    asked = live.takeback_offer if live.takeback_offer is not None else live.draw_offer
    gestures: list[Any] = [
        lambda: session.offer_draw(live, rng.choice([me, them]), now, wall),
        lambda: session.ask_takeback(live, rng.choice([me, them]), now, wall),
        lambda: session.abort(live, me, now, wall),
    ]
    if asked is not None and rng.random() < 0.6:  # the offer answered
        answer = session.answer_takeback if live.takeback_offer is not None else session.answer_draw
        gestures = [lambda: answer(live, player_of(live, 1 - asked), rng.random() < 0.6, now, wall)]
    elif rng.random() < 0.01:
        gestures = [lambda: session.resign(live, rng.choice([me, them]), now, wall)]
    elif rng.random() < 0.01:  # out of time: the clock run out, the day passed
        gestures = [lambda: session.flag(live, now + 3600, wall + timedelta(days=4))]
    if asked is not None or rng.random() < 0.15:
        try:
            change = rng.choice(gestures)()
            if change is not None:
                return change  # type: ignore[no-any-return]
        except GameError:
            pass
    if live.state.current_player == CHANCE:
        return session.throw(live, me, live.version, now, wall)
    action = rng.choice(live.state.legal_actions()).text
    return session.move(live, me, action, live.version, now, wall)


def model_json(live: LiveGame, svg: bool, history_from: int, with_legal: bool) -> str:
    view = views.game_view(live, svg, history_from, with_legal)
    return view.model_dump_json(exclude={"you", "clock"} if svg else {"you", "clock", "svg"})


def check(live: LiveGame, locale: str, svg: bool) -> None:
    """Every form of the view the server sends, against the model's, in ``locale``."""
    with i18n.use_locale(locale):
        for delta in (False, True):
            history_from = live.delta_from if delta else 0
            expected = model_json(live, svg, history_from, with_legal=False)
            live.view_cache.clear()
            assert views.view_json(live, svg, delta) == expected
        # the API's view (GET /api/games/{id}): with the legal actions, as data
        data = views.view_data(live, svg)
        expected = model_json(live, svg, 0, with_legal=True)
        assert pydantic_core.to_json(data).decode() == expected
        exclude = {"you", "clock"} if svg else {"you", "clock", "svg"}
        dumped = views.game_view(live, svg).model_dump(mode="json", exclude=exclude)
        assert data == dumped and list(data) == list(dumped)


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_the_view_is_the_models_json_at_every_ply(game_id: str, options: dict[str, Any]) -> None:
    rng = random.Random(f"{game_id} {sorted(options.items())}")
    for _ in range(GAMES_EACH):
        live = new_game(game_id, options, rng)
        other = rng.choice(OTHER_LANGUAGES)
        ply = 0
        now, wall = 0.0, WALL
        while True:
            # as ``Watchers.send``: the entries each watcher holds, a takeback shortening them
            live.revision += 1
            live.delta_from = min(live.sent_len, len(live.entries))
            live.sent_len = len(live.entries)
            svg = ply % 7 == 0 or live.status != "active"  # drawing is slow: now and then
            for locale in (i18n.DEFAULT, other):
                check(live, locale, svg=False)
                if svg:
                    check(live, locale, svg=True)
            if live.status != "active":
                break
            now, wall = now + rng.random() * 3, wall + timedelta(seconds=rng.randrange(50))
            change = next_change(live, rng, now, wall)
            session.adopt(live, change)
            if live.status == "finished" and rng.random() < 0.7:
                # as the hub does when the result is written: the ratings' changes, then offers
                live.rating_changes = [
                    {
                        "player": "ann1",
                        "before": 1612,
                        "after": 1620,
                        "delta": 8,
                        "provisional": True,
                    },
                    {
                        "player": "x",
                        "before": 1500,
                        "after": 1492,
                        "delta": -8,
                        "provisional": False,
                    },
                ]
                live.rematch_offers = {rng.choice([0, 1])}
                live.rematch_id = "NEW1" if rng.random() < 0.5 else None
            ply += 1
        if live.status == "finished":
            assert live.chance is None or json.loads(views.view_json(live, False))["fair"]["seed"]


def test_the_english_sentence_is_made_only_when_read() -> None:
    """A move's sentence is kept as its message; its English words are made the first time a
    view (or anything else) reads them, then kept."""
    live = made(LiveGame, "stack-a-cash")
    change = session.move(live, "ann", "place L b2", 0, 0.0, WALL)
    session.adopt(live, change)
    entry = live.entries[0]
    assert entry.english is None
    with i18n.use_locale("fr"):
        said = views.view_data(live, svg=False)["history"][0]["say"]
    assert entry.english is None and said != catalog.said_in_english(entry.said)
    assert views.view_data(live, svg=False)["history"][0]["say"] == entry.english
    assert entry.say == catalog.said_in_english(entry.said) == entry.english
