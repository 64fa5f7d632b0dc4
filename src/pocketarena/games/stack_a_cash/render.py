"""Drawing Stack-a-Cash: a rich picture for the terminal and an SVG card for the web and docs.

Coins are drawn as concentric discs (large, medium, small), the top coin carrying its face;
Heads coins are gold, Tails coins silver. The last move's cells are outlined, the protected
coin is marked with a padlock.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text

from pocketarena.core import TERMINAL, Action, Message, State, message, seat_name
from pocketarena.games.stack_a_cash import StackACashState
from pocketarena.games.stack_a_cash.board import CELLS, SIZE_NAMES, SIZES, stack_of
from pocketarena.messages import speak
from pocketarena.render.terminal import fold, is_compact
from pocketarena.render.words import ButtonWords

# The notation's words on the web page's buttons (pocketarena.render.words).
WORDS = ButtonWords(names={"L": "Large", "M": "Medium", "S": "Small", "flip": "and flip it"})

__all__ = ["describe", "rich_board", "svg_board"]

FACE_STYLE = ("bold black on gold1", "bold black on grey82")
FACE_FILL = ("#e0b243", "#c9d0d8")  # gold Heads, silver Tails
FACE_EDGE = ("#8a6414", "#5f6b77")
RADIUS = (44, 33, 22)  # L, M, S in SVG units (a cell is 100 wide)
LAST_STYLE = "on dark_orange3"


def _touched_cells(last: Action | None) -> set[str]:
    if last is None:
        return set()
    if last.verb == "place":
        return {last.args[1]}
    if last.verb == "flip":
        return {last.args[0]}
    return {last.args[0], last.args[1]}


def _sac(state: State) -> StackACashState:
    if not isinstance(state, StackACashState):
        raise TypeError(f"not a Stack-a-Cash state: {state!r}")
    return state


def _status(state: StackACashState) -> str:
    """The board's status line in the reader's language (its parts joined by " · ")."""
    return " · ".join(speak(part) for part in _status_parts(state))


def _status_parts(state: StackACashState) -> list[Message]:
    if state.current_player == TERMINAL:
        if state.winner_seat >= 0:
            lines = " ".join("-".join(line) for line in state.lines(state.winner_seat))
            seat = seat_name(state.game.SEATS[state.winner_seat])
            return [message("stack-a-cash.board.wins", seat=seat, lines=lines)]
        return [_draw(state.draw or "")]
    seat = seat_name(state.game.SEATS[state.current_player])
    parts = [message("stack-a-cash.board.to-move", seat=seat)]
    prot = state.position()["protected"]
    if prot:
        parts.append(message("stack-a-cash.board.protected", place=prot))
    return parts


def _draw(why: str) -> Message:
    """Why the game was drawn (the rules say it in English: worded here by its kind)."""
    if why.startswith("the same position"):
        return message("stack-a-cash.board.draw-repetition")
    if why.endswith("plies were played"):
        return message("stack-a-cash.board.draw-plies", plies=why.split()[0])
    return message("stack-a-cash.board.draw", why=why)


def _size(s: int) -> Message:
    return message(f"stack-a-cash.size.{SIZE_NAMES[s]}")


def _cell_label(state: StackACashState, i: int, cell: str, protected: bool) -> Message:
    """A cell as a screen reader says it: "b2, Heads large on a Tails medium, protected"."""
    coins = [
        message("stack-a-cash.board.coin", seat=seat_name(state.game.SEATS[face]), size=_size(s))
        for s, face in reversed(stack_of(state.cells[i]))  # seat 0 plays Heads
    ]
    what: Message = message("stack-a-cash.board.empty") if not coins else coins[-1]
    for below in reversed(coins[:-1]):
        what = message("stack-a-cash.board.on-a", top=below, below=what)
    key = "stack-a-cash.board.cell-protected" if protected else "stack-a-cash.board.cell"
    return message(key, cell=cell, what=what)


def _face_letter(face: int) -> str:
    """The letter on a coin's face, the seat's initial in the reader's language (H, T)."""
    return speak(
        message(("stack-a-cash.board.heads-letter", "stack-a-cash.board.tails-letter")[face])
    )


def _supply_text(state: StackACashState) -> str:
    left = state.supply()
    counts = "  ".join(f"{SIZES[s]}×{left[s]}" for s in range(3))
    return speak(message("stack-a-cash.board.supply-left", counts=counts))


