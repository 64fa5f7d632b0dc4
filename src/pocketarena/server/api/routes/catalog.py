"""The games on offer: titles, pitches, options, bot levels."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from pocketarena.messages import speak_error

from ... import catalog
from ...schemas import CatalogGame, ErrorOut

router = APIRouter(prefix="/api/catalog", tags=["catalog"])


@router.get("", response_model=list[CatalogGame], summary="Every game with its options and bots")
def list_games() -> list[dict[str, object]]:
    return [catalog.game_info(g) for g in catalog.game_ids()]


@router.get("/{game}", response_model=CatalogGame, responses={404: {"model": ErrorOut}})
def get_game(game: str) -> dict[str, object]:
    try:
        return catalog.game_info(game)
    except ValueError as e:
        raise HTTPException(status_code=404, detail=speak_error(e)) from None
