"""A reader's choices: language, time zone, theme. Each is kept in a cookie of its own (read by
``core.middleware.PreferencesMiddleware`` on every request) and, for an account, in the account,
so that signing in on another browser brings them along (``apply_account``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from anyio import to_thread
from fastapi import APIRouter, Form, HTTPException, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, Field

from pocketarena import i18n
from pocketarena.i18n import _

from ...core.middleware import LANGUAGE_COOKIE, THEME_COOKIE, THEMES, TIME_ZONE_COOKIE
from ...models import Player
from ...schemas import ErrorOut
from ...store import StoreError
from ..deps import ContextDep, WriteLimit

router = APIRouter(tags=["players"])
COOKIE_AGE_S = 400 * 86400  # the longest browsers keep a cookie


class PreferencesIn(BaseModel):
    language: str | None = Field(None, max_length=16, description="One of /api/languages' codes")
    time_zone: str | None = Field(None, max_length=64, description="IANA, e.g. Europe/Paris")
    theme: str | None = Field(None, max_length=8, description="auto, light or dark")


class PreferencesOut(BaseModel):
    language: str
    time_zone: str
    theme: str


def checked(language: str | None, time_zone: str | None, theme: str | None) -> dict[str, str]:
    """The choices given, each checked (StoreError, in words, for any that is not valid)."""
    chosen: dict[str, str] = {}
    if language is not None:
        if language not in i18n.LANGUAGES:
            raise StoreError(_("unknown language %(code)r", code=language))
        chosen["language"] = language
    if time_zone is not None:
        zone = i18n.valid_time_zone(time_zone)
        if zone is None:
            raise StoreError(_("unknown time zone %(zone)r", zone=time_zone))
        chosen["time_zone"] = zone
    if theme is not None:
        if theme not in THEMES:
            raise StoreError(_("the theme is auto, light or dark"))
        chosen["theme"] = theme
    return chosen


def set_cookies(request: Request, response: Response, chosen: dict[str, str]) -> None:
    secure = request.app.state.ctx.settings.secure_cookies
    names = {"language": LANGUAGE_COOKIE, "time_zone": TIME_ZONE_COOKIE, "theme": THEME_COOKIE}
    for key, value in chosen.items():
        response.set_cookie(
            names[key], value, max_age=COOKIE_AGE_S, samesite="lax", secure=secure, path="/"
        )


async def keep(request: Request, ctx: ContextDep, chosen: dict[str, str]) -> None:
    pid = getattr(request.state, "player_id", None)
    if pid and chosen:
        await to_thread.run_sync(lambda: ctx.store.set_preferences(str(pid), **chosen))


def apply_account(request: Request, response: Response, player: Player) -> None:
    """After signing in: the account's choices become this browser's."""
    chosen = {
        key: value
        for key, value in (
            ("language", player.language),
            ("time_zone", player.time_zone),
            ("theme", player.theme),
        )
        if value
    }
    set_cookies(request, response, chosen)


@router.get("/i18n/{code}.json", include_in_schema=False)
async def script_catalog(code: str) -> Response:
    """The site's words in language ``code`` for the page's scripts (static/i18n.js): every
    translated message and which plural form each CLDR category takes."""
    if not i18n.known(code):
        raise HTTPException(status_code=404, detail=_("unknown language %(code)r", code=code))
    body, version = i18n.js_catalog_bytes(code)
    return Response(
        body,
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=86400", "ETag": f'"{version}"'},
    )


@router.get("/api/languages", summary="The languages the site speaks")
async def languages() -> dict[str, Any]:
    """Codes and each language's name in itself, and which are written right to left."""
    return {
        "languages": [
            {"code": code, "name": name, "rtl": i18n.is_rtl(code)}
            for code, name in i18n.LANGUAGES.items()
        ],
        "default": i18n.DEFAULT,
    }


@router.post(
    "/api/settings",
    response_model=PreferencesOut,
    responses={400: {"model": ErrorOut}},
    dependencies=[WriteLimit],
    summary="Choose the language, time zone or theme",
)
async def choose(
    body: PreferencesIn, request: Request, response: Response, ctx: ContextDep
) -> dict[str, str]:
    """Keeps the choices given in this browser's cookies and, signed in, in the account."""
    chosen = checked(body.language, body.time_zone, body.theme)
    await keep(request, ctx, chosen)
    set_cookies(request, response, chosen)
    state = request.state
    return {
        "language": chosen.get("language", getattr(state, "locale", i18n.DEFAULT)),
        "time_zone": chosen.get("time_zone", getattr(state, "time_zone", "UTC")),
        "theme": chosen.get("theme", getattr(state, "theme", "auto")),
    }


@router.post("/settings", include_in_schema=False, dependencies=[WriteLimit])
async def choose_form(
    request: Request,
    ctx: ContextDep,
    language: str | None = Form(None, max_length=16),
    theme: str | None = Form(None, max_length=8),
    next: str = Form("/", max_length=2000),
) -> RedirectResponse:
    """The footer's form (works without the page's script): back to the page it was sent
    from, now in the chosen language and theme."""
    chosen = checked(language or None, None, theme or None)
    await keep(request, ctx, chosen)
    target = next if _same_site_path(next) else "/"
    response = RedirectResponse(target, status_code=303)
    set_cookies(request, response, chosen)
    return response


def _same_site_path(target: str) -> bool:
    """Only a path of this site: "/g/abc?x=1", never "//evil.example" nor "https://…"."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc
