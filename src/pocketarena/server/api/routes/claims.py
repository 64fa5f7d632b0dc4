"""Claiming the win when the opponent has left an untimed game (see ``live.abandon``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from ...live import abandon
from ...schemas import GameView
from ..deps import HubDep, PlayerIdDep, WriteLimit
from .games import ERRORS, view_for

router = APIRouter(prefix="/api/games", tags=["games"])


class ClaimOut(BaseModel):
    allowed: bool
    wait_s: int | None  # seconds until the claim is allowed; null: it will not be
    reason: str  # why, in the reader's language
    final: bool = False  # the game is not in progress: no claim will ever be allowed


@router.get("/{game_id}/claim", response_model=ClaimOut, responses=ERRORS)
async def claim_status(game_id: str, hub: HubDep, player: PlayerIdDep) -> dict[str, Any]:
    """Whether you may claim the win now: in an untimed game against a person who has left
    (no page of theirs shows the game, on any server of the cluster) and has not moved for a while."""
    live = await hub.get(game_id)
    return (await abandon.claim(hub, live, player)).to_json()


@router.post(
    "/{game_id}/claim-win", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def claim_win(game_id: str, hub: HubDep, player: PlayerIdDep) -> dict[str, Any]:
    """Win a game whose opponent has left (termination "abandoned"); refused with the reason
    (and the seconds still to wait) otherwise."""
    live = await abandon.claim_win(hub, player, game_id)
    return view_for(live, player)
