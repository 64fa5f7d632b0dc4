"""The ``arena``, ``balance`` and ``analyze`` commands, and their clean errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.arena.balance import make_tasks, variant_label, variant_values, variants
from pocketarena.records import Player, Record, load
from tests.arena.interrupt import interrupt_arena
from tests.bots.scenarios import find, has_threat_to_block, immediate, threats
from tests.cli.helpers import assert_clean_error, run


def test_arena_command_prints_and_saves_everything(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "--bots",
        "random,greedy,mcts:30",
        "--games",
        "2",
        "--jobs",
        "2",
        "--seed",
        "5",
        "--out",
    ]
    result = run("arena", "stack-a-cash", *args, str(out))
    assert result.exit_code == 0, result.output
    assert "standings" in result.output and "pairings" in result.output
    data = json.loads((out / "summary.json").read_text())
    assert data["bots"] == ["random", "greedy", "mcts:30"] and data["games"] == 6
    assert data["seed"] == 5 and data["jobs"] == 2
    assert len(list((out / "records").iterdir())) == 6
    for stem in ("scores", "ratings"):
        assert (out / f"{stem}.png").is_file() and (out / f"{stem}.svg").is_file()


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--bots", "random,wizard"], ["unknown bot 'wizard'; valid bots:"]),
        (
            ["--bots", "random,mcts:lots"],
            ["bot 'mcts:lots': after 'mcts:' give a positive whole number"],
        ),
        (["--bots", "random"], ["an arena needs at least two bots"]),
        (["--bots", "random,random"], ["'random' is listed twice"]),
        (
            ["--bots", "random,perfect", "--map", "classic"],
            ["unknown option 'map' for stack-a-cash"],
        ),
        (["--bots", "random,greedy", "--games", "0"], ["--games must be at least 1"]),
        (["--bots", "random,greedy", "--jobs", "0"], ["--jobs must be at least 1"]),
    ],
)
def test_arena_errors_are_one_clean_line(
    args: list[str], fragments: list[str], tmp_path: Path
) -> None:
    result = run("arena", "stack-a-cash", *args, "--out", str(tmp_path / "x"))
    assert_clean_error(result, 2, *fragments)
    assert not (tmp_path / "x").exists()


def test_arena_unknown_game() -> None:
    assert_clean_error(run("arena", "chess"), 2, "unknown game 'chess'; valid games:")


def balance(tmp_path: Path, bot: str, games: int) -> tuple[Path, dict[str, Any]]:
    """``balance stack-a-cash`` with one job and no records: where it wrote, and its JSON."""
    out = tmp_path / "bal"
    args = ["--bot", bot, "--games", str(games), "--jobs", "1", "--no-records", "--out"]
    result = run("balance", "stack-a-cash", *args, str(out))
    assert result.exit_code == 0, result.output
    return out, json.loads((out / "balance.json").read_text())


def test_balance_command_measures_each_variant(tmp_path: Path) -> None:
    out, data = balance(tmp_path, "greedy", 3)
    assert data["format"] == "pocketarena-balance" and data["bot"] == "greedy"
    labels = [v["label"] for v in data["variants"]]
    assert labels == ["protect=touched", "protect=placed"]
    for v in data["variants"]:
        first = v["first_seat"]
        assert first["games"] == 3 and first["wins"] + first["draws"] + first["losses"] == 3
        assert v["first_seat_advantage"] == pytest.approx(first["score"] - 0.5, abs=1e-4)
        assert v["plies"]["min"] <= v["plies"]["median"] <= v["plies"]["max"]
        assert set(v["margin"]) >= {"mean", "sd", "q1", "median", "q3"}
    for stem in ("first-seat", "length", "margin"):
        assert (out / f"{stem}.png").is_file() and (out / f"{stem}.svg").is_file()
    assert not (out / "records").exists()


def test_balance_plots_a_one_sided_game(tmp_path: Path) -> None:
    # Perfect self-play: Heads wins every game with protect=touched, every game is drawn with
    # protect=placed. The intervals then end at their own estimate, which the plot must take.
    out, data = balance(tmp_path, "perfect", 4)
    touched, placed = data["variants"]
    assert touched["first_seat"]["wins"] == 4 and touched["first_seat"]["score"] == 1.0
    assert placed["first_seat"]["draws"] == 4 and placed["draw_rate"] == 1.0
    assert (out / "first-seat.png").read_bytes()[:4] == b"\x89PNG"


def test_balance_options_narrow_the_variants() -> None:
    assert variants("flipwars", {}) == [dict(v) for v in pa.GAMES["flipwars"].VARIANTS]
    assert variants("flipwars", {"mode": "tactical"}) == [
        {"mode": "tactical"},
        {"mode": "tactical", "series": False},
    ]
    assert variants("flipwars", {"mode": "tactical", "series": "false"}) == [
        {"mode": "tactical", "series": False}
    ]
    assert variants("coin-age", {"map": "mint-isle"}) == [{"map": "mint-isle"}]
    with pytest.raises(ValueError, match="map='atlantis' is not valid"):
        variants("coin-age", {"map": "atlantis"})


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--bot", "wizard"], ["unknown bot 'wizard'"]),
        (["--map", "atlantis"], ["coin-age option map='atlantis' is not valid"]),
        (["--games", "0"], ["--games must be at least 1"]),
        (["-o", "nonsense"], ["option 'nonsense' must look like name=value"]),
    ],
)
def test_balance_errors(args: list[str], fragments: list[str]) -> None:
    assert_clean_error(run("balance", "coin-age", *args), 2, *fragments)


def blunder_record(path: Path) -> tuple[Path, int]:
    game = pa.load("stack-a-cash")
    state = find(game, has_threat_to_block, seed=4, max_legal=40)
    state.apply(next(m for m, loses in threats(state).items() if loses))
    ply = state.ply
    state.apply(next(a for a, r in immediate(state).items() if r == 1.0))
    record = Record.from_state(state, players=[Player("ann"), Player("bob")])
    return record.save(path), ply


def test_analyze_marks_the_blunder_and_writes_an_annotated_record(tmp_path: Path) -> None:
    path, ply = blunder_record(tmp_path / "game.txt")
    out = tmp_path / "annotated.txt"
    result = run("analyze", str(path), "--bot", "mcts:1500", "--out", str(out))
    assert result.exit_code == 0, result.output
    # Stack-a-Cash is judged by its solution whoever the analyst: exact, and one blunder.
    words = " ".join(result.output.split())
    assert "analysis by mcts:1500" in words and "blunders (??) 1" in words
    assert "Every value is the expected score of Heads" in words
    annotated = load(out)
    assert annotated.headers["Annotator"] == "mcts:1500"
    marks = [t for n, t in annotated.comments if n == ply]
    assert len(marks) == 1 and marks[0].startswith("?? ")
    result = run("analyze", str(path), "--json")
    data = json.loads(result.output)
    assert isinstance(data, list) and len(data) == len(load(path).moves)
    assert set(data[0]) == {
        "ply",
        "seat",
        "move",
        "value_before",
        "value_after",
        "best",
        "best_value",
        "loss",
        "mark",
    }
    blunder = data[ply - 1]
    assert blunder["mark"] == "??" and blunder["loss"] >= 0.5
    # The first seat's expected score: the blunderer's side loses it all.
    assert blunder["value_after"] == (0.0 if blunder["seat"] == 0 else 1.0)


@pytest.mark.parametrize(
    "args, code, fragments",
    [
        (["--bot", "greedy"], 2, ["bot 'greedy' cannot explain its moves"]),
        (["--bot", "wizard"], 2, ["unknown bot 'wizard'"]),
        (["--blunder", "0.05"], 2, ["0 < inaccuracy <= mistake <= blunder <= 1"]),
    ],
)
def test_analyze_errors(args: list[str], code: int, fragments: list[str], tmp_path: Path) -> None:
    path, _ = blunder_record(tmp_path / "game.txt")
    assert_clean_error(run("analyze", str(path), *args), code, *fragments)


def test_analyze_refuses_missing_and_broken_records(tmp_path: Path) -> None:
    assert_clean_error(run("analyze", str(tmp_path / "none.txt")), 2, "no such record file")
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "stack-a-cash"]\n\nplace L b2\nplace L b2\n*\n')
    assert_clean_error(run("analyze", str(bad)), 2, "move 2 ('place L b2') is illegal")


SIX, THREE = {"Q": 6, "N": 6, "P": 6, "D": 6}, {"Q": 3, "N": 3, "P": 3, "D": 3}


def test_balance_crosses_the_readings_with_each_map() -> None:
    every = variants("wallet-battles", {})
    assert every[:4] == [
        {"map": "gettysburg", "end": "occupied", "coins": SIX},
        {"map": "gettysburg", "end": "occupied", "coins": THREE},
        {"map": "gettysburg", "end": "used", "coins": SIX},
        {"map": "gettysburg", "end": "used", "coins": THREE},
    ]
    assert len(every) == 8 and every[4]["map"] == "antietam"
    assert [v["coins"] for v in variants("wallet-battles", {"end": "used", "map": "antietam"})] == [
        SIX,
        THREE,
    ]
    assert variant_label(every[3]) == (
        'map=gettysburg, end=used, coins={"Q": 3, "N": 3, "P": 3, "D": 3}'
    )
    assert variant_values(every[3]) == "gettysburg·used·3 each"


def test_against_swaps_seats_every_game() -> None:
    tasks = make_tasks("wallet-battles", [{}], "hard", 4, 0, against="greedy")
    assert [t.specs for t in tasks] == [("hard", "greedy"), ("greedy", "hard")] * 2
    assert [t.labels["bot_seat"] for t in tasks] == [0, 1, 0, 1]


def test_balance_against_another_bot_reports_its_score_and_the_games_facts(
    tmp_path: Path,
) -> None:
    out = tmp_path / "vs"
    args = ["--bot", "random", "--against", "greedy", "--games", "4", "--jobs", "1"]
    args += ["-o", "map=antietam", "-o", "end=used", "--no-records", "--no-plots", "--out"]
    result = run("balance", "wallet-battles", *args, str(out))
    assert result.exit_code == 0, result.output
    assert "random against greedy" in result.output
    data = json.loads((out / "balance.json").read_text())
    assert data["against"] == "greedy" and data["pairing"] == "random against greedy"
    for v in data["variants"]:
        side, first = v["bot_side"], v["first_seat"]
        assert side["games"] == 4 and side["score"] <= 0.5  # greedy beats random
        assert first["games"] == 4
        flips = v["measures"]["flips"]
        assert flips["median_ci"][0] <= flips["median"] <= flips["median_ci"][1]
        assert sum(x["count"] for x in v["categories"]["ending"].values()) == 4
        assert [g["flips"] for g in v["per_game"]] and all(
            g["ending"] in ("used", "pile", "guard") for g in v["per_game"]
        )


def test_analyze_gives_the_same_verdicts_for_the_same_file_and_seed(tmp_path: Path) -> None:
    """A thinking time becomes a count of simulations, so the clock and the machine's load do
    not change the judgement (with a time budget these runs would search different trees)."""
    import random

    game = pa.load("wallet-battles", coins={"Q": 1, "N": 1, "P": 1, "D": 1})
    state = game.new_initial_state()
    rng = random.Random(2)
    while len(state.history) < 12 and not state.is_terminal():
        state.apply_random(rng)
    path = Record.from_state(state).save(tmp_path / "game.json")
    runs = [
        run("analyze", str(path), "--bot", bot, "--seed", "3", "--json").output
        for bot in ("mcts:0.05s", "mcts:0.05s", "hard:0.05s", "hard:0.05s")
    ]
    assert runs[0] == runs[1] and runs[2] == runs[3]
    assert len(json.loads(runs[2])) >= 2


def test_analysis_comments_are_shown_by_replay(tmp_path: Path) -> None:
    path, ply = blunder_record(tmp_path / "game.txt")
    out = tmp_path / "notes.json"
    assert run("analyze", str(path), "--bot", "mcts:300", "--out", str(out)).exit_code == 0
    comment = next(t for n, t in load(out).comments if n == ply)
    shown = run("replay", str(out), input=f"j {ply}\nq\n").output
    assert f"Move {ply}/" in shown and f"# {comment}" in shown
    assert shown.index(f"Move {ply}/") < shown.index(f"# {comment}")


def test_arena_keeps_the_finished_games_on_ctrl_c(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after some games: those are saved and reported, and the command says so."""
    from pocketarena.arena import runner

    real = runner.play_task
    played: list[int] = []

    def play_then_stop(task: runner.GameTask) -> runner.GameResult:
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(task.index)
        return real(task)

    monkeypatch.setattr(runner, "play_task", play_then_stop)
    out = tmp_path / "run"
    args = ["--bots", "random,greedy", "--games", "6", "--jobs", "1", "--no-plots", "--out"]
    result = run("arena", "stack-a-cash", *args, str(out))
    assert result.exit_code == 130, result.output
    assert (
        "Interrupted: 3 of 6 games finished and were saved; the tables and plots cover those."
        in result.output
    )
    data = json.loads((out / "summary.json").read_text())
    assert data["games"] == 3 and len(list((out / "records").iterdir())) == 3


