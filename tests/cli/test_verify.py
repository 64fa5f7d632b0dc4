"""``pocketarena verify`` on records from the terminal: seeded throws are recomputed from the
seed they state; a game without coins has nothing to verify and says so."""

from __future__ import annotations

from pathlib import Path

import pocketarena as pa
from pocketarena import fair
from pocketarena.bots.simple import RandomBot
from pocketarena.match import SeededChance, play_match

from .helpers import run


def terminal_record(path: Path, game: pa.Game) -> Path:
    bots = [RandomBot(game, seed=1), RandomBot(game, seed=2)]
    return play_match(game, bots, SeededChance(8)).save(path)


def test_a_finished_terminal_game_is_verified_from_its_seed(tmp_path: Path) -> None:
    game = pa.load("wallet-battles", coins={"Q": 1, "N": 1, "P": 1, "D": 1})
    path = terminal_record(tmp_path / "g.txt", game)
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output
    assert "not revealed" not in result.output and "not over" not in result.output
    assert "scheme      seeded (the seed is in the record)" in result.output
    assert "VERIFIED: all " in result.output and "from the record's seed 8" in result.output

    text = path.read_text().splitlines()
    first = next(i for i, line in enumerate(text) if line.startswith("flip "))
    text[first] = "flip TT" if text[first] != "flip TT" else "flip HH"
    tampered = tmp_path / "t.txt"
    tampered.write_text("\n".join(text) + "\n")
    result = run("verify", str(tampered))
    assert result.exit_code == 1
    assert "✗ move    1" in result.output and "(the seed gives " in result.output
    assert "NOT VERIFIED" in result.output


def test_games_without_coins_have_nothing_to_verify(tmp_path: Path) -> None:
    for game_id, title in (("flipwars", "FlipWars"), ("stack-a-cash", "Stack-a-Cash")):
        path = terminal_record(tmp_path / f"{game_id}.json", pa.load(game_id))
        result = run("verify", str(path))
        assert result.exit_code == 0, result.output
        assert result.output.replace("\n", " ").startswith(
            f"NOTHING TO VERIFY: {title} has no coin throws"
        )
        assert "not revealed" not in result.output


def test_an_unfinished_web_game_still_waits_for_its_seed() -> None:
    game = pa.load("coin-age")
    chance = fair.FairChance("g1")
    state = game.new_initial_state()
    state.apply(chance.outcome(state))
    headers = chance.headers(revealed=False)
    report = fair.verify_moves(game, [a.text for a in state.history], headers)
    assert (
        not report.ok and "the seed has not been revealed (the game is not over)" in report.verdict
    )


def test_verify_speaks_the_readers_language(tmp_path: Path) -> None:
    """The facts, each throw's line and the verdict in French; a tampered throw's verdict in
    German names the move and what the seed gives (the English above is unchanged)."""
    game = pa.load("wallet-battles", coins={"Q": 1, "N": 1, "P": 1, "D": 1})
    path = terminal_record(tmp_path / "g.txt", game)
    result = run("--lang", "fr", "verify", str(path))
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())
    assert "schéma seeded" in words and "graine 8" in words and "✓ coup 1 flip" in words
    assert "VÉRIFIÉ : les " in words and "découlent de la graine 8" in words, words
    text = path.read_text().splitlines()
    first = next(i for i, line in enumerate(text) if line.startswith("flip "))
    text[first] = "flip TT" if text[first] != "flip TT" else "flip HH"
    tampered = tmp_path / "t.txt"
    tampered.write_text("\n".join(text) + "\n")
    result = run("--lang", "de", "verify", str(tampered))
    words = " ".join(result.output.split())
    assert result.exit_code == 1 and "(der Seed ergibt " in words, words
    assert "NICHT BESTÄTIGT: " in words and "der Wurf bei Zug 1 ist als " in words, words
