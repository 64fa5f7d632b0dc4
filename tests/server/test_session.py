"""The live game's state machine on its own: no event loop, no database, no sockets, no clock
read from the wall (each request is given its moment)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pocketarena.core import CHANCE
from pocketarena.server.live import session
from pocketarena.server.live.clock import Clock
from pocketarena.server.live.session import Change, GameError, Table

from .tables import seat, table

WALL = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def play(t: Table, change: Change) -> Table:
    session.adopt(t, change)
    return t


def refused(code: str, fn: Any, *args: Any) -> str:
    with pytest.raises(GameError) as e:
        fn(*args)
    assert e.value.code == code, e.value.message
    return e.value.message


def test_who_may_act_and_on_which_version() -> None:
    t = table()
    assert "waiting" in refused("not_active", session.check_turn, table(status="waiting"), "ann", 0)
    assert "over" in refused("not_active", session.check_turn, table(status="finished"), "ann", 0)
    for version in (None, "0", True, 0.0):
        refused("bad_request", session.check_turn, t, "ann", version)
    assert "version 3" in refused("stale", session.check_turn, t, "ann", 3)
    refused("not_seated", session.check_turn, t, "eve", 0)
    assert "Ann's turn" in refused("not_your_turn", session.check_turn, t, "bob", 0)
    assert session.check_turn(t, "ann", 0) == 0


def test_a_move_changes_nothing_until_it_is_adopted() -> None:
    t = table()
    change = session.move(t, "ann", "place L b2", 0, now=0.0, wall=WALL)
    # the row also says whose move it is now (Bob's "your turn" list); untimed: no deadline
    assert change.values == {
        "history": ["place L b2"],
        "version": 1,
        "turn_id": "bob",
        "deadline": None,
    }
    assert change.finish is None and change.clock is None
    assert t.version == 0 and t.state.history == [] and t.entries == []  # not yet written
    play(t, change)
    assert t.version == 1 and [a.text for a in t.state.history] == ["place L b2"]
    assert t.movers == [0] and t.entries[0].seat == 0 and t.entries[0].say
    assert t.events_from == 0 and t.actor() == 1
    # the same move again (a duplicate submission) names the old version: refused, stale
    refused("stale", session.move, t, "ann", "place L b2", 0, 1.0, WALL)
    refused("illegal", session.move, t, "bob", "place L z9", 1, 1.0, WALL)
    for text in (42, "", "   ", "x" * 101):
        refused("bad_request", session.move, t, "bob", text, 1, 1.0, WALL)
    assert t.version == 1 and len(t.entries) == 1


def test_the_server_throws_the_flips_nobody_throws_in_person() -> None:
    t = table("wallet-battles")
    assert t.state.current_player == CHANCE and t.actor() is None
    refused("not_your_turn", session.check_turn, t, "ann", 0)
    change = session.begin(t, now=0.0, wall=WALL)
    assert change is not None and change.values["version"] == 1
    play(t, change)
    assert t.state.current_player >= 0 and all(e.chance for e in t.entries)
    assert all(m == CHANCE for m in t.movers)
    # the same seed throws the same coins
    again = table("wallet-battles")
    play(again, session.begin(again, 0.0, WALL) or change)
    assert [a.text for a in again.state.history] == [a.text for a in t.state.history]


def test_a_slap_is_thrown_by_the_mover_only() -> None:
    t = table("coin-age", map="classic")
    assert t.state.current_player == CHANCE and t.actor() == 0
    assert session.begin(t, 0.0, WALL) is None  # nothing for the server to throw
    assert "thrown first" in refused("illegal", session.move, t, "ann", "end", 0, 0.0, WALL)
    refused("not_your_turn", session.throw, t, "bob", 0, 0.0, WALL)
    play(t, session.throw(t, "ann", 0, 0.0, WALL))
    assert t.version == 1 and t.entries[0].chance and t.entries[0].seat is None
    assert t.state.current_player == 0
    refused("illegal", session.throw, t, "ann", 1, 0.0, WALL)  # time to move now


def test_resigning_ends_the_game_and_rates_it_only_once_both_moved() -> None:
    early = table()
    change = session.resign(early, "ann", 0.0, WALL)
    assert change.finish is not None and change.finish.winner == 1
    assert change.finish.rated is None  # given up before both players moved
    assert change.values["status"] == "finished" and change.values["rated"] is False
    assert change.values["termination"] == "resignation" and change.values["finished_at"] == WALL
    t = table()
    play(t, session.move(t, "ann", "place L b2", 0, 0.0, WALL))
    play(t, session.move(t, "bob", t.state.legal_actions()[0].text, 1, 0.0, WALL))
    change = session.resign(t, "bob", 0.0, WALL)
    assert change.finish is not None and change.finish.rated == ("ann", "bob")
    play(t, change)
    assert t.status == "finished" and t.winner == 0 and t.result == "1-0" and t.rated
    assert t.termination == "resignation" and t.finished_at == WALL and t.version == 3
    refused("not_active", session.resign, t, "bob", 0.0, WALL)
    refused("not_active", session.move, t, "ann", "place L c3", 3, 0.0, WALL)
    refused("not_seated", session.resign, table(), "eve", 0.0, WALL)


def test_guests_and_self_play_are_never_rated() -> None:
    for seats in ((seat("ann"), seat("gus", "guest")), (seat("ann"), seat("ann"))):
        assert not session.may_be_rated(list(seats))
    assert not session.may_be_rated([seat("b1", "bot", "random"), seat("b2", "bot", "random")])
    assert session.may_be_rated([seat("ann"), seat("b1", "bot", "random")])
    assert table(seats=(seat("ann"), seat("gus", "guest"))).rated_pair({0, 1}) is None


def test_a_finished_game_plays_to_the_end_through_the_session() -> None:
    t = table()
    while t.status == "active":
        actor = t.actor()
        assert actor is not None
        player = "ann" if actor == 0 else "bob"
        action = t.state.legal_actions()[0].text
        play(t, session.move(t, player, action, t.version, 0.0, WALL))
    assert t.status == "finished" and t.termination == "normal"
    assert t.final_scores == [float(x) for x in t.state.scores()]
    assert t.winner == t.state.winner()


def test_rematch_needs_both_offers_unless_the_opponent_is_a_bot() -> None:
    t = table()
    refused("not_active", session.rematch_offer, t, "ann")
    t.status = "finished"
    refused("not_seated", session.rematch_offer, t, "eve")
    mine = session.rematch_offer(t, "ann")
    assert mine == [0] and not session.rematch_agreed(t, mine)
    t.rematch_offers = {1}
    assert session.rematch_agreed(t, mine)
    terms = session.rematch_terms(t, "ann")
    assert (terms.creator_id, terms.mode, terms.seat, terms.opponent_id) == (
        "ann",
        "friend",
        1,
        "bob",
    )
    bot = table(seats=(seat("ann"), seat("b1", "bot", "greedy")), status="finished")
    bot.mode = "bot"
    assert session.rematch_agreed(bot, [0])
    terms = session.rematch_terms(bot, "ann")
    assert (terms.mode, terms.bot, terms.seat, terms.opponent_id) == ("bot", "greedy", 1, None)


def test_clocks_are_charged_at_the_moment_given() -> None:
    t = table(clock=Clock(60_000, 2_000, now=lambda: pytest.fail("the wall was read")))
    session.start_clock(t, now=100.0)
    assert t.clock is not None and t.clock.running == 0
    change = session.move(t, "ann", "place L b2", 0, now=103.5, wall=WALL)
    # 3.5 s used, 2 s earned; bob's clock runs from this moment
    assert change.values["clock0_ms"] == 58_500 and change.values["clock1_ms"] == 60_000
    assert change.values["clock_since"] == WALL
    assert t.clock.remaining == [60_000, 60_000] and t.clock.running == 0  # not yet adopted
    play(t, change)
    assert t.clock is not None and t.clock.running == 1 and t.clock.since == 103.5
    assert session.flag(t, now=163.4, wall=WALL) is None  # 0.1 s left
    forfeit = session.flag(t, now=163.6, wall=WALL)
    assert forfeit is not None and forfeit.finish is not None
    assert forfeit.finish.termination == "time forfeit" and forfeit.finish.winner == 0
    assert forfeit.values["clock1_ms"] == 0 and forfeit.values["clock0_ms"] == 58_500
    assert t.clock.remaining[1] == 60_000  # the table keeps its clocks until it is written
    play(t, forfeit)
    assert t.status == "finished" and t.clock is not None and t.clock.running is None


def test_joining_a_waiting_game() -> None:
    t = table(seats=(seat("ann"), None), status="waiting")
    t.invite_token = "secret"
    refused("forbidden", session.joining_seat, t, "bob", "wrong")
    refused("forbidden", session.joining_seat, t, "ann", "secret")
    assert session.joining_seat(t, "bob", "secret") == 1
    t.status = "active"
    t.seats[1] = seat("bob")
    assert session.joining_seat(t, "bob", None) is None  # already in
    refused("full", session.joining_seat, t, "eve", "secret")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["stack-a-cash", "coin-age", "wallet-battles", "flipwars"]),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=60),
)
def test_play_through_the_session_is_the_engines_play(game: str, picks: list[int]) -> None:
    """Random legal play, each request made by whoever may act: the table ends where the
    engine does when it replays the written history, version by version."""
    t = table(game)
    start = session.begin(t, 0.0, WALL)
    if start is not None:
        play(t, start)
    written = list(start.values["history"]) if start else []
    for pick in picks:
        if t.status != "active":
            break
        actor = t.actor()
        assert actor is not None, "the session waits for nobody"
        player = "ann" if actor == 0 else "bob"
        if t.state.current_player == CHANCE:
            change = session.throw(t, player, t.version, 0.0, WALL)
        else:
            legal = t.state.legal_actions()
            change = session.move(t, player, legal[pick % len(legal)].text, t.version, 0.0, WALL)
        assert change.values["version"] == t.version + 1
        assert change.values["history"][: len(written)] == written  # history only grows
        written = list(change.values["history"])
        play(t, change)
    replay = t.game.new_initial_state()
    for text in written:
        replay.apply(t.game.action(text))
    assert [a.text for a in t.state.history] == written
    assert replay.position() == t.state.position()
    assert replay.is_terminal() == (t.status == "finished")
    assert [e.text for e in t.entries] == written and len(t.movers) == len(written)


def test_a_new_game_is_rated_only_if_it_can_be() -> None:
    ann, gus = seat("ann"), seat("gus", "guest")
    assert session.rated_at_start(True, [ann, seat("b1", "bot", "easy")], "account")
    assert not session.rated_at_start(True, [ann, gus], "account")  # a guest sits
    assert not session.rated_at_start(False, [ann, seat("bob")], "account")  # not asked
    assert session.rated_at_start(True, [ann, None], "account")  # whoever joins decides
    assert not session.rated_at_start(True, [gus, None], "guest")  # never, whoever joins


def test_a_resumed_game_charges_the_player_to_act_and_names_follow_renames() -> None:
    t = table(clock=Clock(60_000, 0))
    stopped = datetime(2026, 12, 1, 11, 59, 50, tzinfo=UTC)
    session.charge(t, stopped, WALL)  # 10 s used before the server stopped
    assert t.clock is not None and t.clock.remaining == [50_000, 60_000]
    session.charge(t, WALL, stopped)  # a heartbeat older than the move: nothing
    assert t.clock.remaining == [50_000, 60_000]
    assert session.rename(t, "bob", "Robert") and not session.rename(t, "bob", "Robert")
    assert t.seats[1] is not None and t.seats[1].name == "Robert"
