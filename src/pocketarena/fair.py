"""Provably fair chance: commit to a secret seed, derive every slap and flip from it, reveal it.

The scheme (``pocketarena-hmac-sha256/1``):

1. Before the first move the server draws a secret 32-byte ``seed`` and publishes the
   commitment ``SHA-256(seed)`` (hex). It cannot change the seed afterwards without the
   commitment giving it away.
2. The chance outcome at move number ``n`` (the outcome's 0-based index in the game's list of
   actions, decisions and outcomes alike) of the game with id ``game_id`` is found from
   ``d = HMAC-SHA256(key=seed, msg=f"{game_id}:{n}")``: the first 8 bytes of ``d`` as a
   big-endian integer, shifted right by 11, give a 53-bit integer ``k``; ``u = k / 2**53`` lies
   in [0, 1) and picks the outcome whose cumulative-probability interval (outcomes in the
   order ``chance_outcomes()`` lists them) contains it (``pocketarena.core.outcome_from_unit``).
3. When the game ends the seed is revealed. Anyone can check ``SHA-256(seed)`` against the
   commitment and recompute every outcome: ``pocketarena verify RECORD`` does both.

Because the outcome depends only on the seed, the game id and the move number, neither the
players (who never see the seed) nor the server (bound by the commitment) can steer it, and
pressing "throw" earlier or later changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pocketarena.core import (
    Action,
    ActionError,
    Game,
    IllegalActionError,
    Message,
    State,
    message,
    outcome_from_unit,
)
from pocketarena.core.chance import ChanceNode

if TYPE_CHECKING:
    from pocketarena.records import Record

SCHEME = "pocketarena-hmac-sha256/1"

# Record header names (the records module keeps headers as an ordered str -> str mapping).
HEADER_SCHEME = "ChanceScheme"
HEADER_COMMITMENT = "ChanceCommitment"
HEADER_SEED = "ChanceSeed"
HEADER_GAME_ID = "GameId"

_HEX64 = re.compile(r"[0-9a-f]{64}")


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the operating system's CSPRNG, as 64 hex digits."""
    return secrets.token_hex(32)


def _seed_bytes(seed: str) -> bytes:
    if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
        raise ValueError("a chance seed must be 64 lower-case hex digits (32 bytes)")
    return bytes.fromhex(seed)


