"""Drawing Coin Age: the map as a diagram (regions as coloured territories, adjacency as roads,
each space with its stack, top coin first), the banks, the slap and the scores.

``svg_board`` is what the web pages and docs show; ``rich_board`` is the terminal picture (a
compact map from the card's coordinates, a table of spaces with their stacks and neighbours,
the regions' majorities, the banks and the scores); ``svg_map`` draws an empty map with its
flavour for the rules page.
"""

from __future__ import annotations

import itertools
import textwrap
from xml.sax.saxutils import escape

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pocketarena.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    Message,
    State,
    and_list,
    message,
    or_list,
    seat_name,
    seat_of,
)
from pocketarena.games.coin_age import (
    COINS,
    MAX_TURNS,
    SLAP_ORDER,
    CoinAge,
    CoinAgeMap,
    CoinAgeState,
    coin_text,
)
from pocketarena.messages import speak
from pocketarena.render.terminal import fold, is_compact
from pocketarena.render.words import ButtonWords

# The notation's words on the web page's buttons (pocketarena.render.words).
WORDS = ButtonWords(
    names={"Q": "Quarter", "N": "Nickel", "P": "Penny", "D": "Dime"},
    verbs={"end": "End turn"},
)

COIN_NAMES = {"Q": "quarter", "N": "nickel", "P": "penny", "D": "dime"}
SEAT_FILL = ("#e8b923", "#40566e")  # Heads gold, Tails slate
SEAT_INK = ("#3b2a00", "#ffffff")
SEAT_TINT = ("#fbeab0", "#cfdae6")  # a space's fill when that seat controls it
SEAT_STYLE = ("bold black on yellow3", "bold white on steel_blue")
MARK = "#e03131"  # the last move
COIN_RADIUS = (11, 13, 15, 18)  # by kind D P N Q: bigger coins rank higher

# The card: map coordinates 0..100 are drawn inside this box.
WIDTH = 640
MAP_LEFT, MAP_TOP, MAP_W, MAP_H = 56, 92, 528, 400
NODE_R = 25
HIT_R = 42  # a space's touch target: 44 px when the 640-unit map is 370 px wide
LEGEND_TOP = MAP_TOP + MAP_H + 48  # first row of the region legend


def _xy(game_map: CoinAgeMap, space_id: str) -> tuple[float, float]:
    space = game_map.spaces[game_map.index(space_id)]
    return MAP_LEFT + space.x * MAP_W / 100, MAP_TOP + space.y * MAP_H / 100


def place_names(game: Game) -> dict[str, str]:
    """Each space's name on the map by its notation id (for messages shown beside the map)."""
    assert isinstance(game, CoinAge)
    return {space.id: space.name for space in game.map.spaces}


