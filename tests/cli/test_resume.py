"""``pocketarena play --resume FILE``: an unfinished game goes on exactly as it would have."""

from __future__ import annotations

from pathlib import Path

import pytest

import pocketarena as pa
from pocketarena.records import load

from .helpers import assert_clean_error, keep_pressing, play_vs_random, run, saved_path


@pytest.mark.parametrize("game_id", ["coin-race", "wallet-battles"])
def test_a_resumed_game_ends_as_the_uninterrupted_one(
    tmp_path: Path, game_id: str, coin_race: pa.Game
) -> None:
    """Stopped after a few moves and resumed, the game is the same move for move: the throws
    come from (seed, move number), and the bot's choices too."""
    options = ["-o", 'coins={"Q": 1, "N": 1, "P": 1, "D": 1}'] if game_id != "coin-race" else []
    game = pa.load(game_id, coins={"Q": 1, "N": 1, "P": 1, "D": 1}) if options else coin_race
    keys = keep_pressing(game)
    whole, part = tmp_path / "whole.txt", tmp_path / "part.json"
    assert play_vs_random(game_id, whole, 11, keys, *options).exit_code == 0
    first = play_vs_random(game_id, part, 11, "\n1\n" * 2 + "quit\n", *options)
    assert first.exit_code == 0, first.output
    assert f"Go on later with: pocketarena play --resume {part}" in first.output
    stopped = load(part)
    assert stopped.termination == "abandoned" and len(stopped.moves) > 0

    resumed = run("play", "--resume", str(part), input=keys)
    assert resumed.exit_code == 0, resumed.output
    assert f"Resumed after {len(stopped.moves)} move" in resumed.output
    assert saved_path(resumed.output) == part, "saved back where it came from"
    done, uninterrupted = load(part), load(whole)
    assert done.moves == uninterrupted.moves
    assert (done.result, done.termination) == (uninterrupted.result, "normal")
    assert done.players == uninterrupted.players and done.started == stopped.started
    assert run("replay", str(part), "--check").exit_code == 0


def test_resume_into_another_file_and_with_the_game_named(tmp_path: Path) -> None:
    part, elsewhere = tmp_path / "part.txt", tmp_path / "g.txt"
    play_vs_random("coin-race", part, 2, "\n1\nq\n")
    before = part.read_text()
    result = run(
        "play", "coin-race", "--resume", str(part), "--save", str(elsewhere), input="\n1\nq\n"
    )
    assert result.exit_code == 0, result.output
    assert part.read_text() == before
    assert len(load(elsewhere).moves) > len(load(part).moves)


def test_what_cannot_be_resumed(tmp_path: Path, coin_race: pa.Game) -> None:
    finished = tmp_path / "done.txt"
    play_vs_random("coin-race", finished, 3, keep_pressing(coin_race))
    result = load(finished).result
    assert_clean_error(
        run("play", "--resume", str(finished)),
        2,
        f"the game in {finished} is over ({result}); watch it with: pocketarena replay",
    )
    part = tmp_path / "part.txt"
    play_vs_random("coin-race", part, 3, "\n1\nq\n")
    for extra, named in [
        (["--vs", "greedy"], "--vs"),
        (["--mode", "x"], "--mode"),
        (["--seed", "4"], "--seed"),
        (["-o", "goal=3"], "--option"),
    ]:
        assert_clean_error(
            run("play", "--resume", str(part), *extra),
            2,
            f"--resume continues the saved game as it was set up; {named} cannot change it",
        )
    assert_clean_error(
        run("play", "stack-a-cash", "--resume", str(part)),
        2,
        "is a game of coin-race, not stack-a-cash",
    )
    web = tmp_path / "web.txt"
    web.write_text(
        part.read_text().replace('[Chance "seeded"]', '[ChanceScheme "pocketarena-hmac-sha256/1"]')
    )
    assert_clean_error(run("play", "--resume", str(web)), 2, "was not played with seeded coins")
    assert_clean_error(run("play", "--resume", str(tmp_path / "nope.txt")), 2, "no such record")
