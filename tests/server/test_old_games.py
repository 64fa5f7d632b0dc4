"""Games saved before an option existed load as they were played: a Wallet Battles game stored
without ``end`` goes on by the ``occupied`` end (and the coins it names), whatever today's
defaults are."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.records.test_old_records import MOVES

from .conftest import create


def test_a_stored_game_without_end_goes_on_by_the_occupied_end(client: TestClient) -> None:
    six = {"Q": 6, "N": 6, "P": 6, "D": 6}
    created = create(
        client,
        game="wallet-battles",
        options={"map": "antietam", "coins": six, "end": "used"},
        mode="local",
    )
    gid = created["id"]
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    # As an older server saved it: no "end" among the options, and moves after which every
    # location has held a coin while north-woods is empty again.
    ctx.hub.games.pop(gid)
    stored = ctx.store.load_game(gid).version
    ctx.store.save_game(
        gid,
        stored,
        {"options": {"map": "antietam", "coins": six}, "history": MOVES[:-2], "version": 1},
    )
    view = client.get(f"/api/games/{gid}?svg=false").json()
    assert view["options"]["end"] == "occupied" and view["options"]["coins"] == six
    assert view["status"] == "active" and len(view["history"]) == len(MOVES) - 2
    # By "used" it would be over; by "occupied" it goes on to the next flip (north-woods is
    # empty).
    assert view["position"]["phase"] == "flip" and view["position"]["ending"] is None
    assert view["position"]["unused"] == 0 and view["result"] is None