def _attr(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def _as_coin_age(state: State) -> CoinAgeState:
    if not isinstance(state, CoinAgeState):
        raise TypeError(f"expected a Coin Age state, got {state.game.ID}")
    return state


# -- words --------------------------------------------------------------------------------------
def describe(action: Action, state: State | None = None) -> str:
    """``describe_message`` worded in the reader's language (English unless one is in use)."""
    return speak(describe_message(action, state))


def describe_message(action: Action, state: State | None = None) -> Message:
    """A sentence for ``action``; with ``state`` (the state it is played in) it names the mover,
    the spaces by name and what a slap allows them."""
    game_map = state.game.map if isinstance(state, CoinAgeState) else None

    def name(space_id: str) -> str:
        return game_map.spaces[game_map.index(space_id)].name if game_map else space_id

    # Without the state the mover is unknown: the sentence starts at its verb.
    who: dict[str, Message] = {}
    if isinstance(state, CoinAgeState):
        who = {"seat": seat_name(state.game.SEATS[state.mover])}
    kind = "" if who else "-anyone"
    if action.verb == "slap":
        return _describe_slap(action, state if isinstance(state, CoinAgeState) else None)
    if action.verb == "place":
        coin, space = action.args
        if isinstance(state, CoinAgeState):
            top = state.tops[state.game.map.index(space)]
            if top >= 0:
                return message(
                    "coin-age.says.place-covering",
                    coin=_coin(coin),
                    space=name(space),
                    owner=seat_of(state.game.SEATS[top >> 2]),
                    covered=_coin(COINS[top & 3]),
                    **who,
                )
        return message(f"coin-age.says.place{kind}", coin=_coin(coin), space=name(space), **who)
    if action.verb == "pay":
        return message(f"coin-age.says.pay{kind}", coin=_coin(action.args[0]), **who)
    if action.verb == "move":
        a, b = action.args
        return message(f"coin-age.says.move{kind}", start=name(a), end=name(b), **who)
    if action.verb == "capture":
        return message(f"coin-age.says.capture{kind}", space=name(action.args[0]), **who)
    return message(f"coin-age.says.end{kind}", **who)


def _coin(letter: str) -> Message:
    """A coin's name ("quarter") by its letter, in the reader's language."""
    return message(f"coin-age.coin.{COIN_NAMES[letter]}")


def read_move(state: State, text: str) -> str:
    """A move typed with the space numbers of the terminal map (``place Q 3``, ``move 4 6``)
    in notation: the numbers become the spaces' names."""
    game_map = _as_coin_age(state).game.map
    if not text.split():
        return text
    verb, *words = text.split()
    count = len(game_map.spaces)
    names = [
        game_map.spaces[int(w) - 1].id if w.isdigit() and 1 <= int(w) <= count else w for w in words
    ]
    return " ".join([verb, *names])


def _describe_slap(action: Action, state: CoinAgeState | None) -> Message:
    thrown = [w.split(":") for w in action.text.split()[1:]]
    if not thrown:
        return message("coin-age.says.no-coins")
    heads = [_coin(c) for c, f in thrown if f == "H"]
    tails = [_coin(c) for c, f in thrown if f == "T"]
    landed = message(
        "coin-age.says.landed-both"
        if heads and tails
        else "coin-age.says.landed-heads"
        if heads
        else "coin-age.says.landed-tails",
        heads=and_list(heads),
        tails=and_list(tails),
    )
    if state is None:
        return message(
            "coin-age.says.slap-anyone",
            landed=landed,
            count=len(heads),
            heads=message(f"coin-age.allows.{len(heads)}"),
            tails_count=len(tails),
            tails=message(f"coin-age.allows.{len(tails)}"),
        )
    side = "H" if state.mover == 0 else "T"
    matching = [c for c, f in thrown if f == side]
    m = len(matching)
    with_which = message("coin-age.says.with-any") if m == 4 else None
    if matching and m < 4:
        with_which = message("coin-age.says.with", coins=or_list(matching))
    return message(
        "coin-age.says.slap" if with_which is None else "coin-age.says.slap-with",
        seat=seat_name(state.game.SEATS[state.mover]),
        count=m,
        thrown=message("coin-age.says.coins", count=len(thrown)),
        landed=landed,
        allows=message(f"coin-age.allows.{m}"),
        **({} if with_which is None else {"usable": with_which}),
    )


def _say(key: str, /, **params: object) -> str:
    """A board message (``coin-age.board.*``) worded in the reader's language."""
    return speak(message(f"coin-age.board.{key}", **params))


def _seat(state: CoinAgeState, seat: int) -> Message:
    return seat_name(state.game.SEATS[seat])


# Why a game ended, as the rules say it (CoinAgeState.end_reason), by its message.
END_REASONS = {"board full": "board-full", "bank empty": "bank-empty", "turn limit": "turn-limit"}


def status_line(state: CoinAgeState) -> str:
    """Whose turn, the slap and what is left of it, or the result."""
    who = _seat(state, state.mover)
    if state.current_player == CHANCE:
        kinds = " ".join(COINS[k] for k in SLAP_ORDER if state.banks[state.mover][k])
        return _say("to-slap", seat=who, coins=kinds)
    if state.current_player == TERMINAL:
        heads, tails = state.scores()
        winner = state.winner()
        if winner is None:
            result = _say("draw", heads=heads, tails=tails)
        elif heads == tails:
            result = _say(
                "wins-on-bank",
                seat=_seat(state, winner),
                high=heads,
                low=tails,
                mine=state.bank_value(winner),
                theirs=state.bank_value(1 - winner),
            )
        else:
            high, low = max(heads, tails), min(heads, tails)
            result = _say("wins", seat=_seat(state, winner), high=high, low=low)
        why = _say("end." + END_REASONS[state.end_reason() or "turn limit"])
        return _say("over", why=why, result=result)
    assert state.slap is not None
    left = [f"{k} {v}" for k, v in state.allowance().items() if v]
    unused = " ".join(COINS[k] for k in SLAP_ORDER if state.unused >> k & 1)
    tail = _say("left", left=", ".join(left)) + (_say("unused", coins=unused) if unused else "")
    return _say("acting", seat=who, slap=state.slap.text, count=state.matches) + tail


def _held(state: CoinAgeState, spaces: tuple[str, ...]) -> list[int]:
    """How many of these spaces each seat holds (has the top coin of)."""
    held = [0, 0]
    for space_id in spaces:
        top = state.tops[state.game.map.index(space_id)]
        if top >= 0:
            held[top >> 2] += 1
    return held


def region_summary(state: CoinAgeState) -> list[tuple[str, int, int, int, str]]:
    """Per region: name, size, spaces Heads holds, spaces Tails holds, and who doubles (the
    seat's name in the reader's language, "-" for nobody)."""
    out = []
    for region in state.game.map.regions:
        held = _held(state, region.spaces)
        doubles = "-" if held[0] == held[1] else speak(_seat(state, 0 if held[0] > held[1] else 1))
        out.append((region.name, len(region.spaces), held[0], held[1], doubles))
    return out


def ruled_regions(state: CoinAgeState) -> dict[str, int]:
    """Once the game is over, the regions a player rules (holds strictly more of their spaces,
    so their points there double): {region id: seat}. Empty while the game goes on."""
    if state.current_player != TERMINAL:
        return {}
    ruled = {}
    for region in state.game.map.regions:
        held = _held(state, region.spaces)
        if held[0] != held[1]:
            ruled[region.id] = 0 if held[0] > held[1] else 1
    return ruled


def ruled_note(state: CoinAgeState) -> str:
    """The regions each player rules at the end, in words ("Silver Vale: ruled by Heads; ...")."""
    ruled = ruled_regions(state)
    return "; ".join(
        _say("ruled", region=region.name, seat=_seat(state, ruled[region.id]))
        for region in state.game.map.regions
        if region.id in ruled
    )


# -- the terminal -----------------------------------------------------------------------------
def _coin_rich(coin: int) -> Text:
    return Text(coin_text(coin), style=SEAT_STYLE[coin >> 2])


def _compact_map(state: CoinAgeState, width: int = 60, height: int = 13) -> Text:
    """The map from the card's coordinates: each space as its number and top coin, in its
    region's colour."""
    game_map = state.game.map
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]
    for i, space in enumerate(game_map.spaces):
        colour = game_map.region_of(space.id).colour
        top = state.tops[i]
        label = f"{i + 1}" + (coin_text(top) if top >= 0 else "")
        row = round(space.y / 100 * (height - 1))
        col = min(round(space.x / 100 * (width - 7)), width - len(label) - 2)
        row, col = _free_spot(grid, row, col, len(label) + 2)
        style = f"bold black on {colour}"
        cells = [(ch, style) for ch in f"[{label}]"]
        if top >= 0:
            # The coin part carries its owner's colours.
            for j in range(len(str(i + 1)) + 1, len(cells) - 1):
                cells[j] = (cells[j][0], SEAT_STYLE[top >> 2])
        for j, cell in enumerate(cells):
            grid[row][col + j] = cell
    text = Text()
    for r, line in enumerate(grid):
        for ch, style in line:
            text.append(ch, style=style or None)
        if r < height - 1:
            text.append("\n")
    return text


