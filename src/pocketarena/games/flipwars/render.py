"""Drawing FlipWars: a rich grid for the terminal and an SVG card for the web and docs.

Tiles are rounded squares in the colour they show, with the tile's name and a small map of its
attack pattern (the tile a white square, attacked cells white dots), turned as it was placed.
The last placement is outlined in gold and the tiles it flipped carry a gold corner mark.
Below the board one supply shows each kind of tile once, with how many Blue (left corner) and
Red (right corner) have left: two trays of every kind made the card so tall that on a phone
their names were drawn 5 px high.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from unicodedata import east_asian_width
from xml.sax.saxutils import escape

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text

from pocketarena.core import TERMINAL, Action, Message, State, comma_list, message, seat_name
from pocketarena.games.flipwars import KIND_BY_NAME, FlipWarsState
from pocketarena.games.flipwars.tiles import TileKind
from pocketarena.messages import speak
from pocketarena.render.terminal import fold, is_compact
from pocketarena.render.words import ButtonWords

# The notation's words on the web page's buttons (pocketarena.render.words): who starts a
# round, and the four turns of a tile.
WORDS = ButtonWords(
    choices={
        "blue": "Blue starts",
        "red": "Red starts",
        "r0": "↑ as printed",
        "r90": "↻ 90°",
        "r180": "↻ 180°",
        "r270": "↻ 270°",
    },
    rotations=("r0", "r90", "r180", "r270"),
)

__all__ = ["describe", "rich_board", "svg_board"]

# The tiles' names are the reader's (``flipwars.tile.<kind>``: "tank", "char", "戦車"), and
# so are their short names in a terminal's cells (``flipwars.tile-short.<kind>``: "TNK",
# "CHR", "戦"); the notation keeps its own words (``place tank c3 r0``).
# How wide each English name is drawn, in font sizes (bold Liberation Sans, metric twin of
# Arial and Helvetica, measured in Chromium), so each name can be as large as its tile lets it
# be; a name in another language is measured by its characters (``_label_em``).
LABEL_EM = {
    "tank": 2.06,
    "rocket": 3.0,
    "grenade": 3.89,
    "paratrooper": 5.61,
    "sniper": 3.0,
    "foxhole": 3.56,
    "twin-rifle": 4.17,
    "T-rex": 2.39,
    "flag (2)": 3.28,
}
# Width of a character of a bold label, in font sizes: a wide one (CJK) is a full em.
NARROW_EM, WIDE_EM = 0.62, 1.0
FILL = ("#2f6fd6", "#d64045")  # blue, red
EDGE = ("#173f85", "#82201f")
SUPPLY_FILL, SUPPLY_EDGE = "#5b5243", "#3d352a"  # a kind in the supply: nobody's colour yet
STYLE = ("bold white on #2f6fd6", "bold white on #d64045")
OWNER = ("B", "R")  # the owner's letter in the terminal's cells
GOLD = "#f5b700"
CELL = 100


def tile_word(kind: str) -> Message:
    """A tile's name as a message, worded in the reader's language where it is shown."""
    return message(f"flipwars.tile.{kind}")


def tile_name(kind: str) -> str:
    """A tile's name in the reader's language ("tank", "char", "戦車")."""
    return speak(tile_word(kind))


def short_name(kind: str) -> str:
    """A tile's short name for a terminal's cell, in the reader's language ("TNK", "戦")."""
    return speak(message(f"flipwars.tile-short.{kind}"))


def _label_em(label: str) -> float:
    """How wide ``label`` is drawn, in font sizes."""
    if label in LABEL_EM:
        return LABEL_EM[label]
    return sum(WIDE_EM if east_asian_width(c) in "WF" else NARROW_EM for c in label)


def _fw(state: State) -> FlipWarsState:
    if not isinstance(state, FlipWarsState):
        raise TypeError(f"expected a FlipWars state, got {state.game.ID}")
    return state


