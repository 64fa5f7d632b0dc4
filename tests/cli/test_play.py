"""``pocketarena play``, driven with scripted keyboard input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.core import possessive
from pocketarena.records import load
from tests.conftest import all_variants, variant_id

from .helpers import assert_clean_error, keep_pressing, play_vs_random, run, saved_path

CASES = [("coin-race", {}), *all_variants()]


def _option_args(options: dict[str, Any]) -> list[str]:
    """Options as a person types them: ``--option name=value``."""
    args: list[str] = []
    for name, value in options.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, dict | list):
            text = json.dumps(value)
        else:
            text = str(value)
        args += ["--option", f"{name}={text}"]
    return args


@pytest.mark.parametrize("variant", CASES, ids=[variant_id(v) for v in CASES])
def test_a_whole_game_against_random(variant: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    game_id, options = variant
    game = pa.load(game_id, **options)
    save = tmp_path / "game.json"
    result = run(
        "play",
        game_id,
        *_option_args(options),
        "--vs",
        "random",
        "--seed",
        "7",
        "--save",
        str(save),
        input=keep_pressing(game),
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert " wins, " in result.output or "Draw, 1/2-1/2" in result.output
    assert saved_path(result.output) == save
    record = load(save)
    final = record.replay()
    assert final.is_terminal()
    assert (
        record.seed == 7 and record.players[1].kind == "bot" and record.players[1].name == "random"
    )
    assert record.players[0].kind == "human"
    check = run("replay", str(save), "--check")
    assert check.exit_code == 0 and check.output.startswith(f"ok: {game_id}: ")


def test_the_same_seed_gives_the_same_game(tmp_path: Path, coin_race: pa.Game) -> None:
    moves = []
    for name in ("a.txt", "b.txt"):
        run(
            "play",
            "coin-race",
            "--vs",
            "random",
            "--seed",
            "5",
            "--save",
            str(tmp_path / name),
            input=keep_pressing(coin_race),
        )
        moves.append(load(tmp_path / name).moves)
    assert moves[0] == moves[1]


def test_bad_entries_get_one_line_and_the_prompt_again(tmp_path: Path) -> None:
    script = "\n".join(["hello", "", "moves", "xyzzy", "add 3", "9", "help", "1", "quit"]) + "\n"
    result = run(
        "play",
        "coin-race",
        "--vs",
        "random",
        "--seed",
        "3",
        "--save",
        str(tmp_path / "g.txt"),
        input=script,
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out
    assert "Press Enter to throw the coins (or type help)." in out
    assert "Throw: flip T" in out  # seed 3 throws tails first
    assert "  1. add 1\n  2. add 2\n" in out
    assert "'xyzzy' starts with an unknown word 'xyzzy'; actions start with: add, flip" in out
    assert "add 3 needs heads on this turn's flip" in out
    assert "there is no move 9; moves are numbered 1 to 2" in out
    assert "undo    take back your last move" in out
    assert "Heads (you) plays add 1" in out
    assert "Game stopped unfinished." in out
    record = load(saved_path(out))
    assert record.moves[:2] == ["flip T", "add 1"]
    assert (record.result, record.termination) == ("*", "abandoned")
    record.replay()


def test_undo_takes_back_the_move_and_the_reply(tmp_path: Path) -> None:
    # Throw, play add 1, let the bot reply, then take both back and play add 2 instead.
    script = "\n".join(["", "1", "undo", "undo", "2", "resign", "y"]) + "\n"
    save = tmp_path / "g.json"
    result = run(
        "play", "coin-race", "--vs", "random", "--seed", "3", "--save", str(save), input=script
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Took back 3 moves." in out
    assert "there is no move of yours to take back" in out
    record = load(save)
    assert record.moves[:2] == ["flip T", "add 2"]
    assert record.moves[2] == "flip T", "the bot's throw is the same after undo"
    assert (record.result, record.termination) == ("0-1", "resignation")
    assert "Heads (you) resigns: Tails (random) wins, 0-1." in out
    assert run("replay", str(save), "--check").exit_code == 0


def test_playing_second_lets_the_bot_throw_and_move_first(tmp_path: Path) -> None:
    result = run(
        "play",
        "coin-race",
        "--seat",
        "second",
        "--vs",
        "random",
        "--seed",
        "3",
        "--save",
        str(tmp_path / "g.txt"),
        input="",
    )
    out = result.output
    assert "Heads (random) vs Tails (you)" in out
    assert out.index("Throw: flip T") < out.index("Heads (random) plays")
    assert "Press Enter to throw the coins>" in out  # then the person's own throw
    assert load(saved_path(out)).players[0].kind == "bot"


def test_both_seats_on_one_screen(tmp_path: Path, coin_race: pa.Game) -> None:
    result = run(
        "play",
        "coin-race",
        "--vs",
        "human",
        "--seed",
        "1",
        "--name",
        "kim",
        "--save",
        str(tmp_path / "g.txt"),
        input=keep_pressing(coin_race),
    )
    out = result.output
    assert result.exit_code == 0, out
    # Two people at one screen: the prompt names the seat, nothing more.
    assert "Heads to move>" in out and "Tails to move>" in out
    assert "Heads (" not in out and "Tails (" not in out and "human" not in out
    record = load(saved_path(out))
    assert [(p.name, p.kind) for p in record.players] == [("kim", "human"), ("kim", "human")]
    assert record.replay().is_terminal()


def test_default_record_goes_to_the_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = run("play", "coin-race", "--seed", "2", "--vs", "random", input="\n1\nresign\ny\n")
    path = saved_path(result.output)
    assert path.parent == tmp_path / "pocketarena" / "games"
    assert path.name.startswith("coin-race-") and path.suffix == ".txt"
    assert load(path).termination == "resignation"


def test_nothing_saved_when_nothing_was_played(tmp_path: Path) -> None:
    result = run(
        "play", "coin-race", "--vs", "random", "--save", str(tmp_path / "g.txt"), input="quit\n"
    )
    assert "No moves were played; nothing saved." in result.output
    assert not (tmp_path / "g.txt").exists()


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["play", "chess"], ["unknown game 'chess'; valid games:", "coin-race"]),
        (
            ["play", "coin-race", "--mode", "tactical"],
            ["unknown option 'mode' for coin-race; valid options: goal"],
        ),
        (["play", "coin-race", "-o", "goal=ten"], ["option 'goal' must be an integer, got 'ten'"]),
        (["play", "coin-race", "--option", "goal"], ["option 'goal' must look like name=value"]),
        (
            ["play", "coin-race", "--vs", "clever"],
            ["unknown bot 'clever'; valid bots:", "(or human)"],
        ),
        (
            ["play", "bare-race", "--vs", "greedy"],
            ["the greedy bot needs a heuristic for bare-race"],
        ),
    ],
)
def test_bad_requests_are_one_clean_line(
    args: list[str], fragments: list[str], bare_race: pa.Game
) -> None:
    assert_clean_error(run(*args), 2, *fragments)


def test_moves_can_be_filtered_by_words(tmp_path: Path) -> None:
    script = "\n".join(["", "moves 2", "moves ADD", "moves jump"]) + "\n"
    out = run(
        "play",
        "coin-race",
        "--vs",
        "random",
        "--seed",
        "3",
        "--save",
        str(tmp_path / "g.txt"),
        input=script,
    ).output
    assert "  2. add 2\n" in out and "  1. add 1\n  2. add 2\n" in out
    assert "No legal move contains 'jump'." in out
    assert out.count("1. add 1") == 1, (
        "the filter on '2' keeps only move 2, numbered as in the full list"
    )


def test_coin_age_moves_may_use_the_map_numbers(tmp_path: Path) -> None:
    """The terminal map numbers the spaces; "place N 3" means the third space."""
    save = tmp_path / "g.txt"
    script = "\n".join(["", "moves place", "place N 3", "quit"]) + "\n"
    out = run(
        "play", "coin-age", "--vs", "human", "--seed", "1", "--save", str(save), input=script
    ).output
    assert "Heads plays place N stone-rock  Heads places a nickel on Stone Rock" in out
    assert "the mover" not in out
    assert load(save).moves[1] == "place N stone-rock"


def test_names_ending_in_s_take_the_apostrophe_alone() -> None:
    """ "Heads' quarter", "Tails' turn", but "Blue's": wherever a seat's name is possessive."""
    assert possessive("Heads") == "Heads'" and possessive("Blue") == "Blue's"
    state = pa.load("coin-age").new_initial_state()
    state.apply("slap Q:H N:H P:T D:T")
    with pytest.raises(pa.IllegalActionError, match="it is Heads' turn to decide"):
        state.apply("slap Q:H N:H P:T D:T")