def _free_spot(grid: list[list[tuple[str, str]]], row: int, col: int, size: int) -> tuple[int, int]:
    """The nearest place to (row, col) where a label ``size`` wide has a blank on either side:
    the same row first, a little left or right, then the rows next to it (on a narrow map two
    spaces of the card may round to the same cells)."""
    width = len(grid[0])

    def free(r: int, c: int) -> bool:
        if not (0 <= r < len(grid) and 0 <= c <= width - size):
            return False
        return all(grid[r][x][0] == " " for x in range(max(0, c - 1), min(width, c + size + 1)))

    for shift_row in (0, 1, -1, 2, -2):
        for shift in range(width):
            for c in (col + shift, col - shift):
                if free(row + shift_row, c):
                    return row + shift_row, c
    return row, col  # a map too full to keep labels apart: drawn where the card has them


def rich_board(state: State, last: Action | None = None, width: int = 80) -> RenderableType:
    """The map, then each space with its region, stack and the spaces next to it (the map's
    connections), the regions, the banks; below 80 columns a narrower map and one space per
    two lines instead of the table, every line folded to ``width``."""
    st = _as_coin_age(state)
    compact = is_compact(width)
    game = st.game
    game_map = game.map
    heads, tails = st.scores()
    header = Text.assemble(
        (f"Coin Age - {game_map.title}", "bold"),
        ("\n" if compact else "   ") + _say("turn-short", turn=st.turn, last=MAX_TURNS) + "   ",
        (f" {_say('score', seat=_seat(st, 0), score=heads)} ", SEAT_STYLE[0]),
        " ",
        (f" {_say('score', seat=_seat(st, 1), score=tails)} ", SEAT_STYLE[1]),
    )
    marked = _marked_spaces(last)
    table: RenderableType = _space_list(st, marked, width) if compact else _space_table(st, marked)
    # Whole regions per line, so the terminal never splits one.
    room = min(width, 80) - 2
    regions = Text(_say("regions", heads=_seat(st, 0), tails=_seat(st, 1)))
    used = len(regions)
    for region_name, size, h, t, doubles in region_summary(st):
        item = _say("region", region=region_name, heads=h, tails=t, size=size)
        if doubles != "-":
            item += _say("doubles", seat=doubles)
        if used + 2 + len(item) > room:
            regions.append("\n ")
            used = 1
        regions.append("  ")
        regions.append(item, style="bold" if doubles != "-" else "")
        used += 2 + len(item)
    banks = Text()
    for seat in (0, 1):
        counts = " ".join(f"{COINS[k]}{st.banks[seat][k]}" for k in SLAP_ORDER)
        banks.append("\n" if seat else "")
        label = f" {_say('bank', seat=_seat(st, seat))} "
        banks.append(label, style=SEAT_STYLE[seat])
        worth = _say("coins-value", count=sum(st.banks[seat]), value=st.bank_value(seat))
        # The worth goes whole under the coins when the line would break inside it.
        fits = cell_len(label) + cell_len(f" {counts}  ({worth})") <= width
        banks.append(f" {counts}  ({worth})" if fits else f" {counts}\n   ({worth})")
    drawn = _compact_map(st, width=min(60, width))
    lines: list[RenderableType] = [header, drawn, table, regions, banks]
    if last is not None:
        lines.append(Text(_say("last", move=last.text), style="bold red"))
    lines.append(Text(status_line(st), style="bold"))
    if compact:
        lines = [fold(line, width) if isinstance(line, Text) else line for line in lines]
    return Group(*lines)