def commitment(seed: str) -> str:
    """SHA-256 of the seed's 32 bytes, as hex: what is shown before the game starts."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def unit(seed: str, game_id: str, move_number: int) -> float:
    """The number in [0, 1) that decides the chance outcome at ``move_number``."""
    digest = hmac.new(
        _seed_bytes(seed), f"{game_id}:{move_number}".encode(), hashlib.sha256
    ).digest()
    k = int.from_bytes(digest[:8], "big") >> 11  # 53 bits: every value is exact as a float
    return k / float(1 << 53)


def fair_outcome(
    outcomes: Sequence[tuple[Action, float]], seed: str, game_id: str, move_number: int
) -> Action:
    """The outcome the scheme assigns to a chance node with these ``outcomes``."""
    if not outcomes:
        raise ValueError("a chance node must list at least one outcome")
    return outcome_from_unit(outcomes, unit(seed, game_id, move_number))


class FairChance:
    """A ``ChanceSource`` (``outcome(state) -> Action``) bound to one game and one secret seed.

    >>> fc = FairChance("g1", seed="00" * 32)
    >>> fc.commitment == commitment("00" * 32)
    True
    """

    scheme = SCHEME

    def __init__(self, game_id: str, seed: str | None = None) -> None:
        if not isinstance(game_id, str) or not game_id:
            raise ValueError("FairChance needs the game's id (a non-empty string)")
        self.game_id = game_id
        self._seed = new_seed() if seed is None else seed
        self.commitment = commitment(self._seed)  # also validates the seed

    def outcome(self, state: ChanceNode) -> Action:
        """The outcome at this chance node: move number = number of actions played so far."""
        if not state.is_chance_node():
            raise ValueError("FairChance.outcome needs a state at a chance node")
        return fair_outcome(state.chance_outcomes(), self._seed, self.game_id, state.ply)

    def reveal(self) -> str:
        """The secret seed. Call only once the game is over."""
        return self._seed

    def headers(self, revealed: bool) -> dict[str, str]:
        """Record headers: scheme, game id, commitment, and the seed when ``revealed``."""
        out = {
            HEADER_SCHEME: SCHEME,
            HEADER_GAME_ID: self.game_id,
            HEADER_COMMITMENT: self.commitment,
        }
        if revealed:
            out[HEADER_SEED] = self._seed
        return out

    def __repr__(self) -> str:  # never print the seed
        return f"FairChance(game_id={self.game_id!r}, commitment={self.commitment[:12]}…)"


@dataclass(frozen=True)
class ChanceCheck:
    """One chance outcome of a record, recomputed."""

    move_number: int  # 0-based index of the outcome in the record's actions
    recorded: str
    expected: str

    @property
    def ok(self) -> bool:
        return self.recorded == self.expected


@dataclass
class VerifyReport:
    """What ``verify_record`` found. ``ok`` only when every check could be made and passed."""

    game: str
    game_id: str | None
    scheme: str | None
    commitment: str | None
    seed: str | None
    commitment_ok: bool = False
    checks: list[ChanceCheck] = field(default_factory=list)
    problems: list[Message] = field(default_factory=list)  # worded where they are shown
    # Why there is nothing to check (a game without coins), when that is so.
    nothing: Message | None = None
    # Checked against a seed the record states openly (a terminal game), not a committed one.
    seeded: bool = False
    # The game is still being played: its seed is secret until it ends (nothing is wrong).
    in_progress: bool = False

    @property
    def mismatches(self) -> list[ChanceCheck]:
        return [c for c in self.checks if not c.ok]

    @property
    def ok(self) -> bool:
        if self.nothing is not None:
            return True
        return not self.problems and (self.commitment_ok or self.seeded) and not self.mismatches

    @property
    def first_wrong_message(self) -> Message | None:
        """The earliest throw that does not follow from the seed (None if none): what a
        reader needs first, since a wrong throw can make later moves unplayable."""
        if not self.mismatches:
            return None
        c = self.mismatches[0]
        return message(
            "fair.first-wrong", number=c.move_number + 1, recorded=c.recorded, expected=c.expected
        )

    @property
    def first_wrong(self) -> str | None:
        """``first_wrong_message`` in English."""
        said = self.first_wrong_message
        return None if said is None else str(said)

    @property
    def verdict_message(self) -> Message:
        """The verdict, to word in the reader's language (``verdict`` is its English)."""
        first = self.first_wrong_message
        if self.nothing is not None:
            return message("fair.verdict.nothing", why=self.nothing)
        if self.problems:
            details = ([first] if first is not None else []) + self.problems
            joined = details[0]
            for detail in details[1:]:
                joined = message("fair.then", first=joined, next=detail)
            return message("fair.verdict.not-verified", details=joined)
        n = len(self.checks)
        if self.seeded:
            if self.mismatches:
                bad = len(self.mismatches)
                return message("fair.verdict.seeded-wrong", bad=bad, count=n, first=first)
            key = "fair.verdict.seeded-one" if n == 1 else "fair.verdict.seeded-all"
            return message(key, count=n, seed=self.seed)
        if not self.commitment_ok:
            return message("fair.verdict.seed-mismatch")
        if self.mismatches:
            return message("fair.verdict.wrong", bad=len(self.mismatches), count=n, first=first)
        if not self.checks:
            return message("fair.verdict.no-throws")
        if n == 1:
            return message("fair.verdict.one")
        return message("fair.verdict.all", count=n)

    @property
    def verdict(self) -> str:
        return str(self.verdict_message)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "game_id": self.game_id,
            "scheme": self.scheme,
            "commitment": self.commitment,
            "seed": self.seed,
            "commitment_ok": self.commitment_ok,
            "checks": [
                {
                    "move_number": c.move_number,
                    "recorded": c.recorded,
                    "expected": c.expected,
                    "ok": c.ok,
                }
                for c in self.checks
            ],
            "problems": [str(p) for p in self.problems],
            "nothing": None if self.nothing is None else str(self.nothing),
            "seeded": self.seeded,
            "in_progress": self.in_progress,
            "ok": self.ok,
            "verdict": self.verdict,
        }


