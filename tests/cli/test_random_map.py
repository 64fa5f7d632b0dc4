"""``--map random`` in the terminal: the map comes from the game's seed (``--seed``, or one
drawn by the program), never from the engine, and the record keeps both."""

from __future__ import annotations

from pathlib import Path

import pocketarena as pa
from pocketarena.records import load

from .helpers import run


def test_the_seed_picks_the_map_and_the_record_keeps_them(tmp_path: Path) -> None:
    maps = {}
    for seed in ("42", None):
        save = tmp_path / f"{seed}.json"
        args = ["play", "coin-age", "--map", "random", "--vs", "random", "--save", str(save)]
        result = run(*args, *(["--seed", seed] if seed else []), input="\nresign\ny\n")
        assert result.exit_code == 0, result.output
        options = load(save).options
        assert (
            options["map"] == pa.load("coin-age", map="random", seed=options["seed"]).options["map"]
        )
        maps[seed] = options
    assert maps["42"]["seed"] == 42
    assert isinstance(maps[None]["seed"], int)