def _space_list(st: CoinAgeState, marked: tuple[str, ...], width: int) -> Text:
    """The spaces for a narrow terminal: number, name and region, then the stack (top coin
    first) and the spaces next to it, indented."""
    game_map = st.game.map
    out = Text()
    for i, space in enumerate(game_map.spaces):
        region = game_map.region_of(space.id)
        stack = Text(" ").join(_coin_rich(c) for c in reversed(st.stacks[i])) or Text(
            _say("empty"), "dim"
        )
        neighbours = " ".join(str(game_map.index(t) + 1) for t in game_map.neighbours(space.id))
        line = Text(f"{i + 1:>2} ")
        line.append(space.id, style="bold underline" if space.id in marked else "bold")
        if space.id in marked:
            line.append(" <", style="bold red")
        line.append(" ")
        line.append(region.name, style=f"black on {region.colour}")
        line.append("\n   ")
        line.append_text(stack)
        line.append(" · " + _say("next-to", spaces=neighbours))
        out.append_text(fold(line, width))
        if i < len(game_map.spaces) - 1:
            out.append("\n")
    return out


def _space_table(st: CoinAgeState, marked: tuple[str, ...]) -> Table:
    """Each space with its region, stack (top coin first) and the spaces next to it."""
    game_map = st.game.map
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(_say("column.space"))
    table.add_column(_say("column.region"))
    table.add_column(_say("column.stack"))
    table.add_column(_say("column.next-to"))
    for i, space in enumerate(game_map.spaces):
        region = game_map.region_of(space.id)
        stack = Text(" ").join(_coin_rich(c) for c in reversed(st.stacks[i])) or Text(
            _say("empty"), "dim"
        )
        neighbours = " ".join(str(game_map.index(t) + 1) for t in game_map.neighbours(space.id))
        name = Text(space.id, style="bold underline" if space.id in marked else "")
        if space.id in marked:
            name.append(" <", style="bold red")
        table.add_row(
            str(i + 1),
            name,
            Text(region.name, style=f"black on {region.colour}"),
            stack,
            neighbours,
        )
    return table