@pytest.mark.parametrize(
    ("answer", "ends"),
    [
        ("y", ("0-1", "resignation")),
        ("YES", ("0-1", "resignation")),
        ("n", ("*", "abandoned")),
        ("", ("*", "abandoned")),
        ("maybe", ("*", "abandoned")),
    ],
)
def test_resign_asks_first_and_only_yes_resigns(
    answer: str, ends: tuple[str, str], tmp_path: Path
) -> None:
    save = tmp_path / "g.txt"
    # Throw, play add 1, then resign and answer; whatever does not resign is followed by quit.
    script = "\n".join(["", "1", "resign", answer, "quit"]) + "\n"
    result = play_vs_random("coin-race", save, 3, script)
    out = result.output
    assert result.exit_code == 0, out
    assert "Resign the game? (y/N)>" in out
    record = load(save)
    assert (record.result, record.termination) == ends
    if ends[0] == "*":
        assert "Not resigned; the game goes on." in out
        assert "resigns" not in out


def test_the_end_of_input_at_the_resign_question_leaves_the_game(tmp_path: Path) -> None:
    save = tmp_path / "g.txt"
    result = play_vs_random("coin-race", save, 3, "\n1\nresign\n")
    assert result.exit_code == 0, result.output
    assert "Resign the game? (y/N)>" in result.output
    record = load(save)
    assert (record.result, record.termination) == ("*", "abandoned")
    assert "Game stopped unfinished." in result.output


