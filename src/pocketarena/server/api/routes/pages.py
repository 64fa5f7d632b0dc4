"""The HTML pages (Jinja2). Each page embeds its data as JSON; /static/app.js brings it alive."""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, HTTPException, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from pocketarena import i18n
from pocketarena.core import RecordError
from pocketarena.fair import VerifyReport, verify_record
from pocketarena.i18n import N_, _, ngettext
from pocketarena.messages import speak
from pocketarena.records import MAX_RECORD_BYTES, TERMINATIONS, loads, termination_message
from pocketarena.rulepages import rules_page as rules_in

from ... import catalog, delivery, friends, notices, profiles, rules
from ... import store as store_module
from ...context import AppContext
from ...core.security import address_hash, default_guest_name
from ...live.session import DAYS_PER_MOVE, GameError
from ...names import guest_number, shown
from ...recording import record_of
from ..deps import (
    ContextDep,
    HubDep,
    PlayerIdDep,
    StoreDep,
    WriteLimit,
    check,
    client_addr,
    page_visitor,
)
from .games import view_for
from .players import games_json, player_json, turns_json

router = APIRouter(include_in_schema=False)

# Pages run only our own script; SVG boards carry inline style attributes.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)


# JSON inside <script> ends at the first "</script>" whatever the quoting: escape what HTML
# reads (a visitor's text, e.g. the invite in the address, must never become markup).
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def script_json(data: Any) -> str:
    return json.dumps(data).translate(_SCRIPT_SAFE)