def _marked_spaces(last: Action | None) -> tuple[str, ...]:
    """The spaces the last action touched."""
    if last is None:
        return ()
    if last.verb == "place":
        return (last.args[1],)
    if last.verb in ("move", "capture"):
        return tuple(last.args)
    return ()


# -- SVG ----------------------------------------------------------------------------------------
def _svg_territories(game_map: CoinAgeMap, ruled: dict[str, int]) -> list[str]:
    """Each region's territory; one a player rules at the end is drawn stronger, with the
    ruler's colour round it (class ``ruled``, ``data-ruler`` its seat)."""
    out = []
    for region in game_map.regions:
        seat = ruled.get(region.id)
        mark = "" if seat is None else f' data-ruler="{seat}"'
        parts = [
            f'<g class="region{" ruled" if seat is not None else ""}" data-region="{region.id}" '
            f'opacity="{0.42 if seat is None else 0.66}" fill="{region.colour}" stroke="{region.colour}"{mark}>'
        ]
        for a, b in game_map.adjacent:
            if a in region.spaces and b in region.spaces:
                (x1, y1), (x2, y2) = _xy(game_map, a), _xy(game_map, b)
                parts.append(
                    f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke-width="76" stroke-linecap="round"/>'
                )
        # Triangles of mutually adjacent spaces, so the territory has no holes.
        linked = {frozenset(p) for p in game_map.adjacent}
        for trio in itertools.combinations(region.spaces, 3):
            if all(frozenset(p) in linked for p in itertools.combinations(trio, 2)):
                points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (_xy(game_map, s) for s in trio))
                parts.append(f'<polygon points="{points}" stroke="none"/>')
        for space_id in region.spaces:
            x, y = _xy(game_map, space_id)
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="44" stroke="none"/>')
        parts.append("</g>")
        out.append("".join(parts))
    return out


def _svg_roads(game_map: CoinAgeMap) -> str:
    lines = ['<g class="adjacency" stroke="#6b5a3e" stroke-width="3" stroke-linecap="round">']
    for a, b in game_map.adjacent:
        (x1, y1), (x2, y2) = _xy(game_map, a), _xy(game_map, b)
        lines.append(
            f'<line data-adjacent="{a} {b}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
        )
    lines.append("</g>")
    return "".join(lines)


def _svg_coin(coin: int, x: float, y: float, scale: float = 1.0, extra: str = "") -> str:
    kind, owner = coin & 3, coin >> 2
    r = COIN_RADIUS[kind] * scale
    return (
        f'<g class="coin"{extra}><circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{SEAT_FILL[owner]}" '
        f'stroke="#1f1f1f" stroke-width="1.5"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r - 3 * scale:.1f}" fill="none" stroke="{SEAT_INK[owner]}" '
        f'stroke-opacity="0.35" stroke-width="1"/>'
        f'<text x="{x:.1f}" y="{y + 4.5 * scale:.1f}" font-size="{13 * scale:.1f}" font-weight="bold" '
        f'text-anchor="middle" fill="{SEAT_INK[owner]}">{COINS[kind]}</text></g>'
    )