def rich_board(state: State, last: Action | None = None, width: int = 80) -> Group:
    """The board as a rich renderable: one column per file, top coin first in each cell;
    below 80 columns without the cells' padding and with the lines under it folded."""
    sac = _sac(state)
    touched = _touched_cells(last)
    protected = sac.position()["protected"]
    compact = is_compact(width)
    table = Table(
        show_header=True, show_lines=True, header_style="bold", padding=(0, 0 if compact else 1)
    )
    table.add_column("", justify="right", style="bold")
    for file in "abc":
        table.add_column(file, justify="center", min_width=9)
    for r in (2, 1, 0):
        row: list[Text | str] = [str(r + 1)]
        for f in range(3):
            cell = CELLS[r * 3 + f]
            coins = stack_of(sac.cells[r * 3 + f])
            text = Text(justify="center")
            for depth, (s, face) in enumerate(reversed(coins)):
                label = f" {SIZES[s]} {_face_letter(face)} "
                if depth == 0:
                    text.append(label, style=FACE_STYLE[face])
                    if cell == protected:
                        protected_word = speak(message("stack-a-cash.board.protected-mark"))
                        text.append(f"\n{protected_word}", style="italic")
                else:
                    text.append("\n" + label.lower(), style="dim")
            if not coins:
                text.append("·", style="dim")
            if cell in touched:
                text.stylize(LAST_STYLE)
            row.append(text)
        table.add_row(*row)
    caption = Text(f"{_status(sac)}\n{_supply_text(sac)}")
    if any(len(stack_of(c)) > 1 for c in sac.cells):
        covered = speak(message("stack-a-cash.board.covered"))
        caption.append(f"\n{covered}", style="dim")
    if last is not None:
        said = speak(message("stack-a-cash.board.last", move=last.text))
        caption.append(f"\n{said}", style="dark_orange3")
    return Group(table, fold(caption, width) if compact else caption)


def _coin_svg(x: float, y: float, size: int, face: int, top: bool) -> str:
    r = RADIUS[size]
    parts = [
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{FACE_FILL[face]}" stroke="{FACE_EDGE[face]}" '
        f'stroke-width="2.5"/>',
        f'<circle cx="{x}" cy="{y}" r="{r - 5}" fill="none" stroke="{FACE_EDGE[face]}" '
        'stroke-width="1" stroke-dasharray="2 2" opacity="0.7"/>',
    ]
    if top:
        font = (30, 24, 18)[size]
        parts.append(
            f'<text x="{x}" y="{y + font * 0.35}" text-anchor="middle" font-size="{font}" '
            f'font-weight="bold" fill="{FACE_EDGE[face]}">{escape(_face_letter(face))}</text>'
        )
        parts.append(
            f'<text x="{x}" y="{y + r - 3}" text-anchor="middle" font-size="9" '
            f'fill="{FACE_EDGE[face]}">{SIZES[size]}</text>'
        )
    return "".join(parts)


