"""What one broadcast's state message costs to make, now and at an earlier revision.

For each game, 30 plies of random play (the chance from a fixed seed), then the state message
of the player to act is made again and again, each time as after a new broadcast (so nothing
cached is reused): the view of the game, the legal moves, the clocks. The anchor is the same
message made by the hub of ``--before`` (its ``live/hub.py``, read with ``git show`` and run
on today's other modules: a revision whose hub still made the messages itself, before the
split), measured in the same run on the same positions. The two messages are checked to say
the same, but for the keys the view gained since (``GAINED``) and the legal actions' form
(objects then, their texts since 2026-12).

    python benchmarks/live_views.py                      # against 3ab5463 (before the split)
    python benchmarks/live_views.py --repeat 3000
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
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


def game_in(module: ModuleType | SimpleNamespace, game_id: str) -> Any:
    game = catalog.load_game(game_id, {})
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


def same_message(old_text: str, new_text: str) -> list[str]:
    """Check that the two messages say the same, but for what the view gained since the
    anchor (``GAINED``, after the anchor's keys) and the legal actions, sent as objects then
    and as their texts now (whose words the client reads as the objects' verb and tokens);
    the keys gained."""
    old, new = json.loads(old_text), json.loads(new_text)
    old["legal"] = [action["text"] for action in old["legal"]]
    gained = [k for k in new["game"] if k not in old["game"]]
    assert {k: new["game"][k] for k in gained} == {k: GAINED[k] for k in gained}, gained
    assert list(new["game"])[: len(new["game"]) - len(gained)] == list(old["game"])
    for key in gained:
        del new["game"][key]
    assert json.dumps(old) == json.dumps(new)
    return gained


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="3ab5463", help="the revision of the anchor's hub")
    parser.add_argument("--repeat", type=int, default=1000)
    args = parser.parse_args()
    before = hub_at(args.before)
    old_hub = before.Hub.__new__(before.Hub)  # only its view methods run
    print(f"| game | plies | before ({args.before}) µs | now µs | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for game_id in catalog.game_ids():
        today = SimpleNamespace(LiveGame=games.LiveGame, Seat=session.Seat)
        then, now = game_in(before, game_id), game_in(today, game_id)
        rng = random.Random(1)
        for _ in range(30):
            state = then.state
            if state.is_terminal():
                break
            if state.current_player == CHANCE:
                action = then.chance.outcome(state)
            else:
                action = rng.choice(state.legal_actions())
            before.Hub._append(old_hub, then, then.state, action)
            session.append(now, now.state, action)
        old_text = old_hub.message(then, Player, False)
        new_text = views.state_message(now, now.seats_of("ann"), False)
        gained = same_message(old_text, new_text)
        was, is_ = medians_us(
            [
                (lambda t=then: old_hub.message(t, Player, False), then),
                (lambda n=now: views.state_message(n, [0], False), now),
            ],
            args.repeat,
        )
        print(f"| {game_id} | {len(now.entries)} | {was:.0f} | {is_:.0f} | {is_ / was:.2f} |")
    if gained:
        print(f"\nThe message now also holds {', '.join(gained)} (not in the anchor's).")


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