def _svg_space(game_map: CoinAgeMap, state: CoinAgeState | None, i: int, marked: bool) -> str:
    space = game_map.spaces[i]
    region = game_map.region_of(space.id)
    x, y = _xy(game_map, space.id)
    stack = state.stacks[i] if state is not None else ()
    top = stack[-1] if stack else -1
    fill = SEAT_TINT[top >> 2] if top >= 0 else "#fffdf6"
    listing = " ".join(coin_text(c) for c in reversed(stack)) or _say("empty")
    seats = ("Heads", "Tails")
    # "Heads dime on a Tails nickel on a ...": the top coin first.
    words = ""
    for c in reversed(stack):
        named = _say("coin", seat=seat_name(seats[c >> 2]), coin=_coin(COINS[c & 3]))
        words = _say("on-a", top=words, below=named) if words else named
    label = _say("space", space=space.name, region=region.name, what=words or _say("empty"))
    if top >= 0:
        said = _say("held", space=space.name, region=region.name, seat=seat_name(seats[top >> 2]))
    else:
        said = _say("unheld", space=space.name, region=region.name)
    title = _say("title-stack", space=said, stack=listing)
    parts = [
        f'<g class="space" data-place="{space.id}" data-name="{_attr(space.name)}" '
        f'data-label="{_attr(label)}">',
        f"<title>{escape(title)}</title>",
        # A touch target larger than the drawn space (44 px on a phone), invisible.
        f'<circle class="hit" cx="{x:.1f}" cy="{y:.1f}" r="{HIT_R}" fill="transparent"/>',
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{NODE_R}" fill="{fill}" stroke="{region.colour}" stroke-width="5"/>',
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{NODE_R + 2.5}" fill="none" stroke="#4a3b22" stroke-width="1"/>',
    ]
    # Covered coins peek out behind the top one, lowest furthest back.
    depth = len(stack) - 1
    for j, coin in enumerate(stack[:-1]):
        offset = 5 * (depth - j)
        parts.append(_svg_coin(coin, x + offset, y - offset, 0.8))
    if top >= 0:
        parts.append(_svg_coin(top, x, y))
    parts.append(
        f'<text class="label" x="{x:.1f}" y="{y + NODE_R + 15:.1f}" font-size="12" text-anchor="middle" '
        f'fill="#2b2113" stroke="#fffdf6" stroke-width="3" paint-order="stroke">{escape(space.name)}</text>'
    )
    if len(stack) > 1:
        parts.append(
            f'<text class="stack" x="{x:.1f}" y="{y + NODE_R + 28:.1f}" font-size="10" text-anchor="middle" '
            f'fill="#2b2113" stroke="#fffdf6" stroke-width="3" paint-order="stroke">{listing}</text>'
        )
    if marked:
        parts.append(
            f'<circle class="last" cx="{x:.1f}" cy="{y:.1f}" r="{NODE_R + 7}" fill="none" stroke="{MARK}" '
            f'stroke-width="3.5" stroke-dasharray="6 4"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _svg_map_body(
    game_map: CoinAgeMap, state: CoinAgeState | None, last: Action | None
) -> tuple[list[str], float]:
    """The card: territories, roads, spaces, compass and legend; and the card's bottom edge."""
    legend, rows = _legend(game_map, state)
    bottom = LEGEND_TOP + 20 * (rows - 1) + 14
    parts = [
        f'<rect x="12" y="{MAP_TOP - 46}" width="{WIDTH - 24}" height="{bottom - MAP_TOP + 46}" rx="18" '
        f'fill="#f6efd9" stroke="#8a7450" stroke-width="3"/>',
        *_svg_territories(game_map, ruled_regions(state) if state is not None else {}),
        _svg_roads(game_map),
    ]
    marked = _marked_spaces(last)
    if last is not None and last.verb == "move":
        (x1, y1), (x2, y2) = _xy(game_map, last.args[0]), _xy(game_map, last.args[1])
        # Stop the arrow at the target's ring, so its head shows.
        length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        x2 -= (x2 - x1) * (NODE_R + 9) / length
        y2 -= (y2 - y1) * (NODE_R + 9) / length
        parts.append(
            f'<line class="last" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{MARK}" '
            f'stroke-width="4" marker-end="url(#arrow)"/>'
        )
    for i, space in enumerate(game_map.spaces):
        parts.append(_svg_space(game_map, state, i, space.id in marked))
    # Compass rose, as on the card.
    parts.append(
        f'<g class="compass" font-size="11" text-anchor="middle" fill="#6b5a3e">'
        f'<path d="M{WIDTH - 40},{MAP_TOP - 30} l6,16 l-6,-4 l-6,4 z" fill="#6b5a3e"/>'
        f'<text x="{WIDTH - 40}" y="{MAP_TOP - 2}">N</text></g>'
    )
    parts.extend(legend)
    return parts, bottom