async def page(
    request: Request,
    ctx: ContextDep,
    template: str,
    data: dict[str, Any] | None = None,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    pid = await page_visitor(request)
    player = await run_in_threadpool(ctx.store.get_player, pid) if pid else None
    name = player.name if player else default_guest_name(pid or "0000")
    me = {
        "id": pid,
        "name": name,
        "kind": player.kind if player else "guest",
        "username": player.username if player else None,
        "guest": guest_number(pid or "0000", name),  # worded by shown(me) and the scripts
    }
    # The games awaiting the visitor's move, shown in every page's header.
    turns = await run_in_threadpool(turns_json, ctx.store, pid) if pid and player else None
    challenged = 0
    bell: int | None = None  # accounts only: the bell's unread count
    if pid and player is not None and player.kind == "account":
        challenged = await run_in_threadpool(friends.incoming_count, ctx.store, pid, ctx.hub.now())
        bell = await run_in_threadpool(notices.unread, ctx.store, pid)
    with reader(request) as speech:
        response = ctx.templates.TemplateResponse(
            request,
            template,
            {
                "me": me,
                "turns": turns,
                "challenged": challenged,
                "bell": bell,
                "page_data": script_json({"me": me, "i18n": speech, **(data or {})}),
                "speech": speech,
                **context,
            },
            status_code=status_code,
        )
    response.headers["Content-Security-Policy"] = CSP
    return response


@contextlib.contextmanager
def reader(request: Request) -> Iterator[dict[str, Any]]:
    """The reader's language, time zone and theme (PreferencesMiddleware found them), current
    while a page is made, and what the page and its scripts need to know of them."""
    state = request.state
    code = getattr(state, "locale", i18n.DEFAULT)
    zone = getattr(state, "time_zone", "UTC")
    with i18n.use_locale(code), i18n.use_time_zone(zone):
        yield {
            "locale": code,
            "lang": i18n.html_lang(code),
            "dir": "rtl" if i18n.is_rtl(code) else "ltr",
            "time_zone": zone,
            "theme": getattr(state, "theme", "auto"),
            "languages": i18n.LANGUAGES,
            "version": i18n.js_catalog_bytes(code)[1],
        }


# Addresses whose errors stay JSON (programs read them); every other address is a page.
NOT_PAGES = (
    "/api",
    "/ws",
    "/static/",
    "/i18n/",
    "/rules/files/",
    "/openapi.json",
    "/docs",
    "/redoc",
)

# Worded when a page is made, in the reader's language (N_ only marks them for the catalog).
ERROR_TITLES = {
    400: N_("That did not work"),
    401: N_("Please sign in"),
    403: N_("Not allowed"),
    404: N_("Page not found"),
    405: N_("Not available here"),
    409: N_("That changed meanwhile"),
    413: N_("Too large"),
    422: N_("That address is not quite right"),
    429: N_("Slow down a little"),
    500: N_("Something went wrong on our side"),
    503: N_("Not available right now"),
}
ERROR_MESSAGES = {
    404: N_("There is nothing at this address."),
    405: N_("This address does not take that kind of request."),
    422: N_("Part of this address is not what the page expects."),
    500: N_("The page could not be made; please try again in a moment."),
}
OUTCOMES = {"win": N_("won"), "loss": N_("lost"), "draw": N_("drawn")}


def is_page(request: Request) -> bool:
    """Whether an error at this address should answer as a page (HTML) rather than JSON."""
    return not request.url.path.startswith(NOT_PAGES)


async def error_page(
    request: Request, status_code: int, message: str | None = None, headers: Any = None
) -> HTMLResponse:
    """An error as a page in the site's look. It never fails: a visitor that cannot be looked
    up (e.g. the database is the trouble) is shown as a guest."""
    with reader(request):
        context = _error_words(status_code, message)
    ctx: AppContext | None = getattr(request.app.state, "ctx", None)
    if ctx is None:  # the app is not (or no longer) running
        return HTMLResponse(f"<h1>{status_code}</h1>", status_code=status_code)
    try:
        response = await page(request, ctx, "error.html", status_code=status_code, **context)
    except Exception:
        with reader(request) as speech:
            me = {"id": "", "name": _("Guest"), "kind": "guest", "username": None}
            response = ctx.templates.TemplateResponse(
                request,
                "error.html",
                {
                    "me": me,
                    "page_data": script_json({"me": me, "i18n": speech}),
                    "speech": speech,
                    **context,
                },
                status_code=status_code,
            )
        response.headers["Content-Security-Policy"] = CSP
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _error_words(status_code: int, message: str | None) -> dict[str, Any]:
    if message and message != "Not Found":
        text = sentence(message)
    else:
        text = _(ERROR_MESSAGES.get(status_code, N_("The request could not be handled.")))
    heading = _(ERROR_TITLES.get(status_code, N_("That did not work")))
    return {"status": status_code, "heading": heading, "message": text, "title": heading}


def sentence(text: str) -> str:
    """A message shown alone: a capital first letter and a full stop (the rest untouched, so
    names keep their case)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?。！？" else text + "."


def verdict_words(report: VerifyReport) -> str:
    """The verification's verdict in the reader's language (the details of a failed check,
    which the rules engine words, follow as it says them)."""
    n = len(report.checks)
    if report.nothing is not None:
        return _("NOTHING TO VERIFY: this game throws no coins; every move is a player's choice.")
    if report.problems or report.mismatches or not (report.commitment_ok or report.seeded):
        first = report.first_wrong_message
        details = [speak(m) for m in ([first] if first is not None else []) + report.problems]
        if not report.commitment_ok and not report.seeded:
            details.append(_("the revealed seed does not match the commitment"))
        return _("NOT VERIFIED: %(details)s", details="; ".join(d for d in details if d))
    if report.seeded:
        return ngettext(
            "VERIFIED: the %(num)d throw follows from the record's seed (a seeded game: the "
            "seed was no secret, so this shows the record is whole, not that the coins were "
            "blind).",
            "VERIFIED: all %(num)d throws follow from the record's seed (a seeded game: the "
            "seed was no secret, so this shows the record is whole, not that the coins were "
            "blind).",
            n,
            num=n,
        )
    if not n:
        return _("VERIFIED: the revealed seed matches the commitment (no coins were thrown).")
    return ngettext(
        "VERIFIED: the %(num)d chance outcome follows from the committed seed.",
        "VERIFIED: all %(num)d chance outcomes follow from the committed seed.",
        n,
        num=n,
    )


def thumbnail(game_id: str) -> str:
    """The game's starting board, drawn in the reader's words."""
    return _thumbnail(game_id, i18n.current())


@functools.cache
def _thumbnail(game_id: str, lang: str) -> str:
    # Cached per language: a board's words are the reader's (one language's drawing for all
    # readers showed an Arabic reader French boards).
    with i18n.use_locale(lang):
        return catalog.svg_board(catalog.load_game(game_id, {}).new_initial_state())


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, ctx: ContextDep, hub: HubDep) -> HTMLResponse:
    games = [{**catalog.game_info(g), "thumbnail": thumbnail(g)} for g in catalog.game_ids()]
    online = await hub.presence.online_count()
    data = {"lobby": hub.lobby_view(), "online": online}
    # The tournaments running and about to start (the list page has the finished ones).
    tournaments = await ctx.tournaments.summaries(["running", "paused", "created"], limit=8)
    return await page(
        request, ctx, "home.html", data, games=games, online=online, tournaments=tournaments
    )


QUICK_BOT = "medium"  # the usual opponent of a one-click game


@router.post("/play/{game}", dependencies=[WriteLimit])
async def quick_game(
    game: str, request: Request, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> Response:
    """A home card's Play: the usual game (the medium bot, default options, a seat drawn) in
    one click; the new-game form stays for everything else."""
    if game not in catalog.game_ids():
        raise HTTPException(404, _("no such game"))
    levels = catalog.bot_levels(game)
    bot = QUICK_BOT if QUICK_BOT in levels else levels[0]
    addr = client_addr(request)
    await check(ctx, ctx.rates.address_games, addr, N_("too many new games from your address"))
    await check(ctx, ctx.rates.games, player, N_("too many new games"))
    try:
        live = await hub.seating.create(
            player,
            game,
            {},
            "bot",
            None,
            bot,
            None,
            True,
            creator_addr=address_hash(ctx.secret_key, addr),
        )
    except GameError as e:
        raise HTTPException(e.status, e.message) from e
    return RedirectResponse(f"/g/{live.id}", status_code=303)


@router.get("/new", response_class=HTMLResponse)
async def new_game(
    request: Request, ctx: ContextDep, game: str | None = None, mode: str | None = None
) -> HTMLResponse:
    games = [catalog.game_info(g) for g in catalog.game_ids()]
    chosen = game if game in catalog.game_ids() else (games[0]["id"] if games else None)
    return await page(
        request,
        ctx,
        "new.html",
        {"catalog": games, "game": chosen, "mode": mode or "bot"},
        games=games,
        days_per_move=DAYS_PER_MOVE,
    )


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def game_page(
    game_id: str,
    request: Request,
    ctx: ContextDep,
    hub: HubDep,
    player: PlayerIdDep,
    invite: str | None = None,
) -> HTMLResponse:
    try:
        live = await hub.get(game_id)
    except GameError as e:
        return await error_page(request, e.status, e.message)
    data: dict[str, Any] = {
        "game": view_for(live, player),
        "invite": invite,
        "presence": await hub.presence.of_game(live),  # per seat: online, offline or None
        "words": catalog.words_json(live.game.ID),  # the buttons' words for its notation
    }
    # A tournament's game says whose it is in its header (a link to the tournament).
    tournament = await ctx.tournaments.of_game(live.id) if live.mode == "tourney" else None
    if live.status == "waiting" and live.creator_id == player and live.invite_token:
        base = str(request.base_url).rstrip("/")
        data["invite_url"] = f"{base}/g/{live.id}?invite={live.invite_token}"
    return await page(
        request,
        ctx,
        "game.html",
        data,
        title=f"{live.game.TITLE} · {live.id}",
        live=live,
        tournament=tournament,
    )


@router.get("/g/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(
    game_id: str, request: Request, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> HTMLResponse:
    try:
        live = await hub.get(game_id)
    except GameError as e:
        return await error_page(request, e.status, e.message)
    view = view_for(live, player, svg=False)
    return await page(
        request,
        ctx,
        "replay.html",
        {"game": view},
        title=_("Replay · %(game)s", game=live.game.TITLE),
        live=live,
    )


@router.get("/g/{game_id}/verify", response_class=HTMLResponse)
async def verify_game_page(
    game_id: str, request: Request, ctx: ContextDep, hub: HubDep
) -> HTMLResponse:
    try:
        live = await hub.get(game_id)
    except GameError as e:
        return await error_page(request, e.status, e.message)
    report = verify_record(record_of(live))
    return await page(
        request,
        ctx,
        "verify.html",
        report=report,
        verdict=verdict_words(report),
        live=live,
        title=_("Verify · %(id)s", id=live.id),
    )


@router.get("/verify", response_class=HTMLResponse)
async def verify_form(request: Request, ctx: ContextDep) -> HTMLResponse:
    return await page(
        request, ctx, "verify.html", report=None, live=None, title=_("Verify a record")
    )


@router.post("/verify", response_class=HTMLResponse, dependencies=[WriteLimit])
async def verify_post(
    request: Request, ctx: ContextDep, record: str = Form(""), file: UploadFile | None = None
) -> HTMLResponse:
    text = record
    if file is not None and file.filename:
        raw = await file.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            return await page(
                request,
                ctx,
                "verify.html",
                status_code=413,
                report=None,
                live=None,
                error=_("A record is limited to 1 MB."),
                title=_("Verify a record"),
            )
        text = raw.decode("utf-8", errors="replace")
    try:
        report = verify_record(loads(text))
    except RecordError as e:
        return await page(
            request,
            ctx,
            "verify.html",
            status_code=400,
            report=None,
            live=None,
            error=_("This is not a readable record: %(reason)s", reason=speak(e.message)),
            title=_("Verify a record"),
            text=text,
        )
    return await page(
        request,
        ctx,
        "verify.html",
        report=report,
        verdict=verdict_words(report),
        live=None,
        title=_("Verify a record"),
    )


@router.get("/lobby", response_class=HTMLResponse)
async def lobby_page(request: Request, ctx: ContextDep, hub: HubDep) -> HTMLResponse:
    online = await hub.presence.online_count()
    data = {"lobby": hub.lobby_view(), "online": online}
    return await page(request, ctx, "lobby.html", data, title=_("Lobby"), online=online)


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request, ctx: ContextDep) -> HTMLResponse:
    games = [catalog.game_info(g) for g in catalog.game_ids()]
    return await page(request, ctx, "rules_index.html", games=games, title=_("Rules"))


@router.get("/rules/files/{name:path}")
def rules_file(name: str) -> Response:
    found = rules.asset(name)
    if found is None:
        raise HTTPException(status_code=404, detail=_("no rules image %(name)r", name=name))
    body, media = found
    return Response(body, media_type=media, headers={"Cache-Control": "public, max-age=3600"})


def diagrams(game_id: str) -> list[dict[str, str]]:
    """The starting board of every variant (each distinct picture once): maps, modes, drawn
    and labelled in the reader's words."""
    return _diagrams(game_id, i18n.current())


@functools.cache
def _diagrams(game_id: str, lang: str) -> list[dict[str, str]]:
    seen: set[str] = set()
    out = []
    with i18n.use_locale(lang):  # cached per language, as _thumbnail
        for options in catalog.game_class(game_id).VARIANTS:
            svg = catalog.svg_board(catalog.load_game(game_id, options).new_initial_state())
            if svg in seen:
                continue
            seen.add(svg)
            label = catalog.options_text(game_id, dict(options)) or _("as printed")
            out.append({"label": label, "svg": svg})
    return out


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(game: str, request: Request, ctx: ContextDep) -> HTMLResponse:
    found = rules_in(game) if game in catalog.game_ids() else None
    if found is None:
        return await error_page(request, 404, _("There are no rules for %(game)r.", game=game))
    info = catalog.game_info(game)
    heading, body = rules.title_and_body(found.text)
    return await page(
        request,
        ctx,
        "rules.html",
        info=info,
        heading=heading or info["title"],
        html=rules.render(body, found.folder),
        # The language the text is written in: the reader's, or English where it has no
        # translation yet (then marked so: screen readers read it as English).
        text_lang=i18n.html_lang(found.lang),
        text_dir="rtl" if i18n.is_rtl(found.lang) else "ltr",
        diagrams=diagrams(game),
        title=_("Rules · %(game)s", game=info["title"]),
    )


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(
    player_id: str,
    request: Request,
    ctx: ContextDep,
    store: StoreDep,
    hub: HubDep,
    game: str = "",
    result: str = "",
    opponent: str = "",
    page_number: Annotated[str, Query(alias="page")] = "1",
) -> HTMLResponse:
    if player_id == getattr(request.state, "player_id", None):
        await run_in_threadpool(store.ensure_guest, player_id)  # your own page, even before a game
    data = (
        await run_in_threadpool(player_json, store, player_id, 0) if len(player_id) <= 32 else None
    )
    if data is None:
        return await error_page(request, 404, _("There is no such player."))
    if not page_number.isdigit() or not 1 <= int(page_number) <= 100_000 or len(opponent) > 40:
        return await error_page(request, 400, _("That page of games does not exist."))
    try:
        listing = await run_in_threadpool(
            games_json, store, player_id, game, result, opponent, int(page_number)
        )
    except HTTPException as e:
        return await error_page(request, 400, str(e.detail))
    assert listing is not None
    data["games"] = listing["games"]
    titles = {g: catalog.game_class(g).TITLE for g in catalog.game_ids()}
    history = await run_in_threadpool(profiles.rating_history, store, player_id)
    filters = {"game": game, "result": result, "opponent": opponent.strip()}
    pager = {
        "page": listing["page"],
        "pages": listing["pages"],
        "total": listing["total"],
        "newer": _page_link(player_id, filters, listing["page"] - 1)
        if listing["page"] > 1
        else None,
        "older": (
            _page_link(player_id, filters, listing["page"] + 1)
            if listing["page"] < listing["pages"]
            else None
        ),
    }
    for g in data["games"]:  # when, in the reader's zone and words ("3 minutes ago")
        when = datetime.fromisoformat(g["created_at"])
        g["created_full"] = i18n.format_datetime(when, "medium")
        g["created_ago"] = i18n.format_ago(when)
    # presence: a bot is always there; a person is online while a page of theirs is open
    online = None if data["kind"] == "bot" else bool(await hub.presence.online([player_id]))
    visitor = getattr(request.state, "player_id", None)
    me = await run_in_threadpool(store.get_player, visitor) if visitor else None
    # Friends and challenges, between accounts: the buttons on another's page, the lists on
    # your own.
    social = me is not None and me.kind == "account" and data["kind"] == "account"
    relation = None
    if social and me is not None and me.id != player_id:
        relation = await run_in_threadpool(friends.relation, store, me.id, player_id)
    return await page(
        request,
        ctx,
        "player.html",
        {"player": data},
        player=data,
        online=online,
        titles=titles,
        title=shown(data),
        social=social,
        relation=relation,
        days_per_move=DAYS_PER_MOVE,
        outcome_words={k: _(v) for k, v in OUTCOMES.items()},
        termination_words={t: speak(termination_message(t)) for t in TERMINATIONS},
        graph=Markup(profiles.rating_svg(history, titles)),
        legend=profiles.legend(history, titles),
        filters=filters,
        filtered=any(filters.values()),
        pager=pager,
    )


def _page_link(player_id: str, filters: dict[str, str], page_number: int) -> str:
    query = urlencode({**{k: v for k, v in filters.items() if v}, "page": page_number})
    return f"/players/{player_id}?{query}"


@router.get("/me")
async def me_page(player: PlayerIdDep) -> RedirectResponse:
    return RedirectResponse(f"/players/{player}", status_code=303)


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, ctx: ContextDep) -> HTMLResponse:
    visitor = getattr(request.state, "player_id", None)
    me = await run_in_threadpool(ctx.store.get_player, visitor) if visitor else None
    switches = None
    if me is not None and me.kind == "account":
        browsers = await run_in_threadpool(delivery.subscriptions, ctx.store, me.id)
        key = ctx.pusher.public_key if ctx.pusher is not None else None
        switches = delivery.switches(me, browsers, ctx.mailer is not None, key)
    return await page(
        request,
        ctx,
        "account.html",
        {"notices": switches},
        title=_("Account"),
        password_min=store_module.PASSWORD_MIN,
        notices=switches,
        channel_words={"site": _("On the site"), "email": _("Email"), "push": _("Push")},
    )
