"""Drawing Coin Race: the two totals as runs of steps towards the goal, in the terminal and as
SVG, and a sentence for each action."""

from __future__ import annotations

from xml.sax.saxutils import escape

from rich.text import Text

from pocketarena.core import CHANCE, TERMINAL, Action, State

SEAT_FILL = ("#e8b923", "#40566e")


def rich_board(state: State, last: Action | None = None) -> Text:
    goal = int(state.game.options["goal"])
    text = Text()
    for seat, total in enumerate(state.position()["totals"]):
        steps = "■" * min(total, goal) + "·" * max(goal - total, 0)
        text.append(f"{state.game.SEATS[seat]:<6} {steps} {total}/{goal}\n")
    text.append(_status(state))
    if last is not None:
        text.append(f"\nlast: {describe(last)}")
    return text


def svg_board(state: State, last: Action | None = None) -> str:
    goal = int(state.game.options["goal"])
    width = 40 + 24 * goal
    rows = []
    for seat, total in enumerate(state.position()["totals"]):
        y = 20 + 40 * seat
        for step in range(goal):
            fill = SEAT_FILL[seat] if step < total else "#eeeeee"
            rows.append(
                f'<rect x="{20 + 24 * step}" y="{y}" width="20" height="28" fill="{fill}"/>'
            )
    caption = escape(_status(state) + (f" · last: {describe(last)}" if last else ""))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} 120" role="img" '
        f'aria-label="{caption}">{"".join(rows)}'
        f'<text x="20" y="110" font-size="13">{caption}</text></svg>'
    )


def describe(action: Action) -> str:
    if action.chance:
        return "the coin lands heads: up to 3" if action.args[0] == "H" else "the coin lands tails"
    return f"runs {action.args[0]} step{'s' if action.args[0] > 1 else ''}"


def _status(state: State) -> str:
    seats = state.game.SEATS
    if state.current_player == TERMINAL:
        winner = state.winner()
        return f"{seats[winner]} wins" if winner is not None else "a draw"
    mover = state.position()["mover"]
    if state.current_player == CHANCE:
        return f"{seats[mover]} flips the coin"
    return f"{seats[mover]} to run"
