"""Provably fair chance: commit, derive, reveal, verify, and catch tampering."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import pocketarena as pa
from pocketarena import fair
from pocketarena.bots import make_bot
from pocketarena.cli.main import app as cli_app
from pocketarena.match import play_match
from pocketarena.records import Record

SEED = "7f" * 32


def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert fair.commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert fair.FairChance("g1", SEED).commitment == fair.commitment(SEED)


def test_unit_is_the_documented_hmac_derivation() -> None:
    digest = hmac.new(bytes.fromhex(SEED), b"abc:12", hashlib.sha256).digest()
    assert fair.unit(SEED, "abc", 12) == (int.from_bytes(digest[:8], "big") >> 11) / 2**53
    assert 0 <= fair.unit(SEED, "abc", 12) < 1
    assert fair.unit(SEED, "abc", 12) != fair.unit(SEED, "abc", 13)
    assert fair.unit(SEED, "abc", 12) != fair.unit(SEED, "abd", 12)


@pytest.mark.parametrize("bad", ["", "xyz", "7f" * 31, "7F" * 32, 123])
def test_malformed_seeds_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="64 lower-case hex"):
        fair.FairChance("g1", bad)  # type: ignore[arg-type]


def test_new_seeds_are_fresh() -> None:
    assert len({fair.new_seed() for _ in range(50)}) == 50


def test_outcomes_follow_the_probabilities() -> None:
    state = pa.load("wallet-battles").new_initial_state()
    outcomes = state.chance_outcomes()
    counts = Counter(fair.fair_outcome(outcomes, SEED, "g", n).text for n in range(8000))
    # flip HH 1/4, flip TT 1/4, flip odd 1/2; 8000 draws: 5 sigma is about 2.7% of the count
    assert abs(counts["flip HH"] - 2000) < 200
    assert abs(counts["flip TT"] - 2000) < 200
    assert abs(counts["flip odd"] - 4000) < 230


def test_fair_chance_uses_the_move_number() -> None:
    state = pa.load("wallet-battles").new_initial_state()
    fc = fair.FairChance("game-1", SEED)
    assert fc.outcome(state) == fair.fair_outcome(state.chance_outcomes(), SEED, "game-1", 0)
    while state.is_chance_node():
        state.apply(fc.outcome(state))
    with pytest.raises(ValueError, match="chance node"):
        fc.outcome(state)
    assert "7f7f" not in repr(fc)  # the seed never shows in logs


def fair_record(game: pa.Game, game_id: str = "G1") -> Record:
    fc = fair.FairChance(game_id, SEED)
    bots = [make_bot("random", game, seed=1), make_bot("random", game, seed=2)]
    return play_match(game, bots, fc, headers=fc.headers(revealed=True))


@pytest.mark.parametrize("game_id", ["wallet-battles", "coin-age"])
def test_a_fair_record_verifies(game_id: str) -> None:
    options = {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}} if game_id == "wallet-battles" else {}
    record = fair_record(pa.load(game_id, **options))
    report = fair.verify_record(record)
    assert report.ok, report.verdict
    assert report.commitment_ok
    assert len(report.checks) == sum(1 for m in record.moves if m.startswith(("flip", "slap")))
    assert report.checks and all(c.ok for c in report.checks)
    # and it survives both record forms
    assert fair.verify_record(Record.from_text(record.to_text())).ok
    assert fair.verify_record(Record.from_json(json.loads(record.dumps_json()))).ok


def tampered(record: Record) -> Record:
    """The same record with its first chance outcome replaced by another legal one."""
    game = record.load_game()
    state = game.new_initial_state()
    moves = list(record.moves)
    for i, text in enumerate(moves):
        if state.is_chance_node():
            others = [a.text for a, _ in state.chance_outcomes() if a.text != text]
            moves[i] = others[0]
            return replace(record, moves=moves[: i + 1])
        state.apply(text)
    raise AssertionError("no chance node")


def test_a_changed_outcome_is_caught() -> None:
    record = tampered(
        fair_record(pa.load("wallet-battles", coins={"Q": 1, "N": 1, "P": 1, "D": 1}))
    )
    report = fair.verify_record(record)
    assert not report.ok
    assert len(report.mismatches) == 1
    assert "do not match" in report.verdict


def test_a_different_seed_is_caught_by_the_commitment() -> None:
    record = fair_record(pa.load("coin-age"))
    record.headers[fair.HEADER_SEED] = "00" * 32
    report = fair.verify_record(record)
    assert not report.commitment_ok and not report.ok
    assert "commitment" in report.verdict


@pytest.mark.parametrize(
    ("header", "value", "words"),
    [
        (fair.HEADER_SEED, None, "does not reveal the seed, though the game is over"),
        (fair.HEADER_SCHEME, None, "not played with fair chance"),
        (fair.HEADER_SCHEME, "other/2", "this verifier knows"),
        (fair.HEADER_COMMITMENT, None, "no ChanceCommitment"),
        (fair.HEADER_SEED, "zz", "malformed"),
    ],
)
def test_incomplete_records_are_not_verified(header: str, value: str | None, words: str) -> None:
    record = fair_record(pa.load("coin-age"))
    if value is None:
        del record.headers[header]
    else:
        record.headers[header] = value
    report = fair.verify_record(record)
    assert not report.ok
    assert words in report.verdict


def test_verify_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    good = fair_record(pa.load("wallet-battles", coins={"Q": 1, "N": 1, "P": 1, "D": 1}))
    path = good.save(tmp_path / "good.txt")
    result = runner.invoke(cli_app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "✓" in result.output and "VERIFIED" in result.output
    bad = tampered(good)
    bad_path = bad.save(tmp_path / "bad.json")
    result = runner.invoke(cli_app, ["verify", str(bad_path)])
    assert result.exit_code == 1
    assert (
        "✗" in result.output
        and "NOT VERIFIED" in result.output
        and "the seed gives" in result.output
    )
    result = runner.invoke(cli_app, ["verify", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2
    assert "no such record file" in result.output


def test_the_headline_names_the_first_wrong_throw() -> None:
    """A throw changed early makes a later move unplayable: the report leads with the throw,
    not with the move that broke because of it."""
    record = fair_record(pa.load("wallet-battles", coins={"Q": 1, "N": 1, "P": 1, "D": 1}))
    first = tampered(record)
    changed = len(first.moves)  # the changed throw is the last move of the shortened record
    whole = replace(record, moves=[*first.moves, *record.moves[changed:]])
    report = fair.verify_record(whole)
    assert not report.ok and report.mismatches[0].move_number == changed - 1
    assert report.verdict.startswith(f"NOT VERIFIED: the throw at move {changed} is recorded as")
    assert f"the seed gives {record.moves[changed - 1]!r}" in report.verdict
    if report.problems:  # what broke later comes after
        assert report.verdict.index("cannot be replayed") > report.verdict.index("the seed gives")