def _legend(game_map: CoinAgeMap, state: CoinAgeState | None) -> tuple[list[str], int]:
    """The region legend (below the map, inside the card) and how many rows it takes."""
    parts = []
    x, row = 24.0, 0
    summary = region_summary(state) if state is not None else None
    ruled = ruled_regions(state) if state is not None else {}
    for n, region in enumerate(game_map.regions):
        label = f"{region.name} ({len(region.spaces)})"
        if summary is not None:
            _, _, h, t, doubles = summary[n]
            label += f" {h}-{t}" + (" " + _say("x2", seat=doubles) if doubles != "-" else "")
        seat = ruled.get(region.id)
        if seat is not None and state is not None:
            # At the end: the region's ruler in words, beside a token in their colour.
            label = _say("ruled-x2", region=region.name, seat=_seat(state, seat), heads=h, tails=t)
        width = 30 + 6.6 * len(label) + (18 if seat is not None else 0)
        if x + width > WIDTH - 20 and x > 24:
            x, row = 24.0, row + 1
        y = LEGEND_TOP + 20 * row
        token, shift, extra, bold = "", 0, "", ""
        if seat is not None:
            extra, shift, bold = f' ruled" data-ruler="{seat}', 18, ' font-weight="bold"'
            token = (
                f'<circle cx="{x + 26:.0f}" cy="{y - 4:.0f}" r="6" fill="{SEAT_FILL[seat]}" '
                'stroke="#2b2113" stroke-width="1"/>'
            )
        parts.append(
            f'<g class="legend{extra}" data-region="{region.id}"><rect x="{x:.0f}" y="{y - 11:.0f}" width="14" height="14" rx="3" '
            f'fill="{region.colour}" stroke="#4a3b22"/>{token}<text x="{x + 19 + shift:.0f}" y="{y:.0f}" font-size="12" '
            f'fill="#2b2113"{bold}>{escape(label)}</text></g>'
        )
        x += width
    return parts, row + 1


def _svg_open(height: float, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="100%" '
        f'font-family="Georgia, \'DejaVu Serif\', serif" role="img" aria-label="{_attr(title)}">',
        f"<title>{escape(title)}</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{MARK}"/></marker></defs>',
    ]


def svg_map(game_map: CoinAgeMap) -> str:
    """An empty map with its title, flavour and regions: the drawings on the rules page."""
    flavour = textwrap.wrap(game_map.flavour, 92)
    top = 60 + 16 * len(flavour)
    shift = top - (MAP_TOP - 52)
    body, bottom = _svg_map_body(game_map, None, None)
    parts = _svg_open(bottom + shift + 12, _say("map-title", map=game_map.title))
    parts.append(
        f'<text x="24" y="32" font-size="22" font-weight="bold" fill="#2b2113">{escape(game_map.title)}</text>'
    )
    for n, line in enumerate(flavour):
        parts.append(
            f'<text x="24" y="{54 + 16 * n}" font-size="12" font-style="italic" fill="#4a3b22">{escape(line)}</text>'
        )
    parts.append(f'<g transform="translate(0 {shift:.0f})">')
    parts.extend(body)
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


