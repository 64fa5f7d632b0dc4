from __future__ import annotations

import json
from typing import Any

import pocketarena as pa


def all_variants() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with every option set it declares as a variant."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game_id in sorted(pa.GAMES):
        for options in pa.GAMES[game_id].VARIANTS:
            out.append((game_id, dict(options)))
    return out


def variant_id(variant: tuple[str, dict[str, Any]]) -> str:
    game_id, options = variant
    if not options:
        return game_id
    return (
        game_id
        + "["
        + ",".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in sorted(options.items()))
        + "]"
    )
