"""How big one state message is, and what compressing it for one socket costs.

For each game, the state message its player to act is sent at the first decision of the game
(the opening) and halfway through a game of random play (the chance from a fixed seed, the
same game every run; at the first decision from that ply on): its bytes as JSON
text, the legal actions' part of them, the SVG board's (a browser asks for it; the load
benchmark's clients do not), and the CPU time (``time.process_time``) of compressing it as a
socket does (permessage-deflate with the server's settings, ``server.core.websocket``: level
1 since 2026-12-06, 6 before; a window of 2^12, memLevel 5), median of ``--repeat`` rounds. Then, over whole random
games, what a move's two state messages (the players') cost to make and compress, per move.

    python benchmarks/state_size.py
    python benchmarks/state_size.py --repeat 1000
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import zlib
from types import SimpleNamespace
from typing import Any

from live_views import game_in  # beside this script

from pocketarena.core import CHANCE
from pocketarena.server import catalog
from pocketarena.server.core import websocket
from pocketarena.server.live import games, session, views


def live_game(game_id: str) -> games.LiveGame:
    """A rated game between two accounts, at its start (as ``live_views.py`` makes one)."""
    made: games.LiveGame = game_in(
        SimpleNamespace(LiveGame=games.LiveGame, Seat=session.Seat), game_id
    )
    return made


def play(live: games.LiveGame, plies: int, rng: random.Random) -> None:
    """Random play for ``plies`` plies, then on to the next decision (throws included)."""
    while not live.state.is_terminal() and (
        len(live.entries) < plies or live.state.current_player == CHANCE
    ):
        state = live.state
        if state.current_player == CHANCE:
            assert live.chance is not None
            action = live.chance.outcome(state)
        else:
            action = rng.choice(state.legal_actions())
        session.append(live, state, action)


def length(game_id: str, seed: int) -> int:
    """The plies of the random game played from ``seed``."""
    live = live_game(game_id)
    play(live, 10**6, random.Random(seed))
    return len(live.entries)


def compressor() -> Any:
    """A socket's compressor of the messages the server sends, with the server's settings."""
    return zlib.compressobj(
        websocket.LEVEL, zlib.DEFLATED, -websocket.WINDOW_BITS, websocket.MEM_LEVEL
    )


def deflate_cpu_us(text: str, repeat: int) -> tuple[int, float]:
    """Compressed bytes of ``text`` and the median CPU time of compressing it (µs), as the
    first message of a socket (a socket keeps the last 4 KB it sent as context: a message of
    a few KB is compressed against the one before, a large one mostly against itself)."""
    data = text.encode()
    times = []
    size = 0
    for _ in range(repeat):
        socket = compressor()
        start = time.process_time()
        out = socket.compress(data) + socket.flush(zlib.Z_SYNC_FLUSH)
        times.append(time.process_time() - start)
        size = len(out)
    return size, statistics.median(times) * 1e6


def whole_games(game_id: str, games: int) -> tuple[float, float, float, float]:
    """Per move over ``games`` random games (seeds 1, 2, ...), from the first decision: the
    CPU time of making the state messages of both players after it (µs; the mover's with the
    legal actions, the view made once for both, as a broadcast does) and of compressing them
    on each player's own socket (µs; the context kept between a socket's messages), and their
    bytes as JSON and compressed."""
    make = pack = raw = packed = 0.0
    moves = 0
    for seed in range(1, games + 1):
        live = live_game(game_id)
        rng = random.Random(seed)
        play(live, 0, rng)
        sockets = [compressor() for _ in live.seats]
        while not live.state.is_terminal():
            play(live, len(live.entries) + 1, rng)
            live.revision += 1  # a broadcast: nothing cached from the last one
            start = time.process_time()
            texts = [views.state_message(live, [seat], svg=False) for seat in (0, 1)]
            made = time.process_time()
            out = [
                s.compress(t.encode()) + s.flush(zlib.Z_SYNC_FLUSH)
                for s, t in zip(sockets, texts, strict=True)
            ]
            make += made - start
            pack += time.process_time() - made
            raw += sum(len(t.encode()) for t in texts)
            packed += sum(len(o) for o in out)
            moves += 1
    return make / moves * 1e6, pack / moves * 1e6, raw / moves, packed / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument(
        "--games", type=int, default=20, help="random games per game, for the second table"
    )
    args = parser.parse_args()
    print(
        "| game | position | legal actions | message bytes (no SVG) | of them legal |"
        " with SVG | deflated (no SVG) | deflate CPU µs (no SVG) |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game_id in catalog.game_ids():
        live = live_game(game_id)
        rng = random.Random(1)
        for name, plies in (("opening", 0), ("mid-game", length(game_id, 1) // 2)):
            play(live, plies, rng)
            you = [live.state.current_player]
            live.revision += 1
            text = views.state_message(live, you, svg=False)
            with_svg = views.state_message(live, you, svg=True)
            legal = json.dumps(json.loads(text)["legal"], separators=(",", ":"))
            count = len(live.state.legal_actions())
            packed, cpu = deflate_cpu_us(text, args.repeat)
            print(
                f"| {game_id} | {name} ({len(live.entries)} plies) | {count} "
                f"| {len(text.encode()):,} | {len(legal.encode()):,} "
                f"| {len(with_svg.encode()):,} | {packed:,} | {cpu:.0f} |"
            )
    print(
        f"\n{args.games} random games of each, per move: the state messages of both players"
        " (no SVG), made and compressed\n"
    )
    print("| game | make µs | compress µs | bytes | compressed bytes |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for game_id in catalog.game_ids():
        make, pack, raw, packed = whole_games(game_id, args.games)
        print(f"| {game_id} | {make:.0f} | {pack:.0f} | {raw:,.0f} | {packed:,.0f} |")


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
