"""A player's profile: their games filtered (game, result, opponent) a page at a time, and
their rating over time per game, drawn as an SVG on the server (with its words as a text
alternative), so the page needs no script to show it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape

from sqlalchemy import Select, and_, func, or_, select

from pocketarena import i18n
from pocketarena.i18n import _, ngettext

from .models import GameRecord, Player
from .store import Store, aware

PAGE_SIZE = 20
RESULTS = ("win", "loss", "draw")
MAX_POINTS = 400  # the newest rated games a graph draws per game


@dataclass(frozen=True)
class GameFilter:
    """What the game list shows: one game, one result, one opponent (a name or username);
    None: any."""

    game: str | None = None
    result: str | None = None
    opponent: str | None = None


def _filtered(player_id: str, f: GameFilter, opponents: list[str] | None) -> Select[Any]:
    seat0 = GameRecord.seat0_id == player_id
    seat1 = GameRecord.seat1_id == player_id
    query = select(GameRecord).where(
        or_(seat0, seat1), GameRecord.status.in_(["active", "finished"])
    )
    if f.game:
        query = query.where(GameRecord.game == f.game)
    if f.result:
        finished = GameRecord.status == "finished"
        if f.result == "draw":
            query = query.where(finished, GameRecord.winner.is_(None))
        else:
            mine = or_(and_(seat0, GameRecord.winner == 0), and_(seat1, GameRecord.winner == 1))
            won = and_(finished, GameRecord.winner.is_not(None), mine)
            lost = and_(finished, GameRecord.winner.is_not(None), ~mine)
            query = query.where(won if f.result == "win" else lost)
    if opponents is not None:
        query = query.where(
            or_(
                and_(seat0, GameRecord.seat1_id.in_(opponents)),
                and_(seat1, GameRecord.seat0_id.in_(opponents)),
            )
        )
    return query


def games_page(
    store: Store, player_id: str, f: GameFilter, page: int
) -> tuple[int, list[GameRecord]]:
    """How many games match, and those of page ``page`` (from 1), newest first."""
    with store.single() as s:
        opponents = None
        if f.opponent:
            name = f.opponent.strip().lower()
            opponents = list(
                s.scalars(
                    select(Player.id).where(
                        or_(Player.username == name, func.lower(Player.name) == name)
                    )
                )
            )
        query = _filtered(player_id, f, opponents)
        total = s.scalar(select(func.count()).select_from(query.subquery())) or 0
        rows = list(
            s.scalars(
                query.order_by(GameRecord.created_at.desc(), GameRecord.id)
                .limit(PAGE_SIZE)
                .offset((page - 1) * PAGE_SIZE)
            )
        )
    return total, rows


def rating_history(store: Store, player_id: str) -> dict[str, list[tuple[datetime, int]]]:
    """Per game, the player's rating after each rated game, oldest first."""
    with store.single() as s:
        rows = s.execute(
            select(GameRecord.game, GameRecord.finished_at, GameRecord.rating_changes)
            .where(
                or_(GameRecord.seat0_id == player_id, GameRecord.seat1_id == player_id),
                GameRecord.status == "finished",
                GameRecord.rated,
                GameRecord.finished_at.is_not(None),
            )
            .order_by(GameRecord.finished_at.desc())
            .limit(MAX_POINTS * 4)
        ).all()
    series: dict[str, list[tuple[datetime, int]]] = {}
    for game, when, changes in reversed(rows):
        for c in changes or []:
            if isinstance(c, dict) and c.get("player") == player_id and "after" in c:
                series.setdefault(game, []).append((aware(when), int(c["after"])))
    return {g: points[-MAX_POINTS:] for g, points in sorted(series.items())}


# -- the graph ----------------------------------------------------------------------------------
WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 56, 12, 12, 32
COLORS = ("#2f6fd6", "#c2410c", "#15803d", "#9333ea")  # a line per game, also dashed apart
DASHES = ("", "6 3", "2 3", "8 3 2 3")


def summary(title: str, points: list[tuple[datetime, int]]) -> str:
    """One game's line in words (the graph's text alternative)."""
    values = [v for _, v in points]
    return ngettext(
        "%(game)s: %(first)d to %(last)d over %(num)d rated game (lowest %(low)d, highest %(high)d).",
        "%(game)s: %(first)d to %(last)d over %(num)d rated games (lowest %(low)d, highest %(high)d).",
        len(values),
        num=len(values),
        game=title,
        first=values[0],
        last=values[-1],
        low=min(values),
        high=max(values),
    )


def rating_svg(series: dict[str, list[tuple[datetime, int]]], titles: dict[str, str]) -> str:
    """The rating of each game over time, as an inline SVG (time runs along, rating up); its
    <title> and <desc> say the same in words. Left to right whatever the page's direction."""
    if not series:
        return ""
    moments = [when.timestamp() for pts in series.values() for when, _ in pts]
    values = [v for pts in series.values() for _, v in pts]
    t0, t1 = min(moments), max(moments)
    low, high = min(values), max(values)
    pad = max(10, (high - low) // 10)
    low, high = low - pad, high + pad
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(t: float) -> float:
        return LEFT + (plot_w * (t - t0) / (t1 - t0) if t1 > t0 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    words = " ".join(summary(titles.get(g, g), pts) for g, pts in series.items())
    parts = [
        f'<svg class="rating-graph" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-labelledby="rating-graph-title rating-graph-desc" dir="ltr" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="rating-graph-title">{escape(_("Rating over time"))}</title>',
        f'<desc id="rating-graph-desc">{escape(words)}</desc>',
    ]
    for v in (low + pad, (low + high) / 2, high - pad):  # three rules with their ratings
        yy = y(v)
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{yy:.1f}" y2="{yy:.1f}" class="rule"/>'
            f'<text x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end">{round(v)}</text>'
        )
    first = datetime.fromtimestamp(t0, tz=series[next(iter(series))][0][0].tzinfo)
    last = datetime.fromtimestamp(t1, tz=first.tzinfo)
    base = HEIGHT - 8
    parts.append(f'<text x="{LEFT}" y="{base}">{escape(i18n.format_date(first, "short"))}</text>')
    if t1 > t0:
        parts.append(
            f'<text x="{WIDTH - RIGHT}" y="{base}" text-anchor="end">'
            f"{escape(i18n.format_date(last, 'short'))}</text>"
        )
    for i, (_game, pts) in enumerate(series.items()):
        color, dash = COLORS[i % len(COLORS)], DASHES[i % len(DASHES)]
        path = " ".join(f"{x(w.timestamp()):.1f},{y(v):.1f}" for w, v in pts)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"{dashed}/>'
        )
        if len(pts) == 1:
            ((w, v),) = pts
            parts.append(
                f'<circle cx="{x(w.timestamp()):.1f}" cy="{y(v):.1f}" r="3" fill="{color}"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def legend(
    series: dict[str, list[tuple[datetime, int]]], titles: dict[str, str]
) -> list[dict[str, str]]:
    """Each line's colour, dash and words, for the list under the graph."""
    return [
        {
            "game": g,
            "color": COLORS[i % len(COLORS)],
            "dash": DASHES[i % len(DASHES)],
            "text": summary(titles.get(g, g), pts),
        }
        for i, (g, pts) in enumerate(series.items())
    ]
