"""Drawing Wallet Battles: the battlefield with every location's stack (top coin first), who
holds it and what it is worth; both piles, the scores so far, whose flip or act it is, and the
last move marked. Used by the terminal (``rich_board``), the web pages and the docs (``svg_board``).
"""

from __future__ import annotations

import re
from datetime import date
from html import escape
from typing import Any

from babel import dates
from rich.cells import cell_len
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from pocketarena.core import CHANCE, TERMINAL, Action, Game, Message, State, message, seat_name
from pocketarena.core.errors import SAID
from pocketarena.games.wallet_battles import (
    COIN_NAMES,
    COINS,
    BattleMap,
    WalletBattles,
    WalletBattlesState,
    flip_seat,
    location_names,
)
from pocketarena.i18n import babel_locale, current
from pocketarena.messages import speak
from pocketarena.render.terminal import fold, is_compact
from pocketarena.render.words import ButtonWords

# The notation's words on the web page's buttons (pocketarena.render.words).
WORDS = ButtonWords(
    names={"Q": "Quarter", "N": "Nickel", "P": "Penny", "D": "Dime"},
    verbs={"pass": "Pass"},
)

SIDES = ("Union", "Confederacy")
FACES = ("Heads", "Tails")
SHORT = ("U", "C")
# Terminal colours: Union blue, Confederate grey (bright enough on dark and light terminals).
RICH_SIDE = ("bold bright_blue", "bold grey62")
RICH_FEATURE = {
    "road": ("·", "dim yellow"),
    "creek": ("~", "blue"),
    "ridge": ("^", "dim"),
    "woods": ("♣", "dim green"),
    "town": ("▒", "dim"),
}
# SVG colours.
INK = "#3b2f1e"
SVG_SIDE = ("#27497f", "#55585e")
SVG_TINT = ("#d6e0f0", "#e3e1dc")
SVG_LAST = "#d99a00"
METAL = {  # face fill, rim: copper pennies, silver the rest
    "Q": ("#d3d6da", "#7d838b"),
    "N": ("#c6c9cc", "#777d84"),
    "P": ("#c8804a", "#87502a"),
    "D": ("#dadde0", "#858b92"),
}
# Coin radii in SVG units, in proportion to the real diameters (24.26, 21.21, 19.05, 17.91 mm).
RADIUS = {"Q": 11.0, "N": 9.6, "P": 8.6, "D": 8.1}


def place_names(game: Game) -> dict[str, str]:
    """Each location's name on the map by its notation id."""
    assert isinstance(game, WalletBattles)
    return {loc.id: loc.name for loc in game.battle_map.locations}


def _board(state: State) -> WalletBattlesState:
    if not isinstance(state, WalletBattlesState):
        raise TypeError(f"a Wallet Battles state is needed, got {type(state).__name__}")
    return state


def _last_location(last: Action | None) -> str | None:
    if last is not None and last.verb in ("place", "capture", "recall"):
        return str(last.args[-1])
    return None


# Why a game ended, as the status line says it.
ENDINGS = {
    "pile": message("wallet-battles.board.end-pile"),
    "occupied": message("wallet-battles.board.end-occupied"),
    "used": message("wallet-battles.board.end-used"),
    "guard": message("wallet-battles.board.end-guard"),
}


def _empty_text(state: WalletBattlesState, loc: int) -> str:
    """An empty location's note: by the ``used`` end, one that has held a coin says so (it no
    longer counts towards the end; the status line counts the never-used ones)."""
    used = state.game.ends_when_used and state.used(loc)
    return speak(
        message("wallet-battles.board.used-empty" if used else "wallet-battles.board.empty")
    )


def _status(state: WalletBattlesState) -> str:
    """One line: whose flip or act it is, or how the game ended (in the reader's language)."""
    cp = state.current_player
    if cp == TERMINAL:
        a, b = state.scores()
        w = state.winner()
        result = (
            message("wallet-battles.board.draw")
            if w is None
            else message("wallet-battles.board.side-wins", side=seat_name(SIDES[w]))
        )
        ending = ENDINGS.get(state.ending or "")
        return speak(
            message(
                "wallet-battles.board.over",
                flips=message("wallet-battles.board.flips", count=state.flips),
                why=speak(ending) if ending is not None else "",
                result=result,
                first=f"{a:g}",
                second=f"{b:g}",
            )
        )
    odd = speak(message("wallet-battles.board.odd", count=state.odd)) if state.odd else ""
    # By the used end, how far the map is from ending the game.
    left = (
        speak(message("wallet-battles.board.never-used", count=state.unused))
        if state.game.ends_when_used
        else ""
    )
    if cp == CHANCE:
        return speak(
            message("wallet-battles.board.flip", number=state.flips + 1, odd=odd, left=left)
        )
    side = seat_name(SIDES[cp])
    if state.recalling:
        return speak(message("wallet-battles.board.recall", side=side, left=left))
    return speak(message("wallet-battles.board.acts", side=side, left=left))


