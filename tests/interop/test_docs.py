"""docs/research.md: every Python block runs, the action-id rules it states hold, and the
docstrings of the adapters run as doctests."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import itertools
import re
from pathlib import Path
from typing import Any

import pytest

import pocketarena as pa
from tests.conftest import all_variants, variant_id
from tests.services import unavailable

PAGE = Path(__file__).resolve().parents[2] / "docs" / "research.md"
VARIANTS = all_variants()
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    if "sb3_contrib" in code and importlib.util.find_spec("sb3_contrib") is None:
        unavailable("sb3-contrib is not installed: pip install -e '.[train]'")
    exec(compile(code, str(PAGE), "exec"), {"__name__": "research_example"})
    printed = capsys.readouterr().out.splitlines()
    # A print whose comment reads "# -> text" must print exactly that line.
    expected = [line.split("# -> ", 1)[1] for line in code.splitlines() if "# -> " in line]
    for want in expected:
        assert want in printed, (want, printed)


@pytest.mark.parametrize(
    "module",
    [
        "pocketarena.observe",
        "pocketarena.interop.openspiel",
        "pocketarena.interop.pettingzoo",
        "pocketarena.interop.gymnasium",
        "pocketarena.interop.policy",
    ],
)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def cell_index(name: str, files: int) -> int:
    return (int(name[1:]) - 1) * files + "abcdefgh".index(name[0])


def stack_a_cash_ids(game: pa.Game) -> None:
    for action in game.decisions:
        words = action.text.split()
        if words[0] == "place":
            expected = 9 * "LMS".index(words[1]) + cell_index(words[2], 3)
        elif words[0] == "flip":
            expected = 27 + cell_index(words[1], 3)
        else:
            a, b = cell_index(words[1], 3), cell_index(words[2], 3)
            expected = 36 + 8 * a + (b if b < a else b - 1) + (72 if len(words) == 4 else 0)
        assert action.id == expected, action


def coin_age_ids(game: pa.Game) -> None:
    ids = game.map.space_ids  # type: ignore[attr-defined]
    moves = [(s, t) for s in ids for t in game.map.neighbours(s)]  # type: ignore[attr-defined]
    expected = (
        [f"place {k} {s}" for k in "QNPD" for s in ids]
        + [f"pay {k}" for k in "QNPD"]
        + [f"move {s} {t}" for s, t in moves]
        + [f"capture {s}" for s in ids]
        + ["end"]
    )
    assert [a.text for a in game.decisions] == expected
    slaps = [
        " ".join(["slap"] + [f"{k}:{f}" for k, f in zip("QNPD", faces, strict=True) if f != "-"])
        for faces in itertools.product("HT-", repeat=4)
    ]
    assert [a.text for a in game.chance_actions] == slaps
    assert [a.id for a in game.chance_actions] == list(range(len(expected), len(expected) + 81))


def wallet_battles_ids(game: pa.Game) -> None:
    locations = game.location_ids  # type: ignore[attr-defined]
    n = len(locations)
    for i, loc in enumerate(locations):
        for k, coin in enumerate("QNPD"):
            assert game.parse_action(f"place {coin} {loc}").id == 4 * i + k
        assert game.parse_action(f"capture {loc}").id == 4 * n + i
        assert game.parse_action(f"recall {loc}").id == 5 * n + i
    assert game.parse_action("pass").id == 6 * n == game.num_decisions - 1
    assert [a.id for a in game.chance_actions] == [6 * n + 1, 6 * n + 2, 6 * n + 3]


def flipwars_ids(game: pa.Game) -> None:
    mode = game.options["mode"]
    files = 4 if mode == "enclosed" else 5
    cells = [f"{'abcde'[i % files]}{i // files + 1}" for i in range(files * files)]
    turns = {"tank": ["r0", "r90"], "rocket": ["r0"], "twin": ["r0"], "trex": ["r0"]}
    kinds = ["tank", "rocket", "grenade", "paratrooper", "sniper", "foxhole", "twin", "trex"]
    pairs = [(k, r) for k in kinds for r in turns.get(k, ["r0", "r90", "r180", "r270"])]
    pairs += [("flag", "r0")] if mode == "flag" else []
    expected = [f"place {k} {c} {r}" for c in cells for k, r in pairs]
    if game.options["series"]:
        expected += [f"block {c}" for c in cells] + ["first blue", "first red"]
    assert [a.text for a in game.decisions] == expected
    assert len(pairs) == (22 if mode == "flag" else 21) and not game.chance_actions


ID_RULES = {
    "stack-a-cash": stack_a_cash_ids,
    "coin-age": coin_age_ids,
    "wallet-battles": wallet_battles_ids,
    "flipwars": flipwars_ids,
}


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_action_id_rules(variant: tuple[str, dict[str, Any]]) -> None:
    """The id rules the page states hold for every game and VARIANT (a new game needs its
    rules on the page and here)."""
    game_id, options = variant
    ID_RULES[game_id](pa.load(game_id, **options))
