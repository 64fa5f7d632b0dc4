"""docs/bots.md says what the code does: its Python runs, its solve example prints what the
program prints, its level table names each game's real recipes, and its bot specs build."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.bots.levels import levels_for
from tests.cli.helpers import run

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE, re.S)
NAMES = {
    "Stack-a-Cash": "stack-a-cash",
    "Coin Age": "coin-age",
    "Wallet Battles": "wallet-battles",
    "FlipWars": "flipwars",
}


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_example_runs(code: str) -> None:
    exec(compile(code, "docs/bots.md", "exec"), {"__name__": "bots_example"})


def test_solve_example_prints_what_the_page_says() -> None:
    shown = re.search(r"\$ pocketarena solve stack-a-cash --json\n(\{.*\})", PAGE)
    assert shown is not None
    result = run("solve", "stack-a-cash", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(shown.group(1))


def test_level_table_matches_the_recipes() -> None:
    rows = re.findall(
        r"^\| (Stack-a-Cash|Coin Age|Wallet Battles|FlipWars) \| (.*) \|$", PAGE, re.M
    )
    assert {name for name, _ in rows} == set(NAMES)
    for name, cells in rows:
        game = pa.load(NAMES[name])
        levels = levels_for(game)
        easy, medium, hard, perfect = (c.strip() for c in cells.split(" | "))
        for level, text in (("easy", easy), ("medium", medium), ("hard", hard)):
            recipe = levels[level]
            assert recipe.method.lower() in text.lower(), (name, level, text)
            budget = recipe.settings.get("seconds", recipe.settings.get("iterations"))
            budget = budget if budget is not None else recipe.settings.get("depth")
            if budget is not None:
                assert f"{budget:g}" in text, (name, level, text, recipe)
        assert ("perfect" in levels) == (perfect != "—"), name


def test_specs_on_the_page_build() -> None:
    specs = set()
    for line in re.findall(r"--bots (\S+)", PAGE):
        specs.update(line.split(","))
    specs.update(re.findall(r"`((?:mcts|expectimax|hard):[\w.]+)`", PAGE))
    assert len(specs) >= 6
    # A FlipWars position a few actions from the end: each spec builds and chooses there as at
    # the opening, without expectimax:3's 18 s of search over the opening's branching.
    game = pa.load("flipwars")
    rng = random.Random(5)
    late = game.new_initial_state()
    while not late.is_terminal() and len(late.legal_actions()) > 6:
        late.apply(rng.choice(late.legal_actions()))
    assert not late.is_terminal()
    for spec in sorted(specs):
        if spec == "perfect":
            target = pa.load("stack-a-cash")
            assert make_bot(spec, target, seed=1).choose(target.new_initial_state()) is not None
        else:
            assert make_bot(spec, game, seed=1).choose(late.clone()) in late.legal_actions()