def test_arena_ctrl_c_with_worker_processes(tmp_path: Path) -> None:
    """The real thing: SIGINT to the program while two workers play; no worker traceback."""
    interrupt_arena(tmp_path / "run")


def test_analyze_speaks_the_readers_language(tmp_path: Path) -> None:
    """The analysis table, its scale and summaries and its refusals in the reader's language
    (French here); the pseudo-locale leaves no bare English word in the summary lines."""
    path, _ = blunder_record(tmp_path / "game.txt")
    result = run("--lang", "fr", "analyze", str(path), "--bot", "mcts:1500")
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())
    assert "analyse par mcts:1500" in words and "gaffes (??) 1" in words, words
    assert "Chaque valeur est le score attendu de Face" in words
    # The better move's outcome (the 'better' column) too: exact, Stack-a-Cash being solved.
    assert "gagne en" in words and " wins in " not in words, words
    refused = run("--lang", "fr", "analyze", str(path), "--bot", "greedy")
    assert "erreur : le bot 'greedy' ne sait pas expliquer ses coups" in refused.output


def test_analyze_quiet_and_verbose(tmp_path: Path) -> None:
    """``-q``: the table and the summaries, not the notes nor the 'Saved' line; ``-v``: a
    line for each decision as it is judged besides."""
    path, _ = blunder_record(tmp_path / "game.txt")
    args = ["analyze", str(path), "--bot", "mcts:200", "--out", str(tmp_path / "a.txt")]
    normal = run(*args)
    assert normal.exit_code == 0, normal.output
    assert "Every value is" in normal.output and "Saved the annotated" in normal.output
    quiet = run(*args, "-q")
    assert quiet.exit_code == 0, quiet.output
    assert "Every value is" not in quiet.output and "Saved" not in quiet.output
    assert "blunders (??) 1" in quiet.output  # the results
    verbose = run(*args, "-v")
    assert verbose.exit_code == 0, verbose.output
    judged = [line for line in verbose.output.splitlines() if re.match(r"\d+\. \S+ ", line)]
    assert judged and " -> " in judged[0] and "??" in "\n".join(judged), verbose.output