def verify_moves(game: Game, moves: Sequence[str], headers: Mapping[str, str]) -> VerifyReport:
    """Check a game given as its rules, its actions in notation and its record headers.

    Replays ``moves``; at each chance node recomputes the outcome from the revealed seed and
    compares it with the recorded one (the recorded one is then played, so one bad outcome
    does not hide the rest).
    """
    report = VerifyReport(
        game=game.ID,
        game_id=headers.get(HEADER_GAME_ID),
        scheme=headers.get(HEADER_SCHEME),
        commitment=headers.get(HEADER_COMMITMENT),
        seed=headers.get(HEADER_SEED),
    )
    if report.scheme != SCHEME:
        report.problems.append(
            message("fair.unknown-scheme", scheme=report.scheme, known=SCHEME)
            if report.scheme
            else message("fair.no-scheme", header=HEADER_SCHEME)
        )
    if not report.game_id:
        report.problems.append(message("fair.no-header", header=HEADER_GAME_ID))
    if not report.commitment:
        report.problems.append(message("fair.no-header", header=HEADER_COMMITMENT))
    if not report.seed:
        report.in_progress = not _ends(game, moves)
        report.problems.append(
            message("fair.seed-secret" if report.in_progress else "fair.seed-not-revealed")
        )
    if report.problems:
        return report
    assert report.seed is not None and report.commitment is not None and report.game_id is not None
    try:
        report.commitment_ok = hmac.compare_digest(
            commitment(report.seed), report.commitment.lower()
        )
    except ValueError as e:
        report.problems.append(message("fair.seed-malformed", why=str(e)))
        return report
    seed, game_id = report.seed, report.game_id
    _check_throws(
        report,
        game,
        moves,
        lambda state, n: fair_outcome(state.chance_outcomes(), seed, game_id, n),
    )
    return report


def _check_throws(
    report: VerifyReport,
    game: Game,
    moves: Sequence[str],
    expected_at: Callable[[State, int], Action],
) -> None:
    """Replay ``moves``; at each chance node compare the recorded outcome with
    ``expected_at(state, move_number)`` (the recorded one is then played, so one bad outcome
    does not hide the rest)."""
    state = game.new_initial_state()
    for n, text in enumerate(moves):
        if state.is_chance_node():
            expected = expected_at(state, n)
            try:
                recorded = game.action(text).text
            except ActionError:  # unreadable or not this game's: shown as recorded
                recorded = str(text)
            report.checks.append(ChanceCheck(n, recorded, expected.text))
        try:
            state.apply(text)
        except IllegalActionError as e:
            report.problems.append(
                message("fair.not-replayable", number=n + 1, text=text, why=e.message)
            )
            break


def _ends(game: Game, moves: Sequence[str]) -> bool:
    """Do these moves finish the game?"""
    state = game.new_initial_state()
    try:
        for text in moves:
            state.apply(text)
    except IllegalActionError:
        return False
    return state.is_terminal()


def verify_seeded(record: Record) -> VerifyReport:
    """Check every throw of a seeded record (a terminal game: ``Chance: seeded`` and its seed
    in the open) against the throw its seed gives at that move."""
    from pocketarena.match import SeededChance

    game = record.load_game()
    report = VerifyReport(
        game=game.ID,
        game_id=None,
        scheme="seeded (the seed is in the record)",
        commitment=None,
        seed=None if record.seed is None else str(record.seed),
        seeded=True,
    )
    if record.seed is None:
        report.problems.append(message("fair.seeded-no-seed"))
        return report
    chance = SeededChance(record.seed)
    _check_throws(report, game, record.moves, lambda state, _n: chance.outcome(state))
    return report


def verify_record(record: Record) -> VerifyReport:
    """Recompute every chance outcome of a record from its revealed seed (see the module doc);
    a seeded record's from its stated seed; a game without coins has nothing to verify.

    Raises RecordError only if the record names a game or options that do not exist."""
    game = record.load_game()
    if HEADER_SCHEME not in record.headers:
        if not game.CHANCE:
            report = VerifyReport(game.ID, None, None, None, None)
            report.nothing = message("fair.no-coins", game=game.TITLE)
            return report
        if record.headers.get("Chance") == "seeded":
            return verify_seeded(record)
    return verify_moves(game, record.moves, record.headers)