def describe(action: Action) -> str:
    """``describe_message`` worded in the reader's language (English unless one is in use)."""
    return speak(describe_message(action))


def describe_message(action: Action) -> Message:
    """A short sentence for an action or flip; a flip says who may act."""
    names = location_names()
    if action.verb == "flip":
        seat = flip_seat(action)
        if seat is None:
            return message("wallet-battles.says.odd")
        faces = "heads" if seat == 0 else "tails"
        return message(f"wallet-battles.says.both-{faces}", seat=seat_name(SIDES[seat]))
    if action.verb == "pass":
        return message("wallet-battles.says.pass")
    where = names.get(str(action.args[-1]), str(action.args[-1]))
    if action.verb == "place":
        coin = str(action.args[0])
        name = message(f"wallet-battles.coin.{COIN_NAMES[COINS.index(coin)]}")
        return message("wallet-battles.says.place", coin=name, letter=coin, place=where)
    if action.verb in ("capture", "recall"):
        return message(f"wallet-battles.says.{action.verb}", place=where)
    return message(SAID, text=action.text)


def _say(key: str, /, **params: object) -> str:
    """A board message (``wallet-battles.board.*``) worded in the reader's language."""
    return speak(message(f"wallet-battles.board.{key}", **params))


MONTHS = "January February March April May June July August September October November December"


def battle_date(battle_map: BattleMap) -> str:
    """The battle's day or days (the map says them in English: "July 1-3, 1863") as the
    reader writes dates, through CLDR; English as the map says it."""
    said = re.fullmatch(r"([A-Z][a-z]+) (\d+)(?:-(\d+))?, (\d{4})", battle_map.date)
    if current() == "en" or said is None or said[1] not in MONTHS.split():
        return battle_map.date
    month, year = MONTHS.split().index(said[1]) + 1, int(said[4])
    first = date(year, month, int(said[2]))
    locale = babel_locale(current())
    if said[3] is None:
        return dates.format_date(first, "long", locale=locale)
    last = date(year, month, int(said[3]))
    return dates.format_interval(first, last, "yMMMMd", locale=locale)


# -- terminal -------------------------------------------------------------------------
MAP_COLUMNS = 72
MAP_ROWS = 21


def location_label(state: WalletBattlesState, loc: int) -> tuple[str, str]:
    """The two lines a location shows: its name, and its stack top first with its value."""
    name = state.game.battle_map.locations[loc].name
    stack = state.stacks[loc]
    if not stack:
        return name, f"({_empty_text(state, loc)})"
    coins = " ".join(COINS[c] for c in reversed(stack))
    return name, f"{SHORT[state.holder[loc]]}: {coins} ={state.location_value(loc)}"


def label_boxes(state: WalletBattlesState) -> list[tuple[int, int, int]]:
    """(row, first column, width) of each location's two-line label on the terminal map."""
    boxes = []
    for loc, place in enumerate(state.game.battle_map.locations):
        width = max(len(line) for line in location_label(state, loc)) + 2  # a space each side
        row = round(place.y / 100 * (MAP_ROWS - 2))
        col = round(place.x / 100 * (MAP_COLUMNS - 1)) - width // 2
        boxes.append((row, max(0, min(MAP_COLUMNS - width, col)), width))
    return boxes


class _Canvas:
    """A grid of styled characters: scenery first, then the labels on top."""

    def __init__(self, rows: int, columns: int) -> None:
        self.chars = [[" "] * columns for _ in range(rows)]
        self.styles: list[list[str]] = [[""] * columns for _ in range(rows)]

    def put(self, row: int, col: int, text: str, style: str) -> None:
        if not 0 <= row < len(self.chars):
            return
        line = self.chars[row]
        for i, ch in enumerate(text):
            if 0 <= col + i < len(line):
                line[col + i] = ch
                self.styles[row][col + i] = style

    def text(self) -> Text:
        out = Text()
        for r, (chars, styles) in enumerate(zip(self.chars, self.styles, strict=True)):
            if r:
                out.append("\n")
            start = 0
            for i in range(1, len(chars) + 1):  # one span per run of one style
                if i == len(chars) or styles[i] != styles[start]:
                    out.append("".join(chars[start:i]), style=styles[start] or None)
                    start = i
        return out


