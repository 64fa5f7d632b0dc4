"""Games on the server: create, read, join, move, throw, resign, rematch, cancel, replay.

The same actions are available over the WebSocket (``/ws``), which also pushes every change.
"""

from __future__ import annotations

from typing import Any

import pydantic_core
from fastapi import APIRouter, Query, Request, Response

from pocketarena.core import ActionError
from pocketarena.i18n import N_, _

from ... import catalog
from ...core.security import address_hash
from ...live import views
from ...live.games import LiveGame
from ...live.session import GameError
from ...schemas import (
    AnswerIn,
    ErrorOut,
    GameCreate,
    GameCreated,
    GameView,
    InvalidOut,
    JoinIn,
    MoveIn,
    VersionIn,
    WhyOut,
)
from ..deps import ContextDep, HubDep, PlayerIdDep, WriteLimit, check, client_addr
from ..responses import SafeJSONResponse, render_json

router = APIRouter(prefix="/api/games", tags=["games"])

# ``?svg=false``: the view without its SVG board, for a client that draws none from this answer
# (the site's pages get theirs over the WebSocket; drawing it is most of a new game's answer).
SVG = Query(True, description="Include the SVG board")
ERRORS: dict[int | str, dict[str, Any]] = {
    **{code: {"model": ErrorOut} for code in (400, 403, 404, 409, 429, 503)},
    422: {"model": InvalidOut},
}


def view_for(live: LiveGame, player_id: str | None, svg: bool = True) -> dict[str, Any]:
    """The game as this player sees it: the shared view, their seats and the clocks."""
    view = views.view_data(live, svg)
    view["you"] = live.seats_of(player_id)
    view["clock"] = live.clock.to_json() if live.clock else None
    return view


def view_answer(live: LiveGame, player_id: str | None, svg: bool = True) -> dict[str, Any]:
    """``GameView`` as the API answers it: ``view_for`` with every key of the schema, in its
    order (what FastAPI's validation of ``view_for`` against ``response_model`` made of it),
    made once instead of validated and dumped again."""
    view = views.view_data(live, svg)  # the model's JSON data but its last three keys
    if not svg:
        view["svg"] = None
    view["clock"] = live.clock.to_json() if live.clock else None
    view["you"] = live.seats_of(player_id)
    return view


def view_response(live: LiveGame, player_id: str | None, svg: bool = True) -> Response:
    """The answer of a route that returns the game: its JSON made here (FastAPI passes a
    ``Response`` through; its ``response_model`` stays for the documentation)."""
    view = view_answer(live, player_id, svg)
    if not view["legal"]:
        return SafeJSONResponse(view)
    # The legal actions, most of a FlipWars answer (47 KB at its opening), written by
    # pydantic's JSON writer in a fifth of json.dumps' time: ints and the notation's texts,
    # which it writes byte for byte as json.dumps does (floats and lone surrogates it writes
    # otherwise; an action has neither, and a text it cannot write goes the common way).
    try:
        legal = pydantic_core.to_json(view["legal"])
    except pydantic_core.PydanticSerializationError:
        return SafeJSONResponse(view)
    keys = list(view)
    at = keys.index("legal")
    head = render_json({k: view[k] for k in keys[:at]})
    tail = render_json({k: view[k] for k in keys[at + 1 :]})
    body = b"".join((head[:-1], b',"legal":', legal, b",", tail[1:]))
    return Response(body, media_type=SafeJSONResponse.media_type)


@router.post(
    "", response_model=GameCreated, status_code=201, responses=ERRORS, dependencies=[WriteLimit]
)
async def create_game(
    body: GameCreate,
    request: Request,
    ctx: ContextDep,
    hub: HubDep,
    player: PlayerIdDep,
    svg: bool = SVG,
) -> Response:
    """Start a game against a bot or on one screen, or open one for a friend or the lobby,
    real-time (``clock``), untimed, or turn-based (``days_per_move``: a move a day or a week).

    New games are limited per player and per address (429 with Retry-After), and so are the
    games each may keep open: waiting for an opponent or running a clock. A game nobody
    joins is cancelled after a while. It is rated only if both players are accounts (or a
    bot) and each of them moves."""
    addr = client_addr(request)
    await check(ctx, ctx.rates.address_games, addr, N_("too many new games from your address"))
    await check(ctx, ctx.rates.games, player, N_("too many new games"))
    clock = (body.clock.initial_s * 1000, body.clock.increment_s * 1000) if body.clock else None
    live = await hub.seating.create(
        player,
        body.game,
        body.options,
        body.mode,
        body.seat,
        body.bot,
        clock,
        body.rated,
        creator_addr=address_hash(ctx.secret_key, addr),
        days_per_move=body.days_per_move,
    )
    base = str(request.base_url).rstrip("/")
    invite = f"{base}/g/{live.id}?invite={live.invite_token}" if live.invite_token else None
    created = {
        "id": live.id,
        "url": f"{base}/g/{live.id}",
        "invite_url": invite,
        "game": view_answer(live, player, svg),
    }
    return SafeJSONResponse(created, status_code=201)  # GameCreated, as view_response says


@router.get(
    "/{game_id}", response_model=GameView, responses=ERRORS, summary="A game as its viewer sees it"
)
async def get_game(
    game_id: str,
    hub: HubDep,
    player: PlayerIdDep,
    svg: bool = SVG,
) -> Response:
    live = await hub.get(game_id, fresh=True)
    return view_response(live, player, svg)


