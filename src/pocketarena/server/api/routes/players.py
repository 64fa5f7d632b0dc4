"""Players: who you are (and your display name), and anyone's ratings and history."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query

from pocketarena.i18n import _

from ... import catalog, profiles
from ...models import GameRecord, Player
from ...names import guest_number, stored_name
from ...schemas import ErrorOut, MeOut, NameIn, PlayerOut, TurnsOut
from ...store import Store, aware
from ..deps import HubDep, PlayerIdDep, StoreDep, WriteLimit

router = APIRouter(prefix="/api", tags=["players"])
PLAYER_ID = re.compile(r"[0-9a-f]{32}")  # checked before it reaches the database


def me_of(p: Player) -> dict[str, Any]:
    """Who a visitor is (``MeOut``)."""
    guest = guest_number(p.id, p.name)
    return {"id": p.id, "name": p.name, "kind": p.kind, "username": p.username, "guest": guest}


def me_json(store: Store, player_id: str) -> dict[str, Any]:
    return me_of(store.ensure_guest(player_id))


@router.get("/me", response_model=MeOut, summary="The visitor (a guest until they register)")
def get_me(store: StoreDep, player: PlayerIdDep) -> dict[str, Any]:
    return me_json(store, player)


@router.patch(
    "/me", response_model=MeOut, responses={400: {"model": ErrorOut}}, dependencies=[WriteLimit]
)
async def rename(body: NameIn, store: StoreDep, hub: HubDep, player: PlayerIdDep) -> dict[str, Any]:
    """Choose the display name others see."""
    p = await hub.db(store.rename, player, body.name)
    hub.player_renamed(p.id, p.name)  # on the event loop: it tells the watchers and the bus
    return me_of(p)


TURNS_LISTED = 20  # games each page's "your turn" list shows (the count says how many in all)


def turns_json(store: Store, player_id: str, limit: int = TURNS_LISTED) -> dict[str, Any]:
    """The games awaiting ``player_id``'s move (``TurnsOut``), the soonest due first."""
    count, rows = store.turns_of(player_id, limit)
    others = {(r.seat1_id if r.seat0_id == player_id else r.seat0_id) for r in rows} - {None}
    players = store.get_players([o for o in others if o])
    games = []
    for r in rows:
        other = r.seat1_id if r.seat0_id == player_id else r.seat0_id
        try:
            title = catalog.game_class(r.game).TITLE
        except ValueError:
            title = r.game
        games.append(
            {
                "id": r.id,
                "game": r.game,
                "title": title,
                "url": f"/g/{r.id}",
                **opponent_of(other, players),
                "days_per_move": r.days_per_move,
                "deadline": aware(r.deadline).isoformat() if r.deadline else None,
            }
        )
    return {"count": count, "games": games}


@router.get(
    "/me/turns",
    response_model=TurnsOut,
    summary="The games awaiting your move, the soonest due first",
)
def my_turns(store: StoreDep, player: PlayerIdDep) -> dict[str, Any]:
    """Every game in progress where it is your move (turn-based and real-time, not games with
    both seats on one screen): how many, and the first few, the soonest deadline first."""
    return turns_json(store, player)


def opponent_of(opponent_id: str | None, players: Mapping[str, Player]) -> dict[str, Any]:
    """The opponent's name as stored, with what a reader's words need beside it: the number of
    a guest's given name (``opponent_guest``) and whether it is a bot's (``opponent_kind``)."""
    found = players.get(opponent_id) if opponent_id else None
    name = found.name if found is not None else None
    return {
        "opponent": name,
        "opponent_guest": guest_number(opponent_id, name),
        "opponent_kind": found.kind if found is not None else None,
    }


def summarize(row: GameRecord, player_id: str, players: Mapping[str, Player]) -> dict[str, Any]:
    seat = 0 if row.seat0_id == player_id else 1
    opponent_id = row.seat1_id if seat == 0 else row.seat0_id
    outcome = None
    if row.status == "finished":
        outcome = "draw" if row.winner is None else ("win" if row.winner == seat else "loss")
    change = None
    for c in row.rating_changes or []:
        if c.get("player") == player_id:
            change = int(c.get("delta", 0))
    try:
        title = catalog.game_class(row.game).TITLE
    except ValueError:
        title = row.game
    return {
        "id": row.id,
        "game": row.game,
        "title": title,
        "status": row.status,
        "mode": row.mode,
        "rated": row.rated,
        "seat": seat,
        **opponent_of(opponent_id if opponent_id != player_id else None, players),
        "opponent_id": opponent_id if opponent_id != player_id else None,
        "result": row.result,
        "outcome": outcome,
        "termination": row.termination,
        "rating_change": change,
        "created_at": row.created_at.isoformat(),
    }