def _cell(x: float, y: float) -> tuple[int, int]:
    return round(y / 100 * (MAP_ROWS - 1)), round(x / 100 * (MAP_COLUMNS - 1))


def _draw_scenery(canvas: _Canvas, battle_map: BattleMap) -> None:
    for feature in battle_map.features:
        glyph, style = RICH_FEATURE.get(feature.kind, ("·", "dim"))
        pts = feature.points
        if feature.kind in ("town", "woods"):
            rows = [_cell(x, y)[0] for x, y in pts]
            cols = [_cell(x, y)[1] for x, y in pts]
            for r in range(min(rows), max(rows) + 1):
                for c in range(min(cols), max(cols) + 1):
                    if (r + c) % 2 == 0:  # a light hatch keeps labels on top readable
                        canvas.put(r, c, glyph, style)
            continue
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            (r0, c0), (r1, c1) = _cell(x0, y0), _cell(x1, y1)
            steps = max(abs(r1 - r0), abs(c1 - c0), 1)
            for i in range(steps + 1):
                canvas.put(
                    round(r0 + (r1 - r0) * i / steps),
                    round(c0 + (c1 - c0) * i / steps),
                    glyph,
                    style,
                )


def rich_board(state: State, last: Action | None = None, width: int = 80) -> Any:
    """The battlefield for the terminal: scenery, each location with its stack (top coin
    first), holder and value; then both piles and the scores so far. Below 80 columns the
    locations are listed, one a line, instead of drawn on the map, and nothing is boxed."""
    board = _board(state)
    game = board.game
    if is_compact(width):
        return _compact_board(board, last, width)
    canvas = _Canvas(MAP_ROWS, MAP_COLUMNS)
    _draw_scenery(canvas, game.battle_map)
    marked = _last_location(last)
    for loc, (row, col, width) in enumerate(label_boxes(board)):
        holder = board.holder[loc]
        name, line2 = location_label(board, loc)
        style = RICH_SIDE[holder] if holder >= 0 else "bold"
        if game.location_ids[loc] == marked:
            style += " reverse"
        canvas.put(row, col, " " + name.center(width - 2) + " ", style)
        canvas.put(
            row + 1, col, " " + line2.center(width - 2) + " ", style if holder >= 0 else "dim"
        )

    lines: list[Any] = [Text(_status(board), style="bold"), canvas.text(), _piles(board)]
    if last is not None:
        lines.append(Text(_say("last", move=describe(last)), style="italic"))
    day = battle_date(game.battle_map)
    title = f"Wallet Battles · {game.battle_map.title} ({day})"
    note = _say("stacks-top-first")
    # The note goes under the map when the title would not fit the box with it (rich cuts
    # a long title short).
    if cell_len(f"{title} · {note}") <= MAP_COLUMNS:
        title = f"{title} · {note}"
    else:
        lines.insert(2, Text(note, style="dim"))
    return Panel(Group(*lines), title=title, expand=False)


def _compact_board(board: WalletBattlesState, last: Action | None, width: int) -> Group:
    """The narrow terminal's form: each location on a line with its holder and stack."""
    game = board.game
    day = battle_date(game.battle_map)
    title = Text(f"Wallet Battles · {game.battle_map.title} ({day})", style="bold")
    lines: list[Any] = [fold(title, width), fold(Text(_status(board), style="bold"), width)]
    places = Text()
    for loc in range(len(game.location_ids)):
        holder = board.holder[loc]
        name, line2 = location_label(board, loc)
        style = RICH_SIDE[holder] if holder >= 0 else "bold"
        if game.location_ids[loc] == _last_location(last):
            style += " reverse"
        line = Text(name, style=style)
        line.append(f": {line2}", style=style if holder >= 0 else "dim")
        places.append_text(fold(line, width))
        places.append("\n")
    places.append(_say("stacks-top-first"), style="dim")
    lines.append(places)
    lines.append(_piles(board, short=True))
    # The short table and the locations name the sides by letter: say which is which.
    legend = Text()
    for seat in (0, 1):
        legend.append(" · " if seat else "")
        legend.append(f"{SIDES[seat][0]} {_pile_title(seat)}", style=RICH_SIDE[seat])
    lines.append(fold(legend, width))
    if last is not None:
        lines.append(fold(Text(_say("last", move=describe(last)), style="italic"), width))
    return Group(*lines)


