"""Puzzles: positions with one winning move, from the shipped set (made by the solvers), each
answer judged again by the solver; a streak and a puzzle rating per player, guests included."""

from __future__ import annotations

import random
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from pocketarena import puzzles
from pocketarena.explore import ExplorerError
from pocketarena.i18n import _
from pocketarena.messages import speak

from ... import blunder_puzzles, catalog
from ... import puzzle_ratings as ratings
from ...context import AppContext
from ...schemas import ErrorOut
from ..deps import ContextDep, PlayerIdDep, WriteLimit
from .pages import page

router = APIRouter(tags=["puzzles"])

ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 404, 429)}
_rng = random.SystemRandom()


class AnswerIn(BaseModel):
    move: str = Field(max_length=80, description="The move, in notation (e.g. place M a1)")


async def _puzzle(ctx: AppContext, puzzle_id: str) -> puzzles.Puzzle:
    """The shipped puzzle, or the stored blunder puzzle, of that id (else 404)."""
    found = await run_in_threadpool(blunder_puzzles.find, ctx.store, puzzle_id)
    if found is None:
        raise HTTPException(status_code=404, detail=_("there is no puzzle %(id)r", id=puzzle_id))
    return found


def _view(puzzle: puzzles.Puzzle) -> dict[str, Any]:
    """What the page shows of a puzzle (never its answer)."""
    state = puzzles.position(puzzle)
    last = state.history[-1] if state.history else None
    return {
        "id": puzzle.id,
        "game_id": puzzle.game_id,
        "title": state.game.TITLE,
        "options": dict(puzzle.options),
        "moves": list(puzzle.moves),
        "goal": speak(puzzle.goal()),
        "rating": puzzle.rating,
        "source": puzzle.source,  # where a blunder puzzle came from; None for the shipped set
        "to_move": state.current_player,
        "seat": state.game.SEATS[state.current_player],
        "legal": [a.text for a in state.legal_actions()],
        "svg": catalog.svg_board(state, last=last),
    }


def _judge(puzzle: puzzles.Puzzle, move: str) -> dict[str, Any]:
    try:
        judgement = puzzles.check(puzzle, move)
    except (puzzles.PuzzleError, ExplorerError) as e:
        why = speak(e.said)
        raise HTTPException(
            status_code=400, detail=_("%(move)r cannot be played here: %(why)s", move=move, why=why)
        ) from None
    state = puzzles.position(puzzle)
    state.apply(judgement.move)
    if judgement.reply is not None:
        state.apply(judgement.reply)
    out = judgement.to_json()
    out["svg"] = catalog.svg_board(state, last=state.history[-1])
    return out


GameQuery = Query(None, description="Only puzzles of this game")


@router.get("/api/puzzles/next", responses=ERRORS, dependencies=[WriteLimit])
async def next_puzzle(
    ctx: ContextDep,
    player: PlayerIdDep,
    game: Literal["stack-a-cash", "flipwars"] | None = GameQuery,
    after: str | None = Query(None, max_length=40, description="The puzzle just played"),
) -> dict[str, Any]:
    """A puzzle near the player's puzzle rating (the one a next answer rates), and their
    standing."""
    puzzle, standing = await run_in_threadpool(ratings.choose, ctx.store, player, game, after, _rng)
    view = await run_in_threadpool(_view, puzzle)
    return {"puzzle": view, "me": standing.to_json()}


@router.get("/api/puzzles/{puzzle_id}", responses=ERRORS)
async def get_puzzle(puzzle_id: str, ctx: ContextDep) -> dict[str, Any]:
    """One puzzle by its id (to share it); answering it is judged, rated only if it was the
    puzzle handed out."""
    return await run_in_threadpool(_view, await _puzzle(ctx, puzzle_id))


@router.post("/api/puzzles/{puzzle_id}/answer", responses=ERRORS, dependencies=[WriteLimit])
async def answer_puzzle(
    puzzle_id: str, body: AnswerIn, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Judge a move by the solver: ``correct``, the words, the solver's reply and the board
    after it, the answer; the player's new standing (``change`` is null when not rated)."""
    puzzle = await _puzzle(ctx, puzzle_id)
    out = await run_in_threadpool(_judge, puzzle, body.move)
    standing, change = await run_in_threadpool(
        ratings.record, ctx.store, player, puzzle, bool(out["correct"])
    )
    return {**out, "me": standing.to_json(), "change": change}


@router.get("/puzzles", response_class=HTMLResponse, include_in_schema=False)
async def puzzles_page(request: Request, ctx: ContextDep) -> HTMLResponse:
    game = request.query_params.get("game")
    data = {"game": game if game in ratings.GAMES else None}
    return await page(
        request,
        ctx,
        "puzzles.html",
        data,
        title=_("Puzzles"),
        provisional_puzzles=ratings.PROVISIONAL_PUZZLES,
    )
