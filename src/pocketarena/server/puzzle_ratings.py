"""Players' puzzle ratings: a puzzle is an opponent with a fixed rating (its difficulty), a
right answer a win and a wrong one a loss (openskill, as for games). Only the puzzle last
handed to a player is rated, once; answering it again, or another puzzle, is judged but
changes nothing. Guests have a row like accounts (their player record is their cookie's)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pocketarena import puzzles
from pocketarena.ratings import DISPLAY_SCALE, Rating, rate

from . import blunder_puzzles
from .models import PuzzleRatingRow, utcnow
from .store import Store

NEAREST = 24  # the next puzzle is drawn among this many closest to the player's rating
PUZZLE_SIGMA = 1.5  # a puzzle's rating is known well: it moves the player, not itself
# A player's puzzle rating starts less uncertain than a game rating (openskill's 8.3, whose first
# miss cost 204 points): puzzles come by the dozen, so moderate steps find the level soon
# enough, and a newcomer's first miss costs at most FIRST_MOVE_MAX points. It is shown as
# provisional ("1450?") for the first PROVISIONAL_PUZZLES answers, as lichess does.
PUZZLE_START_SIGMA = 4.0
FIRST_MOVE_MAX = 70
PROVISIONAL_PUZZLES = 10
GAMES = ("stack-a-cash", "flipwars")


@dataclass(frozen=True)
class Standing:
    rating: int
    provisional: bool
    attempts: int
    solved: int
    streak: int
    best_streak: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.rating,
            "provisional": self.provisional,
            "attempts": self.attempts,
            "solved": self.solved,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


def _standing(row: PuzzleRatingRow | None) -> Standing:
    if row is None:
        return Standing(Rating().display, True, 0, 0, 0, 0)
    r = Rating(mu=row.mu, sigma=row.sigma)
    provisional = r.provisional or row.attempts < PROVISIONAL_PUZZLES
    return Standing(r.display, provisional, row.attempts, row.solved, row.streak, row.best_streak)


def _ensure(store: Store, player_id: str) -> None:
    """The player's row, created on first use (two first requests at once: one inserts)."""
    with store.sessions() as s:
        if s.get(PuzzleRatingRow, player_id) is not None:
            return
    fresh = Rating(sigma=PUZZLE_START_SIGMA)
    try:
        with store.sessions.begin() as s:
            s.add(
                PuzzleRatingRow(
                    player_id=player_id,
                    mu=fresh.mu,
                    sigma=fresh.sigma,
                    attempts=0,
                    solved=0,
                    streak=0,
                    best_streak=0,
                )
            )
    except IntegrityError:
        pass  # inserted by the other request


def _row(s: Any, player_id: str) -> PuzzleRatingRow:
    row: PuzzleRatingRow = s.execute(
        select(PuzzleRatingRow).where(PuzzleRatingRow.player_id == player_id).with_for_update()
    ).scalar_one()
    return row


def standing(store: Store, player_id: str) -> Standing:
    with store.sessions() as s:
        return _standing(s.get(PuzzleRatingRow, player_id))


def choose(
    store: Store, player_id: str, game: str | None, skip: str | None, rng: random.Random
) -> tuple[puzzles.Puzzle, Standing]:
    """The next puzzle for the player (near their rating, not ``skip``), remembered as the
    one to rate."""
    _ensure(store, player_id)
    with store.sessions.begin() as s:
        row = _row(s, player_id)
        mine = Rating(mu=row.mu, sigma=row.sigma).display
        shipped = [p for p in puzzles.load() if game is None or p.game_id == game]
        pool = [p for p in shipped + blunder_puzzles.pool(store, game) if p.id != skip]
        pool.sort(key=lambda p: (abs(p.rating - mine), p.id))
        puzzle = rng.choice(pool[:NEAREST])
        row.current = puzzle.id
        row.updated_at = utcnow()
        return puzzle, _standing(row)


def record(
    store: Store, player_id: str, puzzle: puzzles.Puzzle, correct: bool
) -> tuple[Standing, int | None]:
    """Rate the answer when ``puzzle`` is the one handed out; the new standing and the rating
    change (None when not rated)."""
    _ensure(store, player_id)
    with store.sessions.begin() as s:
        row = _row(s, player_id)
        if row.current != puzzle.id:
            return _standing(row), None
        before = Rating(mu=row.mu, sigma=row.sigma)
        opponent = Rating(mu=puzzle.rating / DISPLAY_SCALE, sigma=PUZZLE_SIGMA)
        after, _ = rate(before, opponent, winner=0 if correct else 1)
        row.mu, row.sigma = after.mu, after.sigma
        row.attempts += 1
        row.solved += int(correct)
        row.streak = row.streak + 1 if correct else 0
        row.best_streak = max(row.best_streak, row.streak)
        row.current = None
        row.updated_at = utcnow()
        return _standing(row), after.display - before.display