def _pile_title(seat: int) -> str:
    """A side's name with its coin face: "Union (Heads)"."""
    return _say("pile-title", side=seat_name(SIDES[seat]), face=seat_name(FACES[seat]))


def _piles(board: WalletBattlesState, short: bool = False) -> Table:
    """Both sides' piles by coin, their totals, held locations and scores."""
    piles = Table(box=None, pad_edge=False, show_edge=False)
    piles.add_column("")
    for coin in COINS:
        piles.add_column(coin, justify="right")
    piles.add_column(_say("column.pile"), justify="right")
    piles.add_column(_say("column.held"), justify="right")
    piles.add_column(_say("column.score"), justify="right", style="bold")
    scores = board.scores()
    for seat in (0, 1):
        pile = board.pile(seat)
        to_move = " ◀" if board.current_player == seat else ""
        side = SIDES[seat][0] if short else _pile_title(seat)
        piles.add_row(
            Text(f"{side}{to_move}", style=RICH_SIDE[seat]),
            *(str(pile[c]) for c in COINS),
            str(board.pile_total[seat]),
            str(board.held[seat]),
            f"{scores[seat]:g}",
        )
    return piles


# -- SVG ----------------------------------------------------------------------------------
WIDTH = 400
MAP_TOP = 48
MAP_HEIGHT = 312
PANEL_TOP = MAP_TOP + MAP_HEIGHT + 8
HEIGHT = PANEL_TOP + 104
SITE_R = 21


def _xy(x: float, y: float) -> tuple[float, float]:
    return round(28 + x * (WIDTH - 56) / 100, 1), round(
        MAP_TOP + 14 + y * (MAP_HEIGHT - 50) / 100, 1
    )


def _coin(cx: float, cy: float, coin: str, letter: bool, extra: str = "") -> str:
    fill, rim = METAL[coin]
    r = RADIUS[coin]
    out = f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{rim}" stroke-width="1.4"{extra}/>'
    if letter:
        out += (
            f'<text x="{cx}" y="{cy + 3.6}" text-anchor="middle" font-size="{r * 0.95:.1f}" '
            f'font-weight="700" fill="{INK}">{coin}</text>'
        )
    return out


def _scenery(battle_map: BattleMap) -> list[str]:
    out = []
    names = {loc.name for loc in battle_map.locations}
    for f in battle_map.features:
        pts = " ".join(f"{x},{y}" for x, y in (_xy(px, py) for px, py in f.points))
        label = f"<title>{escape(f.name)}</title>"
        if f.kind == "woods":
            out.append(f'<polygon points="{pts}" fill="#8fae7c" opacity="0.45">{label}</polygon>')
        elif f.kind == "town":
            out.append(f'<polygon points="{pts}" fill="#c9b79a" opacity="0.7">{label}</polygon>')
            if f.name in names:
                continue  # a location of that name labels it already
            x = sum(p[0] for p in f.points) / len(f.points)
            y = max(p[1] for p in f.points)
            tx, ty = _xy(x, y)
            out.append(
                f'<text x="{tx}" y="{ty + 9}" text-anchor="middle" font-size="8" font-style="italic" '
                f'fill="#7a6648">{escape(f.name)}</text>'
            )
        elif f.kind == "creek":
            out.append(
                f'<polyline points="{pts}" fill="none" stroke="#7fa6c8" stroke-width="3" '
                f'stroke-linecap="round" stroke-linejoin="round">{label}</polyline>'
            )
        elif f.kind == "ridge":
            out.append(
                f'<polyline points="{pts}" fill="none" stroke="#a38c5c" stroke-width="7" opacity="0.35" '
                f'stroke-linecap="round" stroke-linejoin="round">{label}</polyline>'
            )
        else:
            out.append(
                f'<polyline points="{pts}" fill="none" stroke="#c2a878" stroke-width="2" '
                f'stroke-dasharray="5 3">{label}</polyline>'
            )
    return out