def test_tactical_flipwars_names_its_two_scores_and_its_tiles(tmp_path: Path) -> None:
    """A series counts round wins, the board this round's tiles: each is named, and the tiles'
    short names (TNK, RKT…) are spelled out under the board."""
    out = play_vs_random("flipwars", tmp_path / "g.txt", 1, "quit\n", "--mode", "tactical").output
    assert "Rounds won  Blue 0 · Red 0" in out
    assert "Score  Blue" not in out
    assert "tiles Blue 0 - Red 0" in out
    assert "TNK tank" in out and "RKT rocket" in out
    single = play_vs_random("flipwars", tmp_path / "h.txt", 1, "quit\n", "--mode", "standard")
    assert "Score  Blue 0 · Red 0" in single.output  # one round: the score is the tiles


def test_coin_age_lists_each_space_s_connections_under_the_map(tmp_path: Path) -> None:
    out = play_vs_random("coin-age", tmp_path / "g.txt", 1, "quit\n").output
    game = pa.load("coin-age")
    assert "next to" in out
    for i, space in enumerate(game.map.spaces):
        numbers = " ".join(str(game.map.index(t) + 1) for t in game.map.neighbours(space.id))
        row = next(line for line in out.splitlines() if line.split()[:2] == [str(i + 1), space.id])
        assert row.rstrip().endswith(numbers), row


class Recorded:
    """A pager that keeps what it is given (rich's Pager protocol)."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    def show(self, content: str) -> None:
        self.shown.append(content)


@pytest.mark.parametrize(("game_id", "paged"), [("flipwars", True), ("stack-a-cash", False)])
def test_moves_too_long_for_the_terminal_are_paged(
    monkeypatch: pytest.MonkeyPatch, game_id: str, paged: bool
) -> None:
    """On a terminal 24 lines high, ``moves`` at a FlipWars opening (hundreds of moves, in
    columns) goes through the pager, its start kept; Stack-a-Cash's opening list fits and is
    printed as it is."""
    import io

    from rich.console import Console

    from pocketarena.cli import play

    screen = Console(file=io.StringIO(), force_terminal=True, width=80, height=24)
    pager = Recorded()
    monkeypatch.setattr(play, "console", screen)
    monkeypatch.setattr(play, "PAGER", pager)
    match, humans = play._new_match(game_id, None, None, None, None, "random", None, 1, None)
    terminal = play.TerminalGame(match, humans)
    terminal.list_moves()
    printed = screen.file.getvalue()  # type: ignore[attr-defined]
    if paged:
        assert len(pager.shown) == 1 and "place tank a1 r0" in pager.shown[0], printed[:200]
        assert pager.shown[0].count("\n") > 24 and "place " not in printed
    else:
        assert pager.shown == [] and "place L a1" in printed
