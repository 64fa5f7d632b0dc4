"""Refusals as reasons: every refusal is a message id with parameters; the English is one
rendering of it, kept in pocketarena/messages.py (the engine's rules hold no sentences)."""

from __future__ import annotations

import ast
import pickle
import random
from pathlib import Path

import pytest

import pocketarena as pa
from pocketarena.core import ActionError, Message, UnreadableActionError
from pocketarena.messages import ENGLISH, render

GAMES_DIR = Path(pa.__file__).parent / "games"
ACTION_ERRORS = ("IllegalActionError", "NotationError")


def test_unreadable_text_and_a_refused_move_are_siblings() -> None:
    assert not issubclass(pa.NotationError, pa.IllegalActionError)
    assert not issubclass(pa.IllegalActionError, pa.NotationError)
    assert issubclass(pa.NotationError, ActionError) and issubclass(ActionError, ValueError)
    game = pa.load("stack-a-cash")
    with pytest.raises(pa.NotationError) as read:
        game.parse_action("place L z9")
    assert not isinstance(read.value, pa.IllegalActionError)
    # State.apply refuses unreadable text as it refuses an illegal action (the contract)
    with pytest.raises(UnreadableActionError) as applied:
        game.new_initial_state().apply("place L z9")
    assert isinstance(applied.value, pa.IllegalActionError)
    assert isinstance(applied.value, pa.NotationError)
    assert applied.value.reason == read.value.reason == "stack-a-cash.not-a-cell"


def test_a_refusal_carries_its_reason_and_renders_todays_sentence() -> None:
    state = pa.load("stack-a-cash").new_initial_state()
    state.apply("place L b2")
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply("flip b2")
    error = info.value
    assert error.reason == "stack-a-cash.protected-touched"
    assert error.to_json() == {
        "reason": "stack-a-cash.protected-touched",
        "params": {"place": "b2", "seat": {"id": "seat.heads", "params": {}}},
    }
    assert str(error) == (
        "the coin on b2 is protected: Heads just touched it, so it cannot be moved or flipped "
        "this turn (it can still be covered)"
    )
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and again.to_json() == error.to_json()
    assert str(again) == str(error)


def test_a_sentence_from_a_game_without_ids_is_kept() -> None:
    error = pa.IllegalActionError("add 3 needs heads on this turn's flip")
    assert error.reason == "core.said"
    assert str(error) == "add 3 needs heads on this turn's flip"


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_every_refusal_in_random_games_has_a_known_reason(game_id: str) -> None:
    game = pa.load(game_id)
    rng = random.Random(5)
    seen = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal() and seen < 400:
            for action in rng.sample(game.actions, min(8, len(game.actions))):
                try:
                    state.clone().apply(action)
                except ActionError as e:
                    seen += 1
                    assert e.reason in ENGLISH and e.reason != "core.said", str(e)
                    assert render(e.message) == str(e)
            state.apply_random(rng)
    for text in ["", "xyzzy", "place", "move a1", "42"]:
        with pytest.raises(ActionError) as info:
            game.parse_action(text)
        assert info.value.reason in ENGLISH and info.value.reason != "core.said"


def _strings_in_raises(path: Path) -> list[str]:
    """Sentences written where a rules file refuses an action or explains notation (f-strings
    and plain text with a space), which would be English the engine says. (Bad options at
    set-up are ValueErrors for whoever configures a game, not refusals of a move.)"""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and getattr(node.exc.func, "id", "") in ACTION_ERRORS
        ):
            args = [*node.exc.args, *(k.value for k in node.exc.keywords)]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "message":
            args = node.args[:1]
        else:
            continue
        for arg in args:
            for inner in ast.walk(arg):
                if isinstance(inner, ast.JoinedStr) and any(
                    isinstance(v, ast.Constant) and " " in str(v.value) for v in inner.values
                ):
                    found.append(ast.unparse(inner))
                elif (
                    isinstance(inner, ast.Constant)
                    and isinstance(inner.value, str)
                    and " " in inner.value
                ):
                    found.append(inner.value)
    return found


@pytest.mark.parametrize("rules", sorted(GAMES_DIR.glob("*/rules.py")), ids=lambda p: p.parent.name)
def test_rules_say_why_in_reason_ids_not_english(rules: Path) -> None:
    """State.apply refuses an action the legal actions leave out, for every game; the rules
    only say why (``_why_illegal``), as message ids, and never raise a refusal themselves."""
    tree = ast.parse(rules.read_text())
    says_why = [
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_why_illegal"
    ]
    assert says_why, "a rules file that refuses nothing?"
    raises = [
        ast.unparse(n)
        for n in ast.walk(tree)
        if isinstance(n, ast.Raise)
        and isinstance(n.exc, ast.Call)
        and getattr(n.exc.func, "id", "") == "IllegalActionError"
    ]
    assert raises == []
    for path in _words_files(rules.parent):
        assert _strings_in_raises(path) == []


def _words_files(folder: Path) -> list[Path]:
    """A game's rules and the notation module beside them, where its reasons are named."""
    return [p for p in (folder / "rules.py", folder / "notation.py") if p.exists()]


def test_every_id_a_rules_file_names_has_english() -> None:
    for rules in GAMES_DIR.glob("*/rules.py"):
        for path in _words_files(rules.parent):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    text = node.value
                    if (
                        text.startswith(
                            ("stack-a-cash.", "coin-age.", "flipwars.", "wallet-battles.", "core.")
                        )
                        and " " not in text
                        and not text.endswith((".", "-"))  # the start of an f-string id
                    ):
                        assert text in ENGLISH, (path, text)


def test_a_message_is_worded_with_inner_words() -> None:
    said = Message(
        "coin-age.coin-of",
        {"seat": pa.core.seat_of("Heads"), "coin": Message("coin-age.coin.quarter"), "text": "Q:H"},
    )
    assert render(said) == "Heads' quarter (Q:H)"
    assert render(Message("core.possessive", {"name": "Blue"})) == "Blue's"
    assert render(pa.core.or_list(["a", "b", "c"])) == "a or b or c"
    assert render(pa.core.comma_list(["a", "b"])) == "a, b"


def test_a_game_that_says_no_reason_still_refuses_with_the_cores_words() -> None:
    """The check is the engine's: a game without its own ``_why_illegal`` (a plugin written
    before it existed) has an action outside its legal list refused all the same, unchanged."""
    from tests.coin_race.rules import CoinRace, RaceState

    class Silent(RaceState):
        __slots__ = ()
        _why_illegal = pa.State._why_illegal  # type: ignore[assignment]  # the fallback

    class SilentRace(CoinRace):
        def new_initial_state(self) -> Silent:
            return Silent(self)

    state = SilentRace().new_initial_state()
    state.apply("flip T")
    before = state.to_json()
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply("add 3")
    assert info.value.to_json() == {"reason": "core.not-legal", "params": {"action": "add 3"}}
    assert str(info.value) == "'add 3' is not a legal move here"
    assert state.to_json() == before