@router.post(
    "/{game_id}/join", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def join_game(
    game_id: str, body: JoinIn, hub: HubDep, player: PlayerIdDep, svg: bool = SVG
) -> Response:
    """Take the free seat of an open seek, or of a friend's game with its invite token."""
    live = await hub.seating.join(player, game_id, body.invite)
    return view_response(live, player, svg)


@router.post(
    "/{game_id}/moves", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def make_move(game_id: str, body: MoveIn, hub: HubDep, player: PlayerIdDep) -> Response:
    """Play a move in notation, made on ``version`` of the game (a stale version is refused)."""
    live = await hub.move(player, game_id, body.action, body.version)
    return view_response(live, player)


@router.post(
    "/{game_id}/throw", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def throw_coins(game_id: str, body: VersionIn, hub: HubDep, player: PlayerIdDep) -> Response:
    """Throw the coins when the game waits for your throw (Coin Age's slap, which starts your
    turn); throws that are nobody's own, as Wallet Battles' flips, the server makes at once.
    The outcome comes from the committed seed."""
    live = await hub.throw(player, game_id, body.version)
    return view_response(live, player)


@router.post(
    "/{game_id}/resign", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def resign(game_id: str, hub: HubDep, player: PlayerIdDep) -> Response:
    live = await hub.resign(player, game_id)
    return view_response(live, player)


@router.post(
    "/{game_id}/abort", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def abort(game_id: str, hub: HubDep, player: PlayerIdDep) -> Response:
    """Call the game off before each side has moved: no result, no rating change."""
    live = await hub.abort(player, game_id)
    return view_response(live, player)


@router.post(
    "/{game_id}/draw", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def draw(game_id: str, body: AnswerIn, hub: HubDep, player: PlayerIdDep) -> Response:
    """Offer a draw (``offer``: accepts your opponent's if they offered one), or ``accept`` or
    ``decline`` your opponent's offer. A move withdraws an offer; not against a bot."""
    live = await hub.draw(player, game_id, body.answer)
    return view_response(live, player)


@router.post(
    "/{game_id}/takeback", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def takeback(game_id: str, body: AnswerIn, hub: HubDep, player: PlayerIdDep) -> Response:
    """Ask to take back your last move (``offer``), or ``accept`` or ``decline`` your
    opponent's request; accepted, their last move and everything after it go (rated games
    too). A move withdraws a request; not against a bot."""
    live = await hub.takeback(player, game_id, body.answer)
    return view_response(live, player)


@router.post(
    "/{game_id}/rematch", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit]
)
async def rematch(game_id: str, hub: HubDep, player: PlayerIdDep) -> Response:
    """Offer a rematch (seats swapped); when both players offer, ``rematch.id`` names the new game."""
    live = await hub.seating.rematch(player, game_id)
    return view_response(live, player)


@router.delete("/{game_id}", response_model=GameView, responses=ERRORS, dependencies=[WriteLimit])
async def cancel_game(game_id: str, hub: HubDep, player: PlayerIdDep) -> Response:
    """Cancel a game still waiting for its opponent (its creator only)."""
    live = await hub.seating.cancel(player, game_id)
    return view_response(live, player)


@router.get(
    "/{game_id}/board",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, **ERRORS},
    summary="The board after the first `ply` actions (for replays)",
)
async def board_at(game_id: str, hub: HubDep, ply: int = Query(ge=0)) -> Response:
    live = await hub.get(game_id)
    history = live.state.history
    if ply > len(history):
        raise GameError("bad_request", _("ply must be between 0 and %(last)s", last=len(history)))
    state = live.game.new_initial_state()
    for action in history[:ply]:
        state.apply(action)
    svg = catalog.svg_board(state, history[ply - 1] if ply else None)
    cache = "public, max-age=31536000, immutable" if live.status == "finished" else "no-store"
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": cache})


@router.get(
    "/{game_id}/why",
    response_model=WhyOut,
    responses=ERRORS,
    summary="Why the places and pieces picked on the board make no move now",
)
async def why(game_id: str, hub: HubDep, picks: str = Query(max_length=100)) -> dict[str, Any]:
    """``picks``: what was picked on the board so far, space separated, the last one just
    tapped (a place, a coin size, a tile). The answer is the rules' reason for the first move of
    the game's whole list, legal now or not, that begins with these picks (or, where a board
    takes them in another order than the notation, as FlipWars' cell before its tile, that holds
    them all): it answers what the player did ("the coin on b3 is protected") and never a move
    chosen for them. ``legal`` when a legal move does; no ``detail`` when no move at all does."""
    live = await hub.get(game_id)
    state = live.state
    if live.status != "active" or state.current_player < 0:
        raise GameError("not_active", _("there is no decision to explain now"))
    picked = picks.split()
    if not picked:
        raise GameError("bad_request", _("name what was picked, e.g. picks=b3"))
    words = [(a, a.text.split()[1:]) for a in live.game.decisions]
    starting = [a for a, w in words if w[: len(picked)] == picked] or [
        a for a, w in words if all(p in w for p in picked)
    ]
    legal = {a.id for a in state.legal_actions()}
    if any(a.id in legal for a in starting):
        return {"legal": True}
    for action in starting:
        try:
            state.child(action)
        except ActionError as e:
            refusal = GameError.refused(e, live.game)
            return {"legal": False, "detail": refusal.message, **refusal.to_json()}
    return {"legal": False}


@router.get(
    "/{game_id}/preview",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}, **ERRORS},
    summary="The board as it would be after a legal decision (what a FlipWars tile would flip)",
)
async def preview(game_id: str, hub: HubDep, action: str = Query(max_length=100)) -> Response:
    live = await hub.get(game_id)
    state = live.state
    if live.status != "active" or state.current_player < 0:
        raise GameError("not_active", _("there is no decision to preview now"))
    try:
        after = state.child(live.game.parse_action(action))
    except ActionError as e:
        raise GameError.refused(e, live.game) from None
    return Response(
        catalog.svg_board(after, after.history[-1]),
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-store"},
    )
