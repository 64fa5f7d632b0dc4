"""The lobby: open seeks to accept and live games to watch."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...schemas import LobbyOut
from ..deps import HubDep

router = APIRouter(prefix="/api/lobby", tags=["lobby"])


@router.get("", response_model=LobbyOut, summary="Open seeks and games in progress")
async def lobby(hub: HubDep) -> dict[str, Any]:
    return hub.lobby_view()
