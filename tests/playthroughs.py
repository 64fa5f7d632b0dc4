"""Golden playthroughs (OpenSpiel's ``playthroughs/``): one seeded random game per registered
variant, kept in ``tests/data/playthroughs/`` as JSON lines, so that a renamed ``position()``
key, a changed legal-action count or a different outcome fails a test before it breaks the
web client or a stored game.

    python -m tests.playthroughs --write     # (re)write every file after an intended change
    python -m tests.playthroughs             # compare, as tests/conformance/test_playthroughs.py

A file's first line names the game, its options and the seed; then one line per ply: the
state's ``player``, its number of ``legal`` actions (chance outcomes at a chance node), its
``position()`` and the ``action`` taken from it; the last line is the finished game with its
``scores`` and ``winner`` instead of an action. The game is played by ``State.apply_random``
with ``random.Random(seed)``: a uniform choice among the legal actions, chance sampled by its
probabilities.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pocketarena as pa

DATA = Path(__file__).parent / "data" / "playthroughs"
SEED = 26


def variants() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with every option set it declares as a variant."""
    return [(g, dict(options)) for g in sorted(pa.GAMES) for options in pa.GAMES[g].VARIANTS]


def file_name(game_id: str, options: dict[str, Any]) -> str:
    """``wallet-battles_coins-D2-N2-P2-Q2_map-antietam.jsonl``: the id, then each option."""
    parts = [game_id]
    for key, value in sorted(options.items()):
        if isinstance(value, dict):
            value = "-".join(f"{k}{v}" for k, v in sorted(value.items()))
        parts.append(f"{key}-{re.sub(r'[^A-Za-z0-9]+', '-', str(value)).strip('-').lower()}")
    return "_".join(parts) + ".jsonl"


def play(game_id: str, options: dict[str, Any], seed: int = SEED) -> list[dict[str, Any]]:
    """The playthrough: a head naming the game, then one record per ply, positions in full."""
    game = pa.load(game_id, **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    records: list[dict[str, Any]] = [{"game": game.ID, "options": game.options, "seed": seed}]
    while not state.is_terminal():
        player = state.current_player
        count = len(state.chance_outcomes() if player == pa.CHANCE else state.legal_actions())
        record = {"ply": state.ply, "player": player, "legal": count, "position": state.position()}
        record["action"] = state.apply_random(rng).text
        records.append(record)
    records.append(
        {
            "ply": state.ply,
            "player": state.current_player,
            "position": state.position(),
            "scores": list(state.scores()),
            "winner": state.winner(),
        }
    )
    return records


# -- the file: a position in full once, then what each ply changed in it ----------------------
# A position is mostly what it was a ply before, so after the first each line keeps only the
# changes: ``changed`` [[key path, value], ...] and ``removed`` [key path, ...]; a path holds
# keys and list indexes (a list that changed length is one value). Reading the file back rebuilds every position in full before comparing.


def _changes(
    before: Any, after: Any, path: list[Any], changed: list[Any], removed: list[Any]
) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        removed += [path + [k] for k in before if k not in after]
        for k, v in after.items():
            if k not in before:
                changed.append([path + [k], v])
            else:
                _changes(before[k], v, path + [k], changed, removed)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            _changes(b, a, path + [i], changed, removed)
    elif before != after or type(before) is not type(after):
        changed.append([path, after])


def encode(records: list[dict[str, Any]]) -> str:
    lines, previous = [], None
    for record in records:
        record = dict(record)
        if previous is not None and "position" in record:
            changed: list[Any] = []
            removed: list[Any] = []
            position = record.pop("position")
            _changes(previous, position, [], changed, removed)
            record["changed"] = changed
            if removed:
                record["removed"] = removed
            previous = position
        elif "position" in record:
            previous = record["position"]
        lines.append(json.dumps(record, separators=(",", ":"), sort_keys=True))
    return "\n".join(lines) + "\n"


def decode(text: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    previous: Any = None
    for line in text.splitlines():
        record = json.loads(line)
        if "changed" in record:
            position = copy.deepcopy(previous)
            for path in record.pop("removed", []):
                parent = position
                for k in path[:-1]:
                    parent = parent[k]
                del parent[path[-1]]
            for path, value in record.pop("changed"):
                if not path:
                    position = value
                    continue
                parent = position
                for k in path[:-1]:
                    parent = parent[k]
                parent[path[-1]] = value
            record["position"] = position
        if "position" in record:
            previous = record["position"]
        records.append(record)
    return records


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """What differs between two JSON values, each as one line naming the key path."""
    where = path or "the line"
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = [
            f"{path}.{k}: gone now (the file has {json.dumps(expected[k])})"
            for k in expected
            if k not in actual
        ]
        out += [
            f"{path}.{k}: new, not in the file ({json.dumps(actual[k])})"
            for k in actual
            if k not in expected
        ]
        for k in expected:
            if k in actual:
                out += differences(expected[k], actual[k], f"{path}.{k}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (a, b) in enumerate(zip(expected, actual, strict=True)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    if expected != actual:
        return [f"{where}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
    return []


def compare(expected: list[dict[str, Any]], actual: list[dict[str, Any]], name: str) -> str | None:
    """None when the playthroughs agree, else what differs at the first differing ply."""
    for i, (was, now) in enumerate(zip(expected, actual, strict=False)):
        if was == now:
            continue
        if i == 0:
            head = f"{name}: the first line (game, options, seed) differs"
        else:
            previous = expected[i - 1].get("action")
            after = f" (after {previous!r})" if previous else " (the initial state)"
            head = f"{name}: ply {was.get('ply', i - 1)}{after} differs"
        shown = differences(was, now)
        more = f"\n  … and {len(shown) - 8} more" if len(shown) > 8 else ""
        return head + ":\n  " + "\n  ".join(shown[:8]) + more
    if len(expected) != len(actual):
        return (
            f"{name}: the game has {len(actual) - 2} plies now, the playthrough {len(expected) - 2}"
        )
    return None


def check(name: str) -> str | None:
    """None when ``tests/data/playthroughs/<name>`` matches the game as it plays now."""
    wanted = {file_name(g, o): (g, o) for g, o in variants()}
    path = DATA / name
    if name not in wanted:
        return (
            f"{name}: no registered variant writes this file (python -m tests.playthroughs --write)"
        )
    if not path.exists():
        return f"{name}: missing (python -m tests.playthroughs --write)"
    return compare(decode(path.read_text(encoding="utf-8")), play(*wanted[name]), name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite every playthrough file")
    args = parser.parse_args(argv)
    wanted = {file_name(g, o): (g, o) for g, o in variants()}
    failed = 0
    if args.write:
        DATA.mkdir(parents=True, exist_ok=True)
        for stale in set(p.name for p in DATA.glob("*.jsonl")) - set(wanted):
            (DATA / stale).unlink()
            print(f"removed {stale} (no such variant)")
    for name, (game_id, options) in wanted.items():
        if args.write:
            records = play(game_id, options)
            (DATA / name).write_text(encode(records), encoding="utf-8")
            print(f"wrote {DATA.name}/{name}: {len(records) - 2} plies")
            continue
        problem = check(name)
        if problem:
            print(problem)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