def svg_board(state: State, last: Action | None = None) -> str:
    """A standalone SVG card of the position; each cell is a ``<g data-place="b2">``."""
    sac = _sac(state)
    touched = _touched_cells(last)
    protected = sac.position()["protected"]
    left, top, size = 30, 40, 100
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 440" '
        'font-family="Helvetica, Arial, sans-serif" role="img" '
        f'aria-label="Stack-a-Cash: {escape(_status(sac))}">',
        '<rect x="2" y="2" width="356" height="436" rx="18" fill="#f7f1e3" stroke="#7a6a4f" '
        'stroke-width="3"/>',
        '<text x="180" y="27" text-anchor="middle" font-size="17" font-weight="bold" '
        'fill="#4a3f2c">Stack-a-Cash</text>',
    ]
    for i, cell in enumerate(CELLS):
        f, r = i % 3, i // 3
        x, y = left + f * size, top + (2 - r) * size
        cx, cy = x + size / 2, y + size / 2
        mark = cell in touched
        label = escape(speak(_cell_label(sac, i, cell, cell == protected)), {'"': "&quot;"})
        out.append(
            f'<g data-place="{cell}" class="cell{" last" if mark else ""}" data-label="{label}">'
        )
        out.append(
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#efe6cf" '
            f'stroke="{"#d9661f" if mark else "#7a6a4f"}" stroke-width="{4 if mark else 1.5}"/>'
        )
        coins = stack_of(sac.cells[i])
        for depth, (s, face) in enumerate(coins):
            out.append(_coin_svg(cx, cy, s, face, top=depth == len(coins) - 1))
        if cell == protected:
            lock = escape(speak(message("stack-a-cash.board.protected-mark")))
            out.append(
                f'<g class="lock"><title>{lock}</title><rect x="{x + 78}" y="{y + 8}" width="14" height="11" '
                f'rx="2" fill="#4a3f2c"/><path d="M{x + 81} {y + 8} v-4 a4 4 0 0 1 8 0 v4" '
                'fill="none" stroke="#4a3f2c" stroke-width="2"/></g>'
            )
        out.append("</g>")
    for f in range(3):
        out.append(
            f'<text x="{left + f * size + size / 2}" y="{top + 3 * size + 16}" text-anchor="middle" '
            f'font-size="13" fill="#7a6a4f">{"abc"[f]}</text>'
        )
    for r in range(3):
        out.append(
            f'<text x="{left - 12}" y="{top + (2 - r) * size + size / 2 + 5}" text-anchor="middle" '
            f'font-size="13" fill="#7a6a4f">{r + 1}</text>'
        )
    # The supply: what is left to place, largest first.
    left_in_supply = sac.supply()
    supply = escape(speak(message("stack-a-cash.board.supply")))
    # Ends just before the first coin, so a longer word (Arabic's) grows leftwards, not into it.
    out.append(
        f'<text x="64" y="394" text-anchor="end" font-size="12" fill="#7a6a4f">{supply}</text>'
    )
    in_supply = [
        escape(speak(message("stack-a-cash.board.in-supply", size=_size(s))), {'"': "&quot;"})
        for s in range(3)
    ]
    sx = 90.0
    for s in range(3):
        for k in range(left_in_supply[s]):
            radius = RADIUS[s] * 0.42
            out.append(
                f'<circle cx="{sx}" cy="390" r="{radius:.1f}" fill="#ffffff" stroke="#7a6a4f" '
                f'stroke-width="1.5" data-size="{SIZES[s]}" data-supply="{k}" '
                f'data-label="{in_supply[s]}"/>'
            )
            out.append(
                f'<text x="{sx}" y="{390 + 4}" text-anchor="middle" font-size="10" '
                f'fill="#4a3f2c">{SIZES[s]}</text>'
            )
            sx += 2 * radius + 12
    # The status on one line, or on two (split at " · ") when it would not fit the card;
    # counted in cells, as Japanese and Chinese letters are twice as wide as Latin ones.
    status = _status(sac)
    rows = [status] if cell_len(status) <= 48 else status.split(" · ", 1)
    for n, row in enumerate(rows):
        out.append(
            f'<text x="180" y="{432 - 13 * (len(rows) - 1 - n) if len(rows) > 1 else 428}" '
            f'text-anchor="middle" font-size="{12 if len(rows) > 1 else 13}" fill="#4a3f2c">'
            f"{escape(row)}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def describe(action: Action, state: State | None = None) -> str:
    """``describe_message`` worded in the reader's language (English unless one is in use)."""
    return speak(describe_message(action, state))


def describe_message(action: Action, state: State | None = None) -> Message:
    """A short sentence for an action, e.g. 'Heads moves the top coin from b2 to c3 and flips
    it'; the mover is named when ``state`` (the state it is played in) is given."""
    mover = state.current_player if state is not None else TERMINAL
    # Without the state the mover is unknown: the sentence starts at its verb.
    who: dict[str, Message] = {}
    if state is not None and mover >= 0:
        who = {"seat": seat_name(state.game.SEATS[mover])}
    kind = "" if who else "-anyone"
    if action.verb == "place":
        size, cell = action.args
        return message(
            f"stack-a-cash.says.place{kind}",
            size=message(f"stack-a-cash.size.{SIZE_NAMES[SIZES.index(size)]}"),
            place=cell,
            **who,
        )
    if action.verb == "flip":
        return message(f"stack-a-cash.says.flip{kind}", place=action.args[0], **who)
    src, dst, turn = action.args
    verb = "move-flip" if turn else "move"
    return message(f"stack-a-cash.says.{verb}{kind}", start=src, end=dst, **who)