def _arrow(kind: str, degrees: int) -> str:
    """Which way a turned tile points, for the asymmetric patterns."""
    rotations = KIND_BY_NAME[kind].rotations
    if len(rotations) == 1:
        return ""
    if kind == "tank":
        return "↔" if degrees in (0, 180) else "↕"
    q = degrees // 90
    if kind == "paratrooper":
        return "↖↗↘↙"[q]
    return "←↑→↓"[q]


def _say(key: str, /, **params: object) -> str:
    """A board message (``flipwars.board.*``) worded in the reader's language."""
    return speak(message(f"flipwars.board.{key}", **params))


def _seat(state: FlipWarsState, seat: int) -> Message:
    return seat_name(state.game.SEATS[seat])


# The modes' names as the board's title shows them (a mode without one shows its own name).
MODE_NAMES = {"standard", "enclosed", "flag", "tactical"}


def _last_marks(state: FlipWarsState, last: Action | None) -> tuple[int, set[int]]:
    """The cell of the last placement and the cells it flipped (-1 and none otherwise)."""
    if last is None or last.verb != "place":
        return -1, set()
    try:
        info = state.game.placement(state.game.action(last))
    except ValueError:
        return -1, set()
    if info is None:
        return -1, set()
    cell, _, targets, _ = info
    if state.tile_at(cell) is None:
        return -1, set()
    occupied = state.blue | state.red
    return cell, {c for c in range(len(state.tiles)) if (targets & occupied) >> c & 1}


def _status(state: FlipWarsState) -> str:
    """The status line in the reader's language: the round (in a series), the tiles, and
    what is to be done or how it ended."""
    game = state.game
    blue, red = state.round_scores()
    score = speak(message("flipwars.board.tiles", blue=blue, red=red))
    if game.series:
        wins = speak(
            message(
                "flipwars.board.round-wins",
                round=state.round,
                blue=state.wins[0],
                red=state.wins[1],
            )
        )
    else:
        wins = ""
    player = state.current_player
    if player == TERMINAL:
        winner = state.winner()
        if winner is None:
            result = message(
                "flipwars.board.series-drawn" if game.series else "flipwars.board.drawn"
            )
        else:
            key = "flipwars.board.wins-series" if game.series else "flipwars.board.wins"
            result = message(key, seat=seat_name(game.SEATS[winner]))
        return speak(
            message("flipwars.board.over", before=wins if game.series else score, result=result)
        )
    phase = state.position()["phase"]
    who = seat_name(game.SEATS[player])
    if phase == "block":
        doing = message("flipwars.board.choose-block", seat=who)
    elif phase == "first":
        doing = message("flipwars.board.choose-first", seat=who, round=state.round)
    elif state.position()["must_place_flag"]:
        doing = message("flipwars.board.place-flag", seat=who)
    else:
        doing = message("flipwars.board.place", seat=who)
    return "; ".join(x for x in (wins, score, speak(doing)) if x)


def _tile_legend(kinds: Iterable[TileKind], width: int) -> str:
    """The tiles' short names spelled out (``TNK tank · RKT rocket``), lines broken between
    tiles only."""
    lines: list[str] = []
    line = ""
    for kind in kinds:
        item = f"{short_name(kind.name)} {tile_name(kind.name)}"
        if line and cell_len(line) + 3 + cell_len(item) > width:
            lines.append(line + " ·")
            line = item
        else:
            line = f"{line} · {item}" if line else item
    return "\n".join([*lines, line])


def _supply_line(state: FlipWarsState, seat: int, width: int = 80) -> str:
    """What a seat has left to place, by the tiles' names, wrapped to fit a terminal
    ``width`` columns wide (counted in cells: a CJK name takes two a character), lines broken
    between tiles only."""
    left = state.supply(seat)
    parts = [f"{tile_name(k)}×{n}" for k, n in left.items() if n]
    if not parts:
        parts = [speak(message("flipwars.board.nothing-left"))]
    most = min(width, 80) - 2
    lines: list[str] = []
    line = _say("supply-of", seat=_seat(state, seat))
    for i, part in enumerate(parts):
        if i and cell_len(line) + 1 + cell_len(part) > most:
            lines.append(line)
            line = "  " + part
        else:
            line = f"{line} {part}"
    return "\n".join([*lines, line])


