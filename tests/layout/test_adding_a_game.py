"""Adding a game means adding one folder: the example game Coin Race (tests/coin_race/) is found
everywhere through its folder, its twin without parts falls back everywhere, a copy of the
folder dropped into pocketarena/games/ is a registered game, and docs/contributing.md quotes
the example's own code."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import pocketarena as pa
import pocketarena.match
from pocketarena import render
from pocketarena.bots import make_bot
from pocketarena.core import KINDS, SeededChance, for_game
from pocketarena.interop._common import render_modes
from pocketarena.match import play_match
from pocketarena.observe import observation_layout, observation_tensor
from pocketarena.server import catalog

ROOT = Path(__file__).resolve().parents[2]


def test_every_part_is_found_in_the_folder(coin_race: pa.Game, bare_race: pa.Game) -> None:
    for kind in KINDS:
        assert for_game("Bare_Race", kind) is None
        if kind == "vector":
            # The JAX environment (pocketarena.vector) is optional and needs the jax extra;
            # Coin Race has every other part.
            assert for_game("coin-race", kind) is None
            continue
        module = for_game("coin-race", kind)
        assert module is not None and module.__name__ == f"tests.coin_race.{kind}"
    with pytest.raises(ValueError, match="unknown kind"):
        for_game("coin-race", "sounds")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown game 'chess'; valid games: .*coin-race"):
        for_game("chess", "render")


def test_drawing_or_its_stand_in(coin_race: pa.Game, bare_race: pa.Game) -> None:
    for game, own in ((coin_race, True), (bare_race, False)):
        state = game.new_initial_state()
        state.apply("flip H")
        svg = catalog.svg_board(state, state.history[-1])
        assert svg.startswith("<svg") and ("pa-fallback" in svg) != own
        assert render_modes(game) == (["ansi", "svg"] if own else ["ansi"])
        words = render.describe(game.ID, state.history[-1])
        assert words == ("the coin lands heads: up to 3" if own else "flip H")


def test_observation_of_either_seat(coin_race: pa.Game) -> None:
    state = coin_race.new_initial_state()
    for action in ("flip H", "add 3", "flip T"):
        state.apply(action)
    mine, theirs = observation_tensor(state, 0), observation_tensor(state, 1)
    assert mine.shape == (5,) and mine.dtype == np.float32
    assert mine.tolist() == pytest.approx([0.3, 0.0, 0.0, 1.0, 0.0])
    permutation = observation_layout(coin_race).seat_permutation()
    assert theirs.tolist() == mine[permutation].tolist()


def test_bots_use_its_heuristic(coin_race: pa.Game, bare_race: pa.Game) -> None:
    assert "greedy" in catalog.bot_levels("coin-race")
    assert "greedy" not in catalog.bot_levels("bare-race")
    bots = [make_bot("greedy", coin_race, seed=1), make_bot("easy", coin_race, seed=2)]
    record = play_match(coin_race, bots, SeededChance(5))
    assert record.replay().is_terminal() and record.result in ("1-0", "0-1")


def test_seeded_chance_is_in_core_and_still_in_match() -> None:
    assert pocketarena.match.SeededChance is SeededChance


def test_a_folder_dropped_into_games_is_a_game(tmp_path: Path) -> None:
    """In a fresh process, a copy of tests/coin_race/ among the games' folders is registered
    by ``load_all`` (what ``import pocketarena`` runs) and its parts are found."""
    games = tmp_path / "games"
    shutil.copytree(ROOT / "tests" / "coin_race", games / "coin_race")
    script = textwrap.dedent(
        f"""
        import pocketarena as pa
        import pocketarena.games
        pocketarena.games.__path__.append({str(games)!r})
        pocketarena.games.load_all()
        from pocketarena.core import for_game
        game = pa.load("coin-race", goal=3)
        print(type(game).__module__, for_game("coin-race", "render").__name__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "pocketarena.games.coin_race.rules",
        "pocketarena.games.coin_race.render",
    ]


def excerpts() -> list[tuple[str, str]]:
    """(file, code) for every code block of docs/contributing.md that names its file."""
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        first, _, code = block.partition("\n")
        if first.startswith("# tests/"):
            out.append((first[2:].strip(), code))
    return out


def test_the_guide_quotes_the_example_as_it_is() -> None:
    quoted = excerpts()
    assert {path for path, _ in quoted} == {
        f"tests/coin_race/{name}.py"
        for name in ("__init__", "rules", "render", "heuristics", "observe")
    }
    for path, code in quoted:
        assert code in (ROOT / path).read_text(encoding="utf-8"), f"{path} no longer has:\n{code}"