# Bot specs, counts and game options arena may be given: (GAME and arguments, the English).
SAC = "stack-a-cash"
ARENA_REFUSALS = [
    ([SAC, "--bots", "mcts:abc,random"], "after 'mcts:' give a positive whole number (iterations,"),
    ([SAC, "--bots", "random,expectimax:0"], "(turns deep, e.g. expectimax:2)"),
    ([SAC, "--bots", "hard:-1s,random"], "a level takes only a thinking time in seconds"),
    ([SAC, "--bots", "random:3,greedy"], "bot 'random' takes no argument (got random:3)"),
    ([SAC, "--bots", "alphazero:x,random"], "(simulations, e.g. alphazero:64)"),
    ([SAC, "--bots", "easy:1s,random"], "has no thinking time to change"),
    (["flipwars", "--bots", "perfect,random"], "is not solved, so it has no perfect"),
    ([SAC, "--bots", "alphazero,random", "--protect", "placed"], "plays only Stack-a-Cash with"),
    ([SAC, "--bots", "random,greedy", "--kind", "swiss"], "a Swiss needs --rounds"),
    ([SAC, "--bots", "random,greedy", "--kind", "swiss", "--rounds", str(10**20)], "at most 1000"),
    ([SAC, "--bots", "random,greedy", "--games", str(10**20)], "--games must be at most 100000"),
    ([SAC, "--bots", "random,greedy", "--ray-address", "nonsense"], "cannot read the Ray address"),
    ([SAC, "-o", "foo=bar"], "unknown option 'foo' for stack-a-cash; valid options: protect"),
    ([SAC, "-o", "foo"], "option 'foo' must look like name=value"),
    ([SAC, "--protect", "never"], "option protect='never' is not valid; choose one of: touched"),
    (["flipwars", "-o", "series=maybe"], "option 'series' must be true or false, got 'maybe'"),
    (["coin-age", "-o", "seed=x"], "option 'seed' must be an integer, got 'x'"),
    (["wallet-battles", "-o", "coins={"], "option 'coins' must be JSON, e.g. "),
    (["wallet-battles", "-o", "coins=[1]"], "option 'coins': must be a dict of coin counts like {"),
    (
        ["wallet-battles", "-o", "coins=null"],
        "option 'coins': must be a dict of coin counts like {",
    ),
    (["wallet-battles", "-o", 'coins={"Q":1}'], "needs exactly the keys Q, N, P, D (missing N"),
    (["wallet-battles", "-o", 'coins={"Q":1,"N":1,"P":1,"D":1,"X":1}'], "(unknown 'X')"),
    (["wallet-battles", "-o", 'coins={"Q":1,"N":1,"P":1,"D":99}'], "D must be a whole number"),
    (["wallet-battles", "-o", 'coins={"Q":0,"N":0,"P":0,"D":0}'], "needs at least one coin"),
]