def scored_locations(board: WalletBattlesState) -> list[tuple[int, int, int]]:
    """Once the game is over, the locations whose stacks scored: (location, side, points), in
    map order. Empty while the game goes on."""
    if board.current_player != TERMINAL:
        return []
    return [
        (loc, holder, board.location_value(loc))
        for loc, holder in enumerate(board.holder)
        if holder >= 0 and board.stacks[loc]
    ]


def scored_note(board: WalletBattlesState) -> str:
    """What each side's stacks scored at the end, in words ("the Union scored Little Round Top
    5, Culp's Hill 3; the Confederacy scored nothing on the map")."""
    if board.current_player != TERMINAL:
        return ""
    names = board.game.battle_map.locations
    found = scored_locations(board)
    parts = []
    for side in (0, 1):
        mine = [f"{names[loc].name} {points}" for loc, s, points in found if s == side]
        who = seat_name(SIDES[side])
        if mine:
            parts.append(_say("scored", side=who, places=", ".join(mine)))
        else:
            parts.append(_say("scored-nothing", side=who))
    return "; ".join(parts)


def _location(board: WalletBattlesState, loc: int, last: bool) -> str:
    place = board.game.battle_map.locations[loc]
    cx, cy = _xy(place.x, place.y)
    holder = board.holder[loc]
    stack = [COINS[c] for c in board.stacks[loc]]
    if stack:
        coins = _say("on").join(reversed(stack))
        held = _say("held-by", side=seat_name(SIDES[holder]), coins=coins)
    else:
        held = _say("label-empty")
    # At the end, a stack that scored is ringed in its side's colour and says so.
    scored = board.current_player == TERMINAL and holder >= 0 and bool(stack)
    if scored:
        held += _say("scored-for", points=board.location_value(loc), side=seat_name(SIDES[holder]))
    mark = f' scored" data-scorer="{holder}' if scored else ""
    parts = [
        f'<g class="location{mark}" data-place="{place.id}" data-name="{escape(place.name)}" '
        f'data-label="{escape(place.name + held)}">'
    ]
    parts.append(f"<title>{escape(place.name)}</title>")
    # A touch target a little larger than the drawn site (44 px on a phone), invisible.
    parts.append(f'<circle class="hit" cx="{cx}" cy="{cy}" r="{SITE_R + 4}" fill="transparent"/>')
    if last:
        parts.append(
            f'<circle cx="{cx}" cy="{cy}" r="{SITE_R + 5}" fill="none" stroke="{SVG_LAST}" '
            'stroke-width="3" class="last-move"/>'
        )
    if scored:
        parts.append(
            f'<circle class="score-ring" cx="{cx}" cy="{cy}" r="{SITE_R + 6}" fill="none" '
            f'stroke="{SVG_SIDE[holder]}" stroke-width="3.5" stroke-dasharray="7 3"/>'
        )
    if holder < 0:
        # By the used end a location that has held a coin is drawn solid: it no longer
        # counts towards the end, while a never-used one keeps the dashed outline.
        dashes = "" if board.game.ends_when_used and board.used(loc) else ' stroke-dasharray="3 3"'
        parts.append(
            f'<circle cx="{cx}" cy="{cy}" r="{SITE_R}" fill="#f8f2e2" stroke="{INK}" '
            f'stroke-width="1.2"{dashes}/>'
        )
    else:
        parts.append(
            f'<circle cx="{cx}" cy="{cy}" r="{SITE_R}" fill="{SVG_TINT[holder]}" '
            f'stroke="{SVG_SIDE[holder]}" stroke-width="2.6"/>'
        )
    # The stack seen slightly from the side: each higher coin drawn 4.5 units up, the top
    # coin last with its letter, so the order reads bottom to top.
    lift = 4.5
    base = cy + lift * (len(stack) - 1) / 2
    for i, coin in enumerate(stack):
        parts.append(_coin(cx, round(base - i * lift, 1), coin, letter=i == len(stack) - 1))
    name_y = cy + SITE_R + 11
    halo = 'stroke="#f3ead2" stroke-width="3" paint-order="stroke"'
    colour = SVG_SIDE[holder] if holder >= 0 else INK
    parts.append(
        f'<text x="{cx}" y="{name_y}" text-anchor="middle" font-size="10" font-weight="700" '
        f'fill="{colour}" {halo}>{escape(place.name)}</text>'
    )
    if stack:
        n = len(stack)
        doubled = " ×2" if n >= 3 else ""
        worth = speak(message("wallet-battles.board.points", points=board.location_value(loc)))
        info = f"{SHORT[holder]} · {' '.join(reversed(stack))} · {worth}{doubled}"
    elif board.game.ends_when_used and board.used(loc):
        info = _empty_text(board, loc)
    else:
        info = ""
    if info:
        parts.append(
            f'<text x="{cx}" y="{name_y + 11}" text-anchor="middle" font-size="8.5" fill="{colour}" '
            f"{halo}>{escape(info)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def _pile_panel(board: WalletBattlesState, seat: int, scores: tuple[float, float]) -> str:
    x0 = 14 if seat == 0 else WIDTH / 2 + 4
    w = WIDTH / 2 - 18
    acting = board.current_player == seat
    colour = SVG_SIDE[seat]
    parts = [
        f'<g class="pile" data-seat="{seat}">',
        f'<rect x="{x0}" y="{PANEL_TOP}" width="{w}" height="92" rx="9" fill="{SVG_TINT[seat]}" '
        f'stroke="{colour}" stroke-width="{3.2 if acting else 1.2}"/>',
        f'<text x="{x0 + 10}" y="{PANEL_TOP + 17}" font-size="11.5" font-weight="700" fill="{colour}">'
        f"{escape(_pile_title(seat))}</text>",
        f'<text x="{x0 + w - 10}" y="{PANEL_TOP + 17}" text-anchor="end" font-size="11.5" '
        f'font-weight="700" fill="{INK}">'
        f"{escape(speak(message('wallet-battles.board.points', points=f'{scores[seat]:g}')))}</text>",
    ]
    pile = board.pile(seat)
    for i, coin in enumerate(COINS):
        cx = round(x0 + 22 + i * (w - 30) / 4, 1)
        cy = PANEL_TOP + 44
        opacity = "" if pile[coin] else ' opacity="0.35"'
        parts.append(
            f'<g data-coin="{coin}" data-seat="{seat}" '
            f'data-label="{escape(_say("in-pile", side=seat_name(SIDES[seat]), coin=coin, count=pile[coin]))}"{opacity}>'
        )
        parts.append(_coin(cx, cy, coin, letter=True))
        parts.append(
            f'<text x="{cx + 13}" y="{cy + 4}" font-size="10" fill="{INK}">×{pile[coin]}</text></g>'
        )
    parts.append(
        f'<text x="{x0 + 10}" y="{PANEL_TOP + 80}" font-size="9.5" fill="{INK}">'
        + escape(
            speak(
                message(
                    "wallet-battles.board.pile-holds",
                    pile=board.pile_total[seat],
                    count=board.held[seat],
                )
            )
        )
        + "</text>"
    )
    if acting:
        parts.append(
            f'<text x="{x0 + w - 10}" y="{PANEL_TOP + 80}" text-anchor="end" font-size="10" '
            f'font-weight="700" fill="{colour}">{escape(speak(message("wallet-battles.board.recalls" if board.recalling else "wallet-battles.board.to-act")))} ◀</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def svg_board(state: State, last: Action | None = None) -> str:
    """A standalone SVG of the card: map, locations (``data-place``), piles and scores."""
    board = _board(state)
    game = board.game
    marked = _last_location(last)
    status = _status(board)
    if last is not None and last.verb == "flip":
        status = f"{last.text} → {status}"
    label = _say("title", map=game.battle_map.title)
    note = scored_note(board)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'font-family="Georgia, \'Times New Roman\', serif" role="img" '
        f'aria-label="{escape(label + (": " + note if note else ""))}">',
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="18" fill="#f3ead2" '
        'stroke="#6b5a3a" stroke-width="3"/>',
        f'<rect x="10" y="{MAP_TOP - 6}" width="{WIDTH - 20}" height="{MAP_HEIGHT + 6}" rx="10" '
        'fill="#efe3c4" stroke="#cbb88f" stroke-width="1"/>',
        f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="700" '
        f'fill="{INK}">{escape(game.battle_map.title)} · {escape(battle_date(game.battle_map))}</text>',
        f'<text x="{WIDTH / 2}" y="37" text-anchor="middle" font-size="9.5" fill="{INK}" '
        f'class="status">{escape(status)}</text>',
    ]
    parts.extend(_scenery(game.battle_map))
    for loc, lid in enumerate(game.location_ids):
        parts.append(_location(board, loc, last=lid == marked))
    scores = board.scores()
    parts.append(_pile_panel(board, 0, scores))
    parts.append(_pile_panel(board, 1, scores))
    parts.append("</svg>")
    return "\n".join(parts)
