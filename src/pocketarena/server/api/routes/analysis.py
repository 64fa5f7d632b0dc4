"""The analysis board: any position, its board, its legal moves or throws, and the engine's
evaluation (exact where a solver reaches, else the strongest bot's), computed in the bot
workers with a time limit, never on the event loop.

A position travels as data: the game, its options (complete, so a map left to chance names its
seed) and the moves from the start, so a link holds it
(``/analysis?game_id=stack-a-cash&moves=place L b2;flip b2``); ``/analysis?game=ID&ply=N``
opens a finished game of the server at any ply.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from pocketarena import i18n
from pocketarena.core import RecordError
from pocketarena.i18n import _
from pocketarena.messages import speak_error
from pocketarena.records import loads
from pocketarena.study import MAX_MOVES, PositionError, evaluate, load_position, position_report

from ... import catalog
from ...analyses import Busy, GameAnalyses, StudySlots
from ...live.games import LiveGame
from ...live.session import GameError
from ...schemas import ErrorOut
from ..deps import AnalysisLimit, ContextDep, HubDep, WriteLimit, limit_analysis
from .pages import page
from .records import read_limited

router = APIRouter(tags=["analysis"])

EVALUATE_SECONDS = 1.0  # the bot's search for the position (the line gets a quarter per move)
EVALUATE_LIMIT_S = 20.0  # past this the evaluation is given up (the worker finishes alone)
SLOT_WAIT_S = 5.0  # how long an evaluation waits for a free study slot before "busy"
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 404, 409, 413, 429, 503)
}


class PositionIn(BaseModel):
    game_id: str = Field(max_length=40, description="The game, e.g. stack-a-cash")
    options: dict[str, Any] = Field(default_factory=dict, description="The game's options")
    moves: list[str] = Field(
        default_factory=list, max_length=MAX_MOVES, description="Moves from the start"
    )


def _position(body: PositionIn) -> Any:
    if body.game_id not in catalog.game_ids():
        raise HTTPException(status_code=400, detail=_("there is no game %(id)r", id=body.game_id))
    if any(len(m) > 80 for m in body.moves):
        raise HTTPException(status_code=400, detail=_("a move is at most 80 characters"))
    try:
        return load_position(body.game_id, body.options, body.moves)
    except PositionError as e:
        raise HTTPException(status_code=400, detail=str(e)) from None


def _report(body: PositionIn) -> dict[str, Any]:
    state = _position(body)
    out = position_report(state)
    out["svg"] = catalog.svg_board(state, last=state.history[-1] if state.history else None)
    out["options_text"] = catalog.options_text(state.game.ID, out["options"])
    return out


@router.post("/api/analysis/position", responses=ERRORS, dependencies=[WriteLimit])
async def analysis_position(body: PositionIn) -> dict[str, Any]:
    """The position the moves reach: its board (SVG), whose turn, legal moves or throws."""
    return await run_in_threadpool(_report, body)


def _slots(request: Request, ctx: ContextDep) -> StudySlots:
    """This process's study slots: all bot workers but one (free for the bots of live games),
    and a bounded line of evaluations waiting for them."""
    slots: StudySlots | None = getattr(request.app.state, "study_slots", None)
    if slots is None:
        slots = StudySlots(max(1, ctx.settings.bot_workers - 1), ctx.settings.analysis_queue)
        request.app.state.study_slots = slots
    return slots


def busy(e: Busy) -> HTTPException:
    return HTTPException(
        status_code=503, detail=e.message, headers={"Retry-After": str(e.retry_after)}
    )


@router.post("/api/analysis/evaluate", responses=ERRORS, dependencies=[WriteLimit])
async def analysis_evaluate(body: PositionIn, request: Request, ctx: ContextDep) -> dict[str, Any]:
    """The engine's evaluation: exact (Stack-a-Cash, FlipWars endgames) with every move's
    value, else the strongest bot's expected score, best moves and expected line. Limited per
    player and per address (429), and refused at once (503 with Retry-After) while the
    analysis workers have a full line."""
    state = await run_in_threadpool(_position, body)
    options = dict(state.game.options)
    slots = _slots(request, ctx)
    try:
        slots.check_room(EVALUATE_SECONDS)  # a full line costs the asker no budget
        await limit_analysis(request, ctx)
        async with slots.evaluation(SLOT_WAIT_S, EVALUATE_SECONDS):
            result: dict[str, Any] = await ctx.bots.call(
                evaluate,
                state.game.ID,
                options,
                [a.text for a in state.history],
                EVALUATE_SECONDS,
                i18n.current(),  # the worker words the evaluation in the reader's language
                timeout_s=EVALUATE_LIMIT_S,
            )
    except Busy as e:
        raise busy(e) from None
    except TimeoutError:
        raise HTTPException(
            status_code=503,
            detail=_("the evaluation took too long; try again"),
            headers={"Retry-After": str(round(EVALUATE_LIMIT_S))},
        ) from None
    return result


@router.post(
    "/api/analysis/record",
    responses=ERRORS,
    dependencies=[WriteLimit],
    openapi_extra={"requestBody": {"content": {"text/plain": {}, "application/json": {}}}},
)
async def analysis_record(request: Request) -> dict[str, Any]:
    """A record (JSON or text form, as the body) as a position: its game, options and moves."""
    text = await read_limited(request)

    def read() -> dict[str, Any]:
        try:
            record = loads(text)
            record.replay()
            game = record.load_game()
        except (RecordError, ValueError) as e:
            raise HTTPException(
                status_code=400,
                detail=_("this is not a readable record: %(why)s", why=speak_error(e)),
            ) from None
        return {"game_id": game.ID, "options": dict(game.options), "moves": list(record.moves)}

    return await run_in_threadpool(read)


def _start(query: dict[str, str]) -> tuple[dict[str, Any] | None, str | None]:
    """The position a set-up link names (game_id, options as JSON, moves split by ';')."""
    game_id = query.get("game_id")
    if not game_id:
        return None, None
    try:
        options = json.loads(query.get("options") or "{}")
    except ValueError:
        return None, _("the options in this link are not JSON")
    if not isinstance(options, dict):
        return None, _("the options in this link must be a JSON object")
    moves = [m.strip() for m in query.get("moves", "").split(";") if m.strip()]
    return {"game_id": game_id, "options": options, "moves": moves}, None


@router.get("/analysis", response_class=HTMLResponse, include_in_schema=False)
async def analysis_page(request: Request, ctx: ContextDep, hub: HubDep) -> HTMLResponse:
    query = dict(request.query_params)
    start, error = _start(query)
    game_ref = query.get("game")
    if game_ref and start is None and error is None:
        try:
            live = await hub.get(game_ref)
        except GameError as e:
            live, error = None, e.message
        if live is not None and live.status not in ("finished", "aborted"):
            error = _("a game is analysed once it is over")
        elif live is not None:
            moves = [a.text for a in live.state.history]
            try:
                ply = max(0, min(len(moves), int(query.get("ply", len(moves)))))
            except ValueError:
                ply = len(moves)
            start = {
                "game_id": live.game.ID,
                "options": dict(live.game.options),
                "moves": moves[:ply],
                "from_game": live.id,
            }
    if start is None:
        start = {"game_id": "stack-a-cash", "options": {}, "moves": []}
    games = [catalog.game_info(g) for g in catalog.game_ids()]
    return await page(
        request,
        ctx,
        "analysis.html",
        {"start": start, "error": error, "catalog": games},
        title=_("Analysis board"),
    )


# -- analyses of finished games (the replay page) ----------------------------------------------
Depth = Query(1, ge=1, le=2, description="1 quick, 2 deep (the hard bot's own thinking time)")


def _analyses(request: Request, ctx: ContextDep) -> GameAnalyses:
    found: GameAnalyses | None = getattr(request.app.state, "game_analyses", None)
    if found is None:
        found = GameAnalyses(ctx.store, ctx.bots, _slots(request, ctx))
        request.app.state.game_analyses = found
    return found


async def _finished(hub: HubDep, game_id: str) -> LiveGame:
    live = await hub.get(game_id)
    if live.status != "finished":
        raise HTTPException(status_code=409, detail=_("a game is analysed once it is finished"))
    return live


@router.get("/api/games/{game_id}/analysis", responses=ERRORS)
async def game_analysis(
    game_id: str, request: Request, ctx: ContextDep, hub: HubDep, depth: int = Depth
) -> dict[str, Any]:
    """The game's analysis at this depth: ``done`` with every decision judged, ``queued`` or
    ``running`` (with ``done`` of ``total`` decisions), ``failed`` (why), or ``none`` yet."""
    live = await _finished(hub, game_id)
    return await _analyses(request, ctx).status(live, depth)


@router.post(
    "/api/games/{game_id}/analysis", responses=ERRORS, dependencies=[WriteLimit, AnalysisLimit]
)
async def start_game_analysis(
    game_id: str, request: Request, ctx: ContextDep, hub: HubDep, depth: int = Depth
) -> dict[str, Any]:
    """Analyse the finished game in the bot workers (once per depth; later asks get the stored
    analysis). Poll ``GET`` for progress. Limited per player and per address (429); refused
    (503 with Retry-After) while the line of games waiting for analysis is full."""
    live = await _finished(hub, game_id)
    try:
        return await _analyses(request, ctx).start(live, depth)
    except Busy as e:
        raise busy(e) from None