# -- terminal -----------------------------------------------------------------------------------
def rich_board(state: State, last: Action | None = None, width: int = 80) -> Group:
    """The board as a rich table: each tile in its colour with its short name and direction;
    below 80 columns the owner's letter is joined to the name (``RTNK``) and the lines under
    the board are folded."""
    compact = is_compact(width)
    fw = _fw(state)
    game = fw.game
    n = game.size
    placed, flipped = _last_marks(fw, last)
    table = Table(show_header=True, show_lines=True, header_style="bold", padding=(0, 0))
    table.add_column("", justify="right", style="bold")
    for f in range(n):
        table.add_column("abcdefgh"[f], justify="center", min_width=6 if compact else 8)
    for rank in range(n - 1, -1, -1):
        row: list[Text | str] = [f"{rank + 1} "]
        for f in range(n):
            cell = rank * n + f
            tile = fw.tile_at(cell)
            if cell == fw.block:
                text = Text("▓▓▓▓", style="grey50")
            elif tile is None:
                text = Text("·", style="dim")
            else:
                kind, degrees, colour = tile
                mark = "*" if cell == placed else "↻" if cell in flipped else " "
                # The owner's letter too: colour alone is lost with NO_COLOR or to colour-blind eyes.
                text = Text(
                    f"{OWNER[colour]}{'' if compact else ' '}{short_name(kind)}"
                    f"{_arrow(kind, degrees) or ' '}{mark}",
                    style=STYLE[colour],
                )
                if cell == placed:
                    text.stylize("underline")
            row.append(text)
        table.add_row(*row)
    lines = Text(_status(fw))
    lines.append("\n" + _supply_line(fw, 0, width), style="#2f6fd6")
    lines.append("\n" + _supply_line(fw, 1, width), style="#d64045")
    legend = _say("owners", blue=_seat(fw, 0), red=_seat(fw, 1))
    if fw.block >= 0:
        legend += _say("owners-block")
    lines.append(f"\n{legend}", style="dim")
    lines.append("\n" + _tile_legend(game.kinds, min(width, 80) - 2), style="dim")
    if placed >= 0 and last is not None:
        lines.append("\n" + _say("last", move=last.text), style="dark_orange3")
    return Group(table, fold(lines, width) if compact else lines)


