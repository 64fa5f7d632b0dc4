"""What the terminal shows fits 80 columns: boards, rules pages and tables are laid out for it,
never folded by the terminal (a folded diagram is garbage; a cut label says nothing)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.markdown import Markdown

import pocketarena as pa
from pocketarena.cli import drawing
from pocketarena.cli.balance import print_balance
from pocketarena.cli.play import header
from pocketarena.core import message
from pocketarena.messages import speak
from tests.cli.helpers import run
from tests.conftest import all_variants, variant_id

ROOT = Path(__file__).resolve().parents[2]
BOX = re.compile(r"[│┃╭╮╰╯─━┏┓┗┛┡┩┣┫╇╈┳┻┼├┤┬┴└┘┌┐═╞╡╪]")
VARIANTS = all_variants()


def rendered(thing: Any, width: int) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    console.print(thing)
    text = console.export_text()
    console.file.close()
    return text


def words_per_line(text: str) -> list[list[str]]:
    """Each non-empty line as its words, rules and borders left out: the same at 80 columns
    as on a wide screen unless something was folded."""
    lines = [BOX.sub(" ", line).split() for line in text.splitlines()]
    return [line for line in lines if line]


def only_prose_wrapped(narrow: list[list[str]], wide: list[list[str]]) -> bool:
    """Is ``narrow`` ``wide`` with only sentences wrapped onto the next line? A sentence
    (ending in a full stop) may wrap; a table or diagram squeezed into fewer columns
    interleaves its cells, and a list or a line of figures folded anywhere reads badly."""
    i = 0
    for target in wide:
        got: list[str] = []
        while got != target:
            if i >= len(narrow) or (got and not target[-1].endswith(".")):
                return False
            got += narrow[i]
            i += 1
            if target[: len(got)] != got:
                return False
    return i == len(narrow)


def positions(game: pa.Game, seed: int) -> list[pa.State]:
    """The start and a few positions of one random game, the end among them."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = [state.clone()]
    while not state.is_terminal():
        state.apply_random(rng)
        if state.ply % 7 == 0:
            seen.append(state.clone())
    return [*seen[:: max(1, len(seen) // 5)], state]


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_boards_fit_80_columns(variant: tuple[str, dict[str, Any]]) -> None:
    game = pa.load(variant[0], **variant[1])
    for state in positions(game, seed=3):
        last = state.history[-1] if state.history else None
        board = drawing.board(state, last=last)
        narrow = rendered(board, 80)
        wide = words_per_line(rendered(board, 160))
        assert only_prose_wrapped(words_per_line(narrow), wide), narrow


@pytest.mark.parametrize("width", [40, 60, 80, 120])
@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_boards_fit_the_terminal(variant: tuple[str, dict[str, Any]], width: int) -> None:
    """Drawn for a terminal ``width`` columns wide (a compact form below 80), a board is
    shown there as it is on an unbounded screen: nothing folded but sentences, no line cut."""
    game = pa.load(variant[0], **variant[1])
    for state in positions(game, seed=3):
        last = state.history[-1] if state.history else None
        board = drawing.board(state, last=last, width=width)
        shown = rendered(board, width)
        unbounded = rendered(board, 1000)
        assert only_prose_wrapped(words_per_line(shown), words_per_line(unbounded)), shown


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_the_play_header_fits_80_columns(variant: tuple[str, dict[str, Any]]) -> None:
    """``play`` opens with the title and seed, then the options on lines of their own,
    wrapped between options (a line longer than the terminal is folded mid-word)."""
    game = pa.load(variant[0], **variant[1])
    lines = header(game, 2**64 - 1, 80)
    assert lines[0].startswith(f"{game.TITLE}  (seed 18446744073709551615;")
    assert all(len(line) <= 80 for line in lines), lines
    options = " ".join(lines[1:])
    assert "null" not in options and ",," not in options
    for name, value in game.options.items():
        assert (f"{name}=" in options) == (value is not None), (name, lines)


def test_the_wallet_battles_game_opens_within_80_columns(tmp_path: Path) -> None:
    save = str(tmp_path / "w.txt")
    out = run("play", "wallet-battles", "--seed", "5", "--save", save, input="quit\n").output
    lines = out.splitlines()
    assert lines[:2] == [
        "Wallet Battles  (seed 5; type help for commands)",
        'Options: map=gettysburg, coins={"Q": 6, "N": 6, "P": 6, "D": 6}, end=used',
    ]
    assert max(len(line) for line in lines) <= 80, out
    assert header(pa.load("wallet-battles"), 5, 40)[1:] == [
        "Options: map=gettysburg,",
        '  coins={"Q": 6, "N": 6, "P": 6, "D": 6},',
        "  end=used",
    ]
    coin_age = run("play", "coin-age", "--seed", "5", "--save", save, input="quit\n").output
    assert coin_age.splitlines()[1] == "Options: map=classic"  # no seed=null on a fixed map
    drawn = header(pa.load("coin-age", map="random", seed=5), 5)[1]
    assert drawn.startswith("Options: map=") and drawn.endswith(", seed=5")


@pytest.mark.parametrize("page", sorted((ROOT / "docs" / "rules").rglob("*.md")), ids=str)
def test_rules_diagrams_fit_80_columns(page: Path) -> None:
    """``pocketarena rules`` draws code blocks with a margin: 78 columns are theirs."""
    text = page.read_text(encoding="utf-8")
    shown = [line.rstrip() for line in rendered(Markdown(text), 80).splitlines()]
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    assert blocks
    for block in blocks:
        for line in block.splitlines():
            assert not line.strip() or any(line.rstrip() in s for s in shown), line


def test_balance_labels_are_whole_at_80_columns(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each variant is named by its values under a heading that names the options, broken
    between values only: no label cut short ("map=clas…"), no value folded ('coins={"Q": 6,')."""

    def variant(options: dict[str, Any]) -> dict[str, Any]:
        return {
            "label": "",
            "options": options,
            "first_seat": {"score": 0.5, "score_ci": [0.34, 1.0]},
            "draw_rate": 0.0,
            "plies": {"median": 93.5, "q1": 76.25, "q3": 110.75},
            "margin": {"mean": -13.5, "sd": 6.25},
            "winning_margin": {"median": 16.5},
        }

    def shown(option_sets: list[dict[str, Any]]) -> list[str]:
        data = {"game": "g", "bot": "medium", "games_per_variant": 100}
        data["variants"] = [variant(o) for o in option_sets]  # type: ignore[assignment]
        console = Console(width=80, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
        monkeypatch.setattr("pocketarena.cli.balance.console", console)
        print_balance(json.loads(json.dumps(data)))
        text = console.export_text()
        console.file.close()
        assert "…" not in text and "{" not in text and "=" not in text
        assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
        return [line.split("  ")[0] for line in text.splitlines()]

    lines = shown([{"protect": "touched"}, {"protect": "placed"}])
    assert "protect" in lines and "touched" in lines and "placed" in lines
    lines = shown([{"map": "sterling-strait"}, {"map": "classic"}])
    assert "sterling-strait" in lines and "classic" in lines
    six, two = {c: 6 for c in "QNPD"}, {"Q": 2, "N": 0, "P": 2, "D": 1}
    lines = shown(
        [
            {"map": "gettysburg", "end": "used", "coins": six},
            {"map": "gettysburg", "end": "occupied", "coins": six},
            {"map": "antietam", "coins": two},
        ]
    )
    assert "map · end · coins" in lines
    rows = lines[lines.index("map · end · coins") + 2 :]
    assert [row for row in rows if row and not row.startswith("(")] == [
        "gettysburg · used ·",
        "6 each",
        "gettysburg ·",
        "occupied · 6 each",
        "antietam ·",
        "Q2 N0 P2 D1",
    ]


def test_games_lines_fit_80_columns() -> None:
    """``pocketarena games`` piped or in an 80-column terminal: no line longer, long
    descriptions wrapped under their first words, no trailing spaces."""
    out = run("games").output
    assert "coin-age  Coin Age" in out
    for line in out.splitlines():
        assert len(line) <= 80, line
        assert line == line.rstrip(), repr(line)


def test_rules_piped_are_not_padded() -> None:
    out = run("rules", "flipwars").output
    assert "FlipWars" in out
    assert [line for line in out.splitlines() if line != line.rstrip()] == []


def test_serve_start_up_line_keeps_the_address_whole(tmp_path: Path) -> None:
    """A long database URL folds the line, never the address in it (rich soft wrap)."""
    import subprocess
    import sys

    from tests.services import free_port

    port = free_port()
    url = f"sqlite:///{tmp_path / ('a-long-folder-name-' * 4)}/x.sqlite3"
    (tmp_path / ("a-long-folder-name-" * 4)).mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pocketarena", "serve", "--port", str(port), "--database-url", url],
        env={
            **__import__("os").environ,
            "COLUMNS": "40",
            "PYTHONPATH": str(ROOT / "src"),
            "POCKETARENA_DATA_DIR": str(tmp_path),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    assert first.startswith(f"Pocket Arena on http://localhost:{port}  (database: {url}"), first


@pytest.mark.parametrize("lang", ["en", "fr", "ja", "ar"])
@pytest.mark.parametrize("width", [40, 60, 80])
def test_the_play_help_fits_the_terminal(width: int, lang: str) -> None:
    """``help`` while playing, laid out for the terminal: no line wider than it (the
    message's lines reach 88 columns, which the terminal folded anywhere), each command at
    the start of its line and its description folded under itself."""
    from rich.cells import cell_len

    from pocketarena import i18n
    from pocketarena.cli.play import COMMANDS, help_layout, help_text

    with i18n.use_locale(lang):
        lines = help_layout(help_text(), width).plain.splitlines()
    assert all(cell_len(line) <= width for line in lines), lines
    starts = [line.split()[0] for line in lines if re.match(r"  \S", line)]
    assert starts == list(COMMANDS), lines
    after = [line for line in lines if line.startswith("   ")]  # a description going on
    assert all(re.match(r" {8,}\S", line) for line in after), after


COIN_AGE = [v for v in VARIANTS if v[0] == "coin-age"]


@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("variant", COIN_AGE, ids=[variant_id(v) for v in COIN_AGE])
def test_coin_ages_banks_keep_their_worth_whole(
    variant: tuple[str, dict[str, Any]], width: int
) -> None:
    """A bank's worth ("(8 coins, value 15)") is on one line: the board folds its own lines
    for the width, so a break inside it was the drawing's (at 40 columns it broke after
    "coins,")."""
    game = pa.load(variant[0], **variant[1])
    for state in positions(game, seed=3):
        last = state.history[-1] if state.history else None
        shown = rendered(drawing.board(state, last=last, width=width), width)
        for seat in (0, 1):
            worth = speak(
                message(
                    "coin-age.board.coins-value",
                    count=sum(state.banks[seat]),
                    value=state.bank_value(seat),
                )
            )
            assert any(f"({worth})" in line for line in shown.splitlines()), shown


WALLET_BATTLES = [v for v in VARIANTS if v[0] == "wallet-battles"]


@pytest.mark.parametrize("width", [40, 60])
@pytest.mark.parametrize("variant", WALLET_BATTLES, ids=[variant_id(v) for v in WALLET_BATTLES])
def test_wallet_battles_narrow_board_says_which_letter_is_which_side(
    variant: tuple[str, dict[str, Any]], width: int
) -> None:
    """Below 80 columns the sides are letters (U, C) on the locations and in the table; a
    legend under the table names them."""
    game = pa.load(variant[0], **variant[1])
    state = game.new_initial_state()
    shown = " ".join(rendered(drawing.board(state, width=width), width).split())
    for side, face in (("Union", "Heads"), ("Confederacy", "Tails")):
        assert f"{side[0]} {side} ({face})" in shown, shown