@pytest.mark.parametrize(
    ("args", "english"), ARENA_REFUSALS, ids=[" ".join(a) for a, _ in ARENA_REFUSALS]
)
def test_an_arena_refusal_is_one_line_in_the_readers_words(
    args: list[str], english: str, tmp_path: Path
) -> None:
    """Bad --bots specs, counts and game options are refused before any game, in one line,
    through the catalogs (no English word left in the pseudo-locale), never as a hang or a
    traceback."""
    from tests.cli.test_languages import pseudo_bare

    call = ["arena", *args, "--no-plots", "--out", str(tmp_path / "out")]
    result = run(*call)
    assert_clean_error(result, 2, english)
    assert "None" not in result.output
    pseudo = run("--lang", "qps", *call)
    assert_clean_error(pseudo, 2)
    names = {"Stack-a-Cash", "protect", "touched", "placed", "series", "seed", "coins"}
    names |= {"Q", "N", "P", "D", "X", "dict"}
    assert not pseudo_bare(pseudo.output, names | {a for a in args if not a.startswith("--")})
    assert not (tmp_path / "out").exists()


EMPTY_PATHS = [
    (["arena", SAC, "--bots", "random,greedy", "-n", "2", "--no-plots", "--out", ""], "--out"),
    (["balance", SAC, "-n", "2", "--no-plots", "--out", ""], "--out"),
    (["analyze", "game.txt", "--bot", "mcts:10", "--out", ""], "--out"),
    (["play", SAC, "--vs", "random", "--save", ""], "--save"),
]


@pytest.mark.parametrize(("args", "flag"), EMPTY_PATHS, ids=[a[0] for a, _ in EMPTY_PATHS])
def test_an_empty_path_is_refused(
    args: list[str], flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--out ''`` is no path (Python reads it as the current folder, where arena and balance
    wrote everything): refused in one line, exit 2, nothing written, in the reader's words."""
    from tests.cli.test_languages import pseudo_bare

    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.txt").write_text('[Game "stack-a-cash"]\n\nplace L b2\n*\n')
    result = run(*args, input="q\n")
    assert_clean_error(result, 2, f"{flag} needs a path")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]
    pseudo = run("--lang", "qps", *args, input="q\n")
    assert_clean_error(pseudo, 2)
    assert not pseudo_bare(pseudo.output, {a for a in args if not a.startswith("--")}), (
        pseudo.output
    )