def _svg_bank(state: CoinAgeState, seat: int, y: float, last: Action | None) -> list[str]:
    name = escape(speak(_seat(state, seat)))
    bank = state.banks[seat]
    parts = [
        f'<g class="bank" data-seat="{seat}"><rect x="16" y="{y - 20}" width="76" height="32" rx="8" fill="{SEAT_FILL[seat]}"/>'
        f'<text x="54" y="{y + 1}" font-size="14" font-weight="bold" text-anchor="middle" fill="{SEAT_INK[seat]}">{name}</text>'
    ]
    x = 112.0
    for k in SLAP_ORDER:
        for _ in range(bank[k]):
            parts.append(
                _svg_coin(
                    seat << 2 | k,
                    x,
                    y - 4,
                    0.9,
                    extra=f' data-coin="{COINS[k]}" data-label="{_attr(_say("bank-coin", seat=_seat(state, seat), coin=_coin(COINS[k])))}"',
                )
            )
            x += 2 * COIN_RADIUS[k] * 0.9 + 3
        x += 8
    paid = last is not None and last.verb == "pay" and seat == 1 - state.mover
    worth = _say("coins-value", count=sum(bank), value=state.bank_value(seat))
    if paid and last:
        worth += _say("paid", coin=last.args[0])
    parts.append(
        f'<text x="{WIDTH - 20}" y="{y + 1}" font-size="12" text-anchor="end" fill="#2b2113">'
        f"{escape(worth)}</text></g>"
    )
    return parts


def _svg_slap(state: CoinAgeState, y: float) -> list[str]:
    if state.slap is None:
        return []
    side = "H" if state.mover == 0 else "T"
    said = escape(_say("slap"))
    parts = [
        f'<g class="slap"><text x="24" y="{y + 4}" font-size="12" fill="#2b2113">{said}</text>'
    ]
    x = 80.0
    for word in state.slap.text.split()[1:]:
        coin, face = word.split(":")
        k = COINS.index(coin)
        owner = 0 if face == "H" else 1
        if face == side:
            parts.append(
                f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{COIN_RADIUS[k] + 4}" fill="none" stroke="#2f9e44" stroke-width="3"/>'
            )
        parts.append(_svg_coin(owner << 2 | k, x, y))
        x += 44
    parts.append("</g>")
    return parts


def svg_board(state: State, last: Action | None = None) -> str:
    st = _as_coin_age(state)
    game_map = st.game.map
    body, bottom = _svg_map_body(game_map, st, last)
    bottom += 6
    title = _say("title", map=game_map.title, turn=st.turn)
    note = ruled_note(st)
    parts = _svg_open(bottom + 170, f"{title}. {note}" if note else title)
    parts.append(
        f'<text x="24" y="34" font-size="22" font-weight="bold" fill="#2b2113">Coin Age · {escape(game_map.title)}</text>'
        f'<text x="24" y="56" font-size="12" fill="#4a3b22">{escape(_say("turn", turn=st.turn, last=MAX_TURNS))}</text>'
    )
    for seat, score, x in zip((0, 1), st.scores(), (WIDTH - 206, WIDTH - 106), strict=True):
        parts.append(
            f'<g class="score" data-seat="{seat}"><rect x="{x}" y="12" width="92" height="34" rx="8" fill="{SEAT_FILL[seat]}"/>'
            f'<text x="{x + 46}" y="35" font-size="16" font-weight="bold" text-anchor="middle" fill="{SEAT_INK[seat]}">'
            f"{escape(_say('score', seat=_seat(st, seat), score=score))}</text></g>"
        )
    parts.extend(body)
    parts.extend(_svg_bank(st, 0, bottom + 34, last))
    parts.extend(_svg_bank(st, 1, bottom + 74, last))
    parts.extend(_svg_slap(st, bottom + 112))
    parts.append(
        f'<text class="status" x="{WIDTH - 20}" y="{bottom + 150}" font-size="13" text-anchor="end" '
        f'font-weight="bold" fill="#2b2113">{escape(status_line(st))}</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
