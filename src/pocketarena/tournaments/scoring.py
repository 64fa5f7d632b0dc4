"""Games of a tournament and the table they make: points, Buchholz and Sonneborn-Berger (Swiss
and round robin), and the arena's points with their streaks (as lichess counts them).

A player is any string the caller chooses (a bot spec, an account id); the order of the
``players`` list is their seed order, strongest first, and breaks the last ties.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
BYE_POINTS = 1.0  # a bye scores as a win (FIDE and lichess Swiss alike)


@dataclass(frozen=True, order=True)
class Pairing:
    """Who plays whom: ``first`` takes the first seat; ``second`` None is a bye."""

    first: str
    second: str | None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True)
class Played:
    """A finished game (or a bye) of a tournament: ``score`` is the first seat's, 1, 0.5 or 0
    (ignored for a bye). ``berserk`` names the players who halved their clock (arena)."""

    first: str
    second: str | None
    score: float = DRAW
    berserk: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.score not in (WIN, DRAW, LOSS):
            raise ValueError(f"a game's score is 1, 0.5 or 0, got {self.score!r}")
        if self.second is not None and self.second == self.first:
            raise ValueError(f"{self.first!r} cannot play themselves")

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def score_of(self, player: str) -> float:
        if self.second is None:
            return BYE_POINTS
        return self.score if player == self.first else 1.0 - self.score

    def opponent_of(self, player: str) -> str | None:
        return self.second if player == self.first else self.first


@dataclass(frozen=True)
class Standing:
    """One row of the table."""

    rank: int
    player: str
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def points(played: Iterable[Played]) -> dict[str, float]:
    """Each player's points so far (byes count as a win)."""
    totals: dict[str, float] = {}
    for game in played:
        for player in (game.first, game.second):
            if player is not None:
                totals[player] = totals.get(player, 0.0) + game.score_of(player)
    return totals


def standings(players: Sequence[str], played: Iterable[Played]) -> list[Standing]:
    """The table, best first: points, then Buchholz (the sum of the opponents' points), then
    Sonneborn-Berger (the points of the opponents beaten, plus half those of the ones drawn),
    then seed order. A bye adds its point and nothing to either tie-break."""
    games = list(played)
    totals = points(games)
    seed = {p: i for i, p in enumerate(players)}
    buchholz = dict.fromkeys(players, 0.0)
    berger = dict.fromkeys(players, 0.0)
    tally = {p: [0, 0, 0, 0] for p in players}  # wins, draws, losses, byes
    for game in games:
        for player in (game.first, game.second):
            if player is None or player not in seed:
                continue
            opponent = game.opponent_of(player)
            if opponent is None:
                tally[player][3] += 1
                continue
            mine = game.score_of(player)
            theirs = totals.get(opponent, 0.0)
            buchholz[player] += theirs
            berger[player] += mine * theirs
            tally[player][0 if mine == WIN else 1 if mine == DRAW else 2] += 1
    order = sorted(players, key=lambda p: (-totals.get(p, 0.0), -buchholz[p], -berger[p], seed[p]))
    return [
        Standing(
            rank=i + 1,
            player=p,
            points=totals.get(p, 0.0),
            buchholz=buchholz[p],
            sonneborn_berger=berger[p],
            wins=tally[p][0],
            draws=tally[p][1],
            losses=tally[p][2],
            byes=tally[p][3],
        )
        for i, p in enumerate(order)
    ]


# -- the arena's points ---------------------------------------------------------------------
ARENA_WIN, ARENA_DRAW = 2, 1
BERSERK_BONUS = 1


@dataclass(frozen=True)
class ArenaSheet:
    """A player's arena games in order: what each scored, the total, and whether they are on
    fire (two wins in a row: every game is worth double until one is not won)."""

    player: str
    scores: tuple[int, ...]
    points: int
    on_fire: bool
    wins: int
    draws: int
    losses: int


def arena_sheet(player: str, played: Iterable[Played]) -> ArenaSheet:
    """``player``'s sheet from their games in the order they finished. A win scores 2 and a
    draw 1; after two wins in a row each game counts double (4 and 2) until one is not won; a
    berserk player who wins adds 1."""
    scores: list[int] = []
    streak = 0
    wins = draws = losses = 0
    for game in played:
        if player not in (game.first, game.second) or game.is_bye:
            continue
        mine = game.score_of(player)
        base = ARENA_WIN if mine == WIN else ARENA_DRAW if mine == DRAW else 0
        score = base * (2 if streak >= 2 else 1)
        if mine == WIN and player in game.berserk:
            score += BERSERK_BONUS
        scores.append(score)
        if mine == WIN:
            wins += 1
            streak += 1
        else:
            draws += mine == DRAW
            losses += mine == LOSS
            streak = 0
    return ArenaSheet(
        player=player,
        scores=tuple(scores),
        points=sum(scores),
        on_fire=streak >= 2,
        wins=wins,
        draws=draws,
        losses=losses,
    )


def arena_standings(players: Sequence[str], played: Sequence[Played]) -> list[ArenaSheet]:
    """Every player's sheet, best first: points, then wins, then seed order."""
    seed = {p: i for i, p in enumerate(players)}
    sheets = [arena_sheet(p, played) for p in players]
    return sorted(sheets, key=lambda s: (-s.points, -s.wins, seed[s.player]))
