"""A set-up left to chance is drawn by the server, not the engine, and kept: a Coin Age game on
``map="random"`` gets a seed of the server's, its options name the map that seed picks, and its
record replays on that map."""

from __future__ import annotations

from fastapi.testclient import TestClient

import pocketarena as pa
from pocketarena.records import Record

from .conftest import create


def test_the_server_draws_the_seed_of_a_random_map_and_keeps_it(client: TestClient) -> None:
    games = [
        create(client, game="coin-age", options={"map": "random"}, mode="local")["game"]
        for _ in range(3)
    ]
    seeds = {g["options"]["seed"] for g in games}
    assert len(seeds) == 3 and all(isinstance(s, int) and 0 <= s < 2**31 for s in seeds)
    for view in games:
        options = view["options"]
        assert (
            options["map"] == pa.load("coin-age", map="random", seed=options["seed"]).options["map"]
        )
        record = Record.from_json(client.get(f"/api/games/{view['id']}/record").text)
        assert record.options == options and record.load_game() == pa.load("coin-age", **options)
