"""What one broadcast's state message costs to make, now and at earlier revisions; and what
a move costs the hub in all (``--moves``).

For each game, 30 plies of random play (the chance from a fixed seed), then the state message
of the player to act is made again and again, each time as after a new broadcast (so nothing
cached is reused): the view of the game, the legal moves, the clocks. Two anchors, measured in
the same run on the same positions, in turns: the same message with its view made as
``GameView``'s model and that model's JSON (``views.game_view``: how every view was made until
2026-12-07, and the schema the view is tested against), and the message made by the hub of
``--before`` (its ``live/hub.py``, read with ``git show`` and run on today's other modules: a
revision whose hub still made the messages itself, before the split). The messages are
checked to say the same: the model's byte for byte, the old hub's but for the keys the view
gained since (``GAINED``) and the legal actions' form (objects then, their texts since 2026-12).

``--moves``: the hub's own work for each move, in thread CPU: every variant played at random
(``session.move`` or ``throw``, ``adopt``, then a broadcast's state message for each of the two
players, as ``Watchers.send`` makes them: no SVG, the entries since the last, in English),
``--rounds`` times for each ``--src`` (another checkout's ``src``: a before/after pair), the
checkouts taking turns in child processes; medians of the rounds.

    python benchmarks/live_views.py                      # against 3ab5463 (before the split)
    python benchmarks/live_views.py --repeat 3000
    python benchmarks/live_views.py --moves --src /path/to/before/src --src src --rounds 5
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from pocketarena.core import CHANCE
from pocketarena.fair import FairChance
from pocketarena.ratings import Rating
from pocketarena.server import catalog
from pocketarena.server.live import games, session, views

HUB = "src/pocketarena/server/live/hub.py"
# What the game view gained after the anchor (turn-based games and the gestures, issue 20),
# with its value in the untimed friend games measured here. The anchor's message lacks them;
# every other key must be the same, in the same order, with the same value.
GAINED = {
    "days_per_move": None,
    "deadline": None,
    "draw_offer": None,
    "takeback_offer": None,
    "abortable": False,
}


def hub_at(revision: str) -> ModuleType:
    """The hub module of ``revision``, loaded beside today's live package."""
    text = subprocess.run(
        ["git", "show", f"{revision}:{HUB}"], check=True, capture_output=True, text=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "hub_before.py"
    path.write_text(text)
    name = "pocketarena.server.live.hub_before"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def game_in(
    module: ModuleType | SimpleNamespace, game_id: str, options: dict[str, Any] | None = None
) -> Any:
    """A friend game between two accounts, Ann and Bob, just begun."""
    game = catalog.load_game(game_id, options or {})
    return module.LiveGame(
        id="B1",
        game=game,
        state=game.new_initial_state(),
        mode="friend",
        rated=True,
        creator_id="ann",
        creator_seat=0,
        seats=[
            module.Seat("ann", "Ann", "account", None, Rating()),
            module.Seat("bob", "Bob", "account", None, Rating()),
        ],
        status="active",
        chance=FairChance("B1", seed="ab" * 32) if game.CHANCE else None,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


def today() -> SimpleNamespace:
    """Today's live game and seat, as ``game_in`` takes them."""
    return SimpleNamespace(LiveGame=games.LiveGame, Seat=session.Seat)


def medians_us(makers: list[tuple[Callable[[], str], Any]], repeat: int) -> list[float]:
    """The median time of each maker, taken in turns (so the machine's other work falls on
    them alike)."""
    times: list[list[float]] = [[] for _ in makers]
    for _ in range(repeat):
        for (make, live), out in zip(makers, times, strict=True):
            live.revision += 1  # a new broadcast: the cached texts are made again
            start = time.perf_counter()
            make()
            out.append(time.perf_counter() - start)
    return [statistics.median(t) * 1e6 for t in times]


class Player:
    player_id = "ann"


def model_message(live: Any, you: list[int], svg: bool) -> str:
    """The state message with its view made as ``GameView``'s model and written by it (the
    live views until 2026-12-07), the rest as ``views.state_message`` makes it."""
    clock = json.dumps(live.clock.to_json()) if live.clock else "null"
    to_act = live.status == "active" and live.state.current_player in you
    moves = views.legal_text(live) if to_act else "[]"
    exclude = {"you", "clock"} if svg else {"you", "clock", "svg"}
    game = views.game_view(live, svg, with_legal=False).model_dump_json(exclude=exclude)
    return (
        f'{{"type":"state","you":{json.dumps(you)},"clock":{clock},"legal":{moves},"game":{game}}}'
    )


def same_message(old_text: str, new_text: str) -> list[str]:
    """Check that the two messages say the same, but for what the view gained since the
    anchor (``GAINED``, after the anchor's keys; and each seat's ``guest``, null for these
    players) and the legal actions, sent as objects then and as their texts now (whose words
    the client reads as the objects' verb and tokens); the keys gained."""
    old, new = json.loads(old_text), json.loads(new_text)
    old["legal"] = [action["text"] for action in old["legal"]]
    gained = [k for k in new["game"] if k not in old["game"]]
    assert {k: new["game"][k] for k in gained} == {k: GAINED[k] for k in gained}, gained
    assert list(new["game"])[: len(new["game"]) - len(gained)] == list(old["game"])
    for key in gained:
        del new["game"][key]
    for seat in new["game"]["seats"]:
        assert seat.pop("guest") is None
    assert json.dumps(old) == json.dumps(new)
    return gained


def played(module: ModuleType | SimpleNamespace, game_id: str, append: Callable[..., None]) -> Any:
    """The game 30 plies in (or at its end), the chance from a fixed seed."""
    live = game_in(module, game_id)
    rng = random.Random(1)
    for _ in range(30):
        state = live.state
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            action = live.chance.outcome(state)
        else:
            action = rng.choice(state.legal_actions())
        append(live, live.state, action)
    return live


def messages(args: argparse.Namespace) -> None:
    before = hub_at(args.before)
    old_hub = before.Hub.__new__(before.Hub)  # only its view methods run
    print(
        f"| game | plies | before the split ({args.before}) µs | GameView's model µs | now µs | now ÷ model |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    gained: list[str] = []
    for game_id in catalog.game_ids():
        then = played(before, game_id, lambda t, s, a: before.Hub._append(old_hub, t, s, a))
        now = played(today(), game_id, session.append)
        model = played(today(), game_id, session.append)
        new_text = views.state_message(now, now.seats_of("ann"), False)
        assert model_message(model, model.seats_of("ann"), False) == new_text
        gained = same_message(old_hub.message(then, Player, False), new_text)
        was, by_model, is_ = medians_us(
            [
                (partial(old_hub.message, then, Player, False), then),
                (partial(model_message, model, [0], False), model),
                (partial(views.state_message, now, [0], False), now),
            ],
            args.repeat,
        )
        print(
            f"| {game_id} | {len(now.entries)} | {was:.0f} | {by_model:.0f} | {is_:.0f} "
            f"| {is_ / by_model:.2f} |"
        )
    if gained:
        print(f"\nThe message now also holds {', '.join(gained)} (not in the anchor's).")


# -- a move's work in the hub ----------------------------------------------------------------
WALL = datetime(2026, 12, 1, 12, tzinfo=UTC)


def hub_round(seed: int) -> dict[str, float]:
    """One round of ``--moves`` in this process (whatever ``pocketarena`` it imports): every
    variant played at random; thread CPU per move, in µs, of making the change, adopting it
    and broadcasting it."""
    rng = random.Random(seed)
    spent = {"change": 0.0, "adopt": 0.0, "broadcast": 0.0}
    moves = 0
    for game_id in catalog.game_ids():
        for variant in catalog.game_class(game_id).VARIANTS:
            live = game_in(today(), game_id, dict(variant))
            start = session.begin(live, 0.0, WALL)
            if start is not None:
                session.adopt(live, start)
            broadcast(live)
            while live.status == "active":
                player = "ann" if live.actor() == 0 else "bob"
                if live.state.current_player == CHANCE:
                    t0 = time.thread_time()
                    change = session.throw(live, player, live.version, 0.0, WALL)
                else:
                    text = rng.choice(live.state.legal_actions()).text
                    t0 = time.thread_time()
                    change = session.move(live, player, text, live.version, 0.0, WALL)
                t1 = time.thread_time()
                session.adopt(live, change)
                t2 = time.thread_time()
                broadcast(live)
                t3 = time.thread_time()
                spent["change"] += t1 - t0
                spent["adopt"] += t2 - t1
                spent["broadcast"] += t3 - t2
                moves += 1
    per_move = {k: v / moves * 1e6 for k, v in spent.items()}
    return {**per_move, "all": sum(per_move.values()), "moves": moves}


def broadcast(live: Any) -> None:
    """What ``Watchers.send`` does for the two players' sockets (no SVG, in English)."""
    live.revision += 1
    live.delta_from = min(live.sent_len, len(live.entries))
    live.sent_len = len(live.entries)
    for you in ([0], [1]):
        views.state_message(live, you, False, delta=True)


def moves(args: argparse.Namespace) -> None:
    sources = args.src or [str(Path(__file__).resolve().parents[1] / "src")]
    rounds: dict[str, list[dict[str, float]]] = {src: [] for src in sources}
    for n in range(args.rounds):
        for src in sources:
            env = {**os.environ, "PYTHONPATH": src}
            cmd = [sys.executable, __file__, "--moves-round", str(n)]
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
            rounds[src].append(json.loads(out.stdout.splitlines()[-1]))
    print("| src | moves a round | change µs | adopt µs | broadcast µs | all µs a move |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for src, runs in rounds.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        alls = ", ".join(f"{r['all']:.0f}" for r in runs)
        print(
            f"| {src} | {med['moves']:.0f} | {med['change']:.1f} | {med['adopt']:.1f} "
            f"| {med['broadcast']:.1f} | {med['all']:.1f} ({alls}) |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="3ab5463", help="the revision of the anchor's hub")
    parser.add_argument("--repeat", type=int, default=1000)
    parser.add_argument("--moves", action="store_true", help="a move's work in the hub, in all")
    parser.add_argument("--src", action="append", help="with --moves: a checkout's src (repeat)")
    parser.add_argument("--rounds", type=int, default=5, help="with --moves (default 5)")
    parser.add_argument("--moves-round", type=int, help=argparse.SUPPRESS)  # a child's round
    args = parser.parse_args()
    if args.moves_round is not None:
        hub_round(args.moves_round)  # the caches and the games' tables warmed
        print(json.dumps(hub_round(args.moves_round)))
    elif args.moves:
        moves(args)
    else:
        messages(args)


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
