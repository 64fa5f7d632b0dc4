"""Learn to play: a lesson per game at ``/learn/<game>``, steps on set positions where the
player makes the move that shows a rule; the engine plays every position and judges every
move (a move it cannot play is refused in its own words)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from pocketarena import lessons, study
from pocketarena.core import State
from pocketarena.i18n import _
from pocketarena.messages import speak

from ... import catalog
from ...schemas import ErrorOut
from ..deps import ContextDep, WriteLimit
from .pages import page

router = APIRouter(tags=["lessons"])

ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 404, 429)}


class MoveIn(BaseModel):
    move: str = Field(max_length=80, description="The move, in notation")


def _steps(game_id: str) -> list[lessons.Step]:
    found = lessons.LESSONS.get(game_id)
    if found is None:
        raise HTTPException(status_code=404, detail=_("there is no lesson for %(id)r", id=game_id))
    return found


def _step(game_id: str, index: int) -> lessons.Step:
    steps = _steps(game_id)
    if not 0 <= index < len(steps):
        raise HTTPException(
            status_code=404,
            detail=_("the %(id)s lesson has steps 0 to %(last)s", id=game_id, last=len(steps) - 1),
        )
    return steps[index]


def _status(state: State) -> str:
    """Whose turn it is, or how the game ended, in the reader's language."""
    return study.result_text(state) if state.is_terminal() else study.to_move_text(state)


def _lesson(game_id: str) -> dict[str, Any]:
    out = []
    for n, step in enumerate(_steps(game_id)):
        state = lessons.position(game_id, step)
        last = state.history[-1] if state.history else None
        out.append(
            {
                "index": n,
                "title": speak(step.title),
                "text": speak(step.text),
                "status": _status(state),
                "legal": [a.text for a in state.legal_actions()],
                "svg": catalog.svg_board(state, last=last),
            }
        )
    return {"game_id": game_id, "title": catalog.game_info(game_id)["title"], "steps": out}


def _judge(game_id: str, index: int, move: str) -> dict[str, Any]:
    step = _step(game_id, index)
    try:
        result = lessons.check(step, move, game_id)
    except lessons.LessonError as e:
        raise HTTPException(
            status_code=400,
            detail=_("%(move)r cannot be played: %(why)s", move=move, why=speak(e.said)),
        ) from None
    return {
        "correct": result.correct,
        "move": result.move,
        "message": speak(result.message),
        "status": _status(result.after),
        "svg": catalog.svg_board(result.after, last=result.after.history[-1]),
    }


@router.get("/api/lessons/{game_id}", responses=ERRORS)
async def lesson(game_id: str) -> dict[str, Any]:
    """The game's lesson: each step's rule and task, its board and legal moves."""
    return await run_in_threadpool(_lesson, game_id)


@router.post("/api/lessons/{game_id}/{index}", responses=ERRORS, dependencies=[WriteLimit])
async def lesson_move(game_id: str, index: int, body: MoveIn) -> dict[str, Any]:
    """Play a move in a step: ``correct``, the words, and the board after it."""
    return await run_in_threadpool(_judge, game_id, index, body.move)


@router.get("/learn", response_class=HTMLResponse, include_in_schema=False)
@router.get("/learn/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def learn_page(request: Request, ctx: ContextDep, game_id: str | None = None) -> HTMLResponse:
    games = [
        {"id": g, "title": catalog.game_info(g)["title"], "steps": len(lessons.LESSONS[g])}
        for g in catalog.game_ids()
        if g in lessons.LESSONS
    ]
    if game_id is not None and game_id not in lessons.LESSONS:
        message = _("There is no lesson for %(game)r.", game=game_id)
        return await page(request, ctx, "error.html", status_code=404, message=message)
    title = (
        _("Learn to play")
        if game_id is None
        else _("Learn %(game)s", game=catalog.game_info(game_id)["title"])
    )
    return await page(
        request,
        ctx,
        "learn.html",
        {"game": game_id, "games": games},
        title=title,
        games=games,
        game=game_id,
    )