def player_json(store: Store, player_id: str, limit: int = 50) -> dict[str, Any] | None:
    """A player's page data, or None if there is no such player (or no such id)."""
    if not PLAYER_ID.fullmatch(player_id):
        return None
    p = store.get_player(player_id)
    if p is None:
        return None
    rows = store.player_games(player_id, limit=limit)
    ids = [pid for r in rows for pid in (r.seat0_id, r.seat1_id) if pid]
    players = store.get_players(ids)
    ratings = [
        {
            "game": g,
            "rating": r.display,
            "deviation": r.deviation,
            "provisional": r.provisional,
            "games": r.games,
        }
        for g, r in sorted(store.ratings_of(player_id).items())
    ]
    return {
        "id": p.id,
        "name": p.name,
        "kind": p.kind,
        "username": p.username,
        "guest": guest_number(p.id, p.name),
        "ratings": ratings,
        "stats": store.player_stats(player_id),
        "games": [summarize(r, player_id, players) for r in rows],
    }


@router.get("/players/{player_id}", response_model=PlayerOut, responses={404: {"model": ErrorOut}})
def get_player(player_id: str, store: StoreDep) -> dict[str, Any]:
    """A player's ratings per game and recent games."""
    data = player_json(store, player_id)
    if data is None:
        raise HTTPException(status_code=404, detail=_("there is no player %(id)r", id=player_id))
    return data


def games_json(
    store: Store,
    player_id: str,
    game: str | None,
    result: str | None,
    opponent: str | None,
    page: int,
) -> dict[str, Any] | None:
    """A page of a player's games under a filter (``GameFilter``), or None if there is no
    such player; a filter that names no game or result raises 400 with the valid ones."""
    if not PLAYER_ID.fullmatch(player_id) or store.get_player(player_id) is None:
        return None
    if game and game not in catalog.game_ids():
        known = ", ".join(catalog.game_ids())
        raise HTTPException(
            400, _("there is no game %(game)r (there are %(known)s)", game=game, known=known)
        )
    if result and result not in profiles.RESULTS:
        known = ", ".join(profiles.RESULTS)
        raise HTTPException(
            400, _("a result is one of %(known)s, not %(result)r", known=known, result=result)
        )
    typed = stored_name((opponent or "").strip())  # "Invité 0467" is stored "Guest 0467"
    f = profiles.GameFilter(game or None, result or None, typed or None)
    total, rows = profiles.games_page(store, player_id, f, page)
    ids = [pid for r in rows for pid in (r.seat0_id, r.seat1_id) if pid]
    players = store.get_players(ids)
    pages = max(1, -(-total // profiles.PAGE_SIZE))
    return {
        "total": total,
        "page": page,
        "pages": pages,
        "games": [summarize(r, player_id, players) for r in rows],
    }


@router.get(
    "/players/{player_id}/games",
    responses={400: {"model": ErrorOut}, 404: {"model": ErrorOut}},
    summary="A player's games, filtered, a page at a time",
)
def get_player_games(
    player_id: str,
    store: StoreDep,
    game: Annotated[str | None, Query(max_length=40)] = None,
    result: Annotated[str | None, Query(max_length=8, description="win, loss or draw")] = None,
    opponent: Annotated[str | None, Query(max_length=40, description="a name or username")] = None,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> dict[str, Any]:
    """Newest first, 20 a page: ``total`` games match, ``pages`` pages."""
    data = games_json(store, player_id, game, result, opponent, page)
    if data is None:
        raise HTTPException(status_code=404, detail=_("there is no player %(id)r", id=player_id))
    return data


@router.get(
    "/players/{player_id}/ratings/history",
    responses={404: {"model": ErrorOut}},
    summary="A player's rating after each rated game, per game",
)
def get_rating_history(player_id: str, store: StoreDep) -> dict[str, Any]:
    if not PLAYER_ID.fullmatch(player_id) or store.get_player(player_id) is None:
        raise HTTPException(status_code=404, detail=_("there is no player %(id)r", id=player_id))
    return {
        game: [{"at": when.isoformat(), "rating": value} for when, value in points]
        for game, points in profiles.rating_history(store, player_id).items()
    }
