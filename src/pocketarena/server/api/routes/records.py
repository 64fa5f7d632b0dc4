"""Records and fairness: download a game's record, verify its chance outcomes."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response

from pocketarena.core import RecordError
from pocketarena.fair import VerifyReport, verify_record
from pocketarena.i18n import _
from pocketarena.messages import speak
from pocketarena.records import MAX_RECORD_BYTES, loads

from ...recording import record_of
from ...schemas import ErrorOut, VerifyOut
from ..deps import HubDep, WriteLimit

router = APIRouter(tags=["records"])


@router.get(
    "/api/games/{game_id}/record",
    response_class=Response,
    responses={
        200: {"content": {"application/json": {}, "text/plain": {}}},
        404: {"model": ErrorOut},
    },
    summary="The game's record, as JSON or the text form (the seed once the game is over)",
)
async def get_record(
    game_id: str,
    hub: HubDep,
    format: Literal["json", "text"] = Query("json"),
    download: bool = False,
) -> Response:
    live = await hub.get(game_id)
    record = record_of(live)
    if format == "json":
        body, media, ext = record.dumps_json(), "application/json", "json"
    else:
        body, media, ext = record.to_text(), "text/plain; charset=utf-8", "txt"
    headers = (
        {"Content-Disposition": f'attachment; filename="{live.game.ID}-{live.id}.{ext}"'}
        if download
        else {}
    )
    return Response(body, media_type=media, headers=headers)


@router.get(
    "/api/games/{game_id}/verify",
    response_model=VerifyOut,
    responses={404: {"model": ErrorOut}},
    summary="Recompute every chance outcome from the revealed seed",
)
async def verify_game(game_id: str, hub: HubDep) -> dict[str, Any]:
    live = await hub.get(game_id)
    return verify_record(record_of(live)).to_json()


@router.post(
    "/api/verify",
    response_model=VerifyOut,
    responses={400: {"model": ErrorOut}},
    dependencies=[WriteLimit],
    summary="Verify any record (JSON or text form) sent as the request body",
    openapi_extra={
        "requestBody": {"content": {"text/plain": {}, "application/json": {}}, "required": True}
    },
)
async def verify_upload(request: Request) -> dict[str, Any]:
    body = await read_limited(request)
    report: dict[str, Any] = verify_text(body).to_json()
    return report


async def read_limited(request: Request) -> str:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_RECORD_BYTES:
            raise HTTPException(status_code=413, detail=_("a record is limited to 1 MB"))
        chunks.append(chunk)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(status_code=400, detail=_("a record must be UTF-8 text")) from None


def verify_text(text: str) -> VerifyReport:
    try:
        return verify_record(loads(text))
    except RecordError as e:
        raise HTTPException(
            status_code=400,
            detail=_("this is not a readable record: %(why)s", why=speak(e.message)),
        ) from None