# -- SVG ----------------------------------------------------------------------------------------
def _pattern_svg(kind: str, degrees: int, cx: float, cy: float, step: float) -> str:
    """The attack pattern as a small map: the tile a white square, attacked cells dots (a flag,
    which attacks nothing, is drawn as a flag)."""
    if kind == "flag":
        return (
            f'<path d="M{cx - step * 1.5:.1f} {cy + step * 2.5:.1f} v{-step * 5:.1f} '
            f'l{step * 3.5:.1f} {step * 1.2:.1f} l{-step * 3.5:.1f} {step * 1.2:.1f}" '
            f'fill="#ffffff" stroke="#ffffff" stroke-width="{step * 0.35:.1f}" '
            'stroke-linejoin="round"/>'
        )
    parts = [
        f'<rect x="{cx - step * 0.45:.1f}" y="{cy - step * 0.45:.1f}" width="{step * 0.9:.1f}" '
        f'height="{step * 0.9:.1f}" fill="#ffffff"/>'
    ]
    for dx, dy in sorted(KIND_BY_NAME[kind].offsets(degrees // 90)):
        parts.append(
            f'<circle cx="{cx + dx * step:.1f}" cy="{cy - dy * step:.1f}" r="{step * 0.36:.1f}" '
            'fill="#ffffff" fill-opacity="0.85"/>'
        )
    return "".join(parts)


def _tile_svg(
    kind: str,
    degrees: int,
    x: float,
    y: float,
    width: float,
    height: float,
    colours: tuple[str, str],
) -> str:
    """A tile (``colours``: its fill and edge) filling the box at (x, y): its pattern above
    its name, the name as large as the box's width lets it be."""
    size = min(width, height)
    inset = size * 0.06
    label = tile_name(kind)
    if kind == "flag":
        label = _say("flag-counts", flag=label)
    font = min(size * 0.18, (width - 4 * inset) / _label_em(label))
    return (
        f'<rect x="{x + inset:.1f}" y="{y + inset:.1f}" width="{width - 2 * inset:.1f}" '
        f'height="{height - 2 * inset:.1f}" rx="{size * 0.12:.1f}" fill="{colours[0]}" '
        f'stroke="{colours[1]}" stroke-width="{size * 0.03:.1f}"/>'
        + _pattern_svg(kind, degrees, x + width / 2, y + height * 0.4, size * 0.1)
        + f'<text x="{x + width / 2:.1f}" y="{y + height * 0.86:.1f}" text-anchor="middle" '
        f'font-size="{font:.1f}" font-weight="bold" fill="#ffffff">{escape(label)}</text>'
    )


def _on_cell(fw: FlipWarsState, cell: int) -> str:
    """What a cell holds, in words: "empty", "the block", "Red T-rex turned 90°"."""
    tile = fw.tile_at(cell)
    if cell == fw.block:
        return _say("the-block")
    if tile is None:
        return _say("empty")
    name = tile_word(tile[0])
    if tile[1]:
        return _say("tile-turned", seat=_seat(fw, tile[2]), tile=name, degrees=tile[1])
    return _say("tile", seat=_seat(fw, tile[2]), tile=name)


def _status_lines(status: str, width: float, height: float) -> list[str]:
    """The status in at most two lines that fit the card (a series' line is long on 4x4)."""
    lines = textwrap.wrap(status, max(20, int(width / 8.2)))
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    out = []
    for i, line in enumerate(lines):
        y = height - 18 - 17 * (len(lines) - 1 - i)
        size = 15 if len(line) * 8.2 <= width - 16 else 13
        out.append(
            f'<text x="{width / 2}" y="{y}" text-anchor="middle" font-size="{size}" '
            f'fill="#3d352a">{escape(line)}</text>'
        )
    return out


def _supply_svg(fw: FlipWarsState, left: float, top: float, width: float) -> tuple[str, float]:
    """The supply under the board: each kind once, in two rows as wide as the board, a
    ``<g data-tile="grenade" data-name="grenade">`` (the notation's word, then the name in the
    reader's language) with Blue's count in its left corner and Red's in its right; a kind
    neither can place any more is faded. Its SVG and its height."""
    game = fw.game
    left_of = [fw.supply(seat) for seat in (0, 1)]
    per_row = -(-len(game.kinds) // 2)
    step = width / per_row
    tile_w, tile_h = step - 8, SUPPLY_TILE_H
    out = [
        f'<text x="{left}" y="{top + 15}" font-size="15" font-weight="bold" '
        f'fill="{EDGE[0]}">◀ {escape(_say("whose", seat=_seat(fw, 0)))}</text>'
        f'<text x="{left + width / 2}" y="{top + 15}" text-anchor="middle" font-size="15" '
        f'fill="#3d352a">{escape(_say("tiles-left"))}</text>'
        f'<text x="{left + width}" y="{top + 15}" text-anchor="end" font-size="15" '
        f'font-weight="bold" fill="{EDGE[1]}">{escape(_say("whose", seat=_seat(fw, 1)))} ▶</text>'
    ]
    for i, kind in enumerate(k.name for k in game.kinds):
        x = left + (i % per_row) * step + 4
        y = top + SUPPLY_HEAD + (i // per_row) * (tile_h + 8)
        counts = [left_of[seat][kind] for seat in (0, 1)]
        name = tile_name(kind)
        label = escape(
            _say(
                "supply-label",
                tile=name,
                blue=_seat(fw, 0),
                blue_left=counts[0],
                red=_seat(fw, 1),
                red_left=counts[1],
            ),
            {'"': "&quot;"},
        )
        out.append(
            f'<g data-tile="{kind}" data-name="{escape(name, {chr(34): "&quot;"})}" '
            f'data-left="{counts[0]} {counts[1]}" '
            f'data-label="{label}" opacity="{"1" if any(counts) else "0.35"}">'
            + _tile_svg(kind, 0, x, y, tile_w, tile_h, (SUPPLY_FILL, SUPPLY_EDGE))
        )
        for seat, bx in ((0, x + 13), (1, x + tile_w - 13)):
            faded = "" if counts[seat] else ' opacity="0.45"'
            out.append(
                f'<g{faded}><circle cx="{bx:.1f}" cy="{y + 13:.1f}" r="10" fill="{FILL[seat]}" '
                f'stroke="#ffffff" stroke-width="1.5"/><text x="{bx:.1f}" y="{y + 18:.1f}" '
                'text-anchor="middle" font-size="13" font-weight="bold" fill="#ffffff">'
                f"{counts[seat]}</text></g>"
            )
        out.append("</g>")
    rows = -(-len(game.kinds) // per_row)
    return "".join(out), SUPPLY_HEAD + rows * (tile_h + 8)


SUPPLY_HEAD = 24  # the supply's heading line
SUPPLY_TILE_H = 84


def svg_board(state: State, last: Action | None = None) -> str:
    """A standalone SVG card: each cell is a ``<g data-place="c3">``; each kind in the supply
    a ``<g data-tile="grenade">``."""
    fw = _fw(state)
    game = fw.game
    n = game.size
    placed, flipped = _last_marks(fw, last)
    left, top = 40, 56
    board = n * CELL
    width = left + board + 24
    supply, supply_h = _supply_svg(fw, 12, top + board + 36, width - 24)
    height = top + board + 36 + supply_h + 44
    status = _status(fw)
    mode = _say("mode." + game.mode.name) if game.mode.name in MODE_NAMES else game.mode.name
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        'font-family="Helvetica, Arial, sans-serif" role="img" '
        f'aria-label="FlipWars: {escape(status, {chr(34): "&quot;"})}">',
        f'<rect x="2" y="2" width="{width - 4}" height="{height - 4}" rx="22" fill="#f4efe4" '
        'stroke="#6d6250" stroke-width="3"/>',
        f'<text x="{width / 2}" y="36" text-anchor="middle" font-size="22" font-weight="bold" '
        f'fill="#3d352a">FlipWars · {escape(mode)}</text>',
        f'<rect x="{left - 6}" y="{top - 6}" width="{board + 12}" height="{board + 12}" rx="10" '
        'fill="#6d6250"/>',
    ]
    for cell, name in enumerate(game.cell_names):
        f, rank = cell % n, cell // n
        x, y = left + f * CELL, top + (n - 1 - rank) * CELL
        classes = ["cell"]
        if cell == placed:
            classes.append("last")
        if cell in flipped:
            classes.append("flipped")
        tile = fw.tile_at(cell)
        out.append(
            f'<g data-place="{name}" class="{" ".join(classes)}" data-label="{name}, {escape(_on_cell(fw, cell))}">'
        )
        out.append(
            f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="8" '
            'fill="#e6dcc7"/>'
        )
        if cell == fw.block:
            out.append(
                f'<rect x="{x + 6}" y="{y + 6}" width="{CELL - 12}" height="{CELL - 12}" rx="10" '
                'fill="#3a3a3a"/>'
                f'<path d="M{x + 20} {y + 80} L{x + 80} {y + 20} M{x + 20} {y + 50} L{x + 50} {y + 20} '
                f'M{x + 50} {y + 80} L{x + 80} {y + 50}" stroke="#6b6b6b" stroke-width="6"/>'
                f'<text x="{x + 50}" y="{y + 94}" text-anchor="middle" font-size="10" '
                f'fill="#f4efe4">{escape(_say("block"))}</text>'
            )
        elif tile is not None:
            colours = (FILL[tile[2]], EDGE[tile[2]])
            out.append(_tile_svg(tile[0], tile[1], x, y, CELL, CELL, colours))
        if cell == placed:
            out.append(
                f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="10" '
                f'fill="none" stroke="{GOLD}" stroke-width="6"/>'
            )
        elif cell in flipped:
            out.append(
                f'<path d="M{x + CELL - 30} {y + 6} h22 v22 z" fill="{GOLD}"><title>{escape(_say("flipped"))}</title></path>'
            )
        out.append("</g>")
    for f in range(n):
        out.append(
            f'<text x="{left + f * CELL + CELL / 2}" y="{top + board + 24}" text-anchor="middle" '
            f'font-size="15" fill="#6d6250">{"abcdefgh"[f]}</text>'
        )
    for rank in range(n):
        out.append(
            f'<text x="{left - 20}" y="{top + (n - 1 - rank) * CELL + CELL / 2 + 5}" '
            f'text-anchor="middle" font-size="15" fill="#6d6250">{rank + 1}</text>'
        )
    out.append(supply)
    out.extend(_status_lines(status, width, height))
    out.append("</svg>")
    return "".join(out)


# -- words --------------------------------------------------------------------------------------
def describe(action: Action, state: State | None = None) -> str:
    """``describe_message`` worded in the reader's language (English unless one is in use)."""
    return speak(describe_message(action, state))


def describe_message(action: Action, state: State | None = None) -> Message:
    """A sentence for an action; with ``state`` (the state it is played in) it names the mover
    and the tiles it flips."""
    if action.verb == "block":
        return message("flipwars.says.block", place=action.args[0])
    if action.verb == "first":
        return message("flipwars.says.first", seat=seat_name(action.args[0].capitalize()))
    kind, cell, degrees = action.args
    # The English article by the English name; the name itself in the reader's language.
    english = str(tile_word(kind))
    key = "flipwars.says.an" if english[0].lower() in "aeiou" else "flipwars.says.a"
    tile = message(key, tile=tile_word(kind))
    offsets = sorted(KIND_BY_NAME[kind].offsets(degrees // 90), key=lambda o: (-o[1], o[0]))
    if not offsets:
        attacks = message("flipwars.says.attacks-nothing")
    else:
        directions = comma_list(_direction_words(dx, dy) for dx, dy in offsets)
        attacks = message("flipwars.says.attacking", directions=directions)
    said = {"tile": tile, "place": cell, "attacks": attacks}
    if degrees:
        said["turned"] = message("flipwars.says.turned", degrees=degrees)
    key = "flipwars.says.place" + ("-turned" if degrees else "")
    if isinstance(state, FlipWarsState) and state.current_player >= 0:
        said["seat"] = seat_name(state.game.SEATS[state.current_player])
        info = state.game.placement(state.game.action(action))
        if info is not None:
            hit = info[2] & (state.blue | state.red)
            names = [state.game.cell_names[c] for c in range(len(state.tiles)) if hit >> c & 1]
            said["flips"] = (
                message("flipwars.says.flips", cells=comma_list(names))
                if names
                else message("flipwars.says.flips-nothing")
            )
            return message(key + "-flips", **said)
        return message(key, **said)
    return message(key + "-anyone", **said)


def _direction_words(dx: int, dy: int) -> Message:
    """``_direction`` in the reader's language: "up-left", "2 down"."""
    steps = max(abs(dx), abs(dy))
    vertical = "up" if dy > 0 else "down" if dy < 0 else ""
    horizontal = "right" if dx > 0 else "left" if dx < 0 else ""
    word = message("flipwars.dir." + "-".join(w for w in (vertical, horizontal) if w))
    return word if steps == 1 else message("flipwars.dir.steps", steps=steps, direction=word)
