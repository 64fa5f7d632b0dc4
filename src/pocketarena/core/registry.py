"""Games by id: the one place a game is registered, named and found, with the parts of its
folder (drawing, observation, heuristic) found the same way for everyone who needs them.

A game lives in one folder (``pocketarena/games/<name>/``): ``rules.py`` holds the Game and
State classes, its data sits beside it, ``__init__.py`` names the Game as ``GAME`` (which
:func:`pocketarena.games.load_all` registers), and the optional parts are modules named after
their kind (:data:`KINDS`) in the same folder, imported only when asked for.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any, Literal, TypeVar, get_args

from .errors import Refusal
from .game import Game
from .options import resolve_options

_GAMES: dict[str, type[Game]] = {}
GAMES = MappingProxyType(_GAMES)  # id -> Game class, read-only

G = TypeVar("G", bound=type[Game])

# The optional parts of a game's folder, each a module named after its kind:
# - ``render``: ``rich_board(state, last)``, ``svg_board(state, last)``, ``describe(action)``
#   (see :mod:`pocketarena.render`);
# - ``observe``: ``layout(game)`` and ``write(state, seat, out)`` (see :mod:`pocketarena.observe`);
# - ``heuristics``: ``evaluate(state, seat) -> float`` in [-1, 1], for the bots;
# - ``vector``: ``make(**options) -> Env``, the game in JAX (see :mod:`pocketarena.vector`).
Kind = Literal["render", "observe", "heuristics", "vector"]
KINDS: tuple[Kind, ...] = get_args(Kind)


def register(cls: G) -> G:
    """Make a Game findable by ``pa.load(cls.ID)``. Called for each folder's ``GAME`` by
    :func:`pocketarena.games.load_all`; code outside the package may call it for its own."""
    if cls.ID in _GAMES and _GAMES[cls.ID] is not cls:
        raise ValueError(f"a game with id {cls.ID!r} is already registered")
    _GAMES[cls.ID] = cls
    return cls


def unregister(game_id: str) -> None:
    """Forget a game registered by :func:`register` (tests register example games briefly)."""
    cls = _GAMES.pop(game_id, None)
    if cls is not None:
        _part.cache_clear()
        _SHARED.clear()


def normalize_game_id(text: str) -> str:
    """The id a person or a client most likely meant: ``" Stack_A_Cash "`` -> ``stack-a-cash``."""
    return str(text).strip().lower().replace("_", "-")


def game_class(game_id: str) -> type[Game]:
    """The Game class registered under ``game_id`` (forgiving case, spaces and underscores);
    ValueError naming the valid ids otherwise."""
    if not isinstance(game_id, str):
        raise ValueError(f"a game is named by its id, e.g. 'flipwars', got {game_id!r}")
    cls = _GAMES.get(normalize_game_id(game_id))
    if cls is None:
        if not _GAMES:
            raise Refusal("game.none-installed", game=game_id)
        raise Refusal("game.unknown", game=game_id, games=", ".join(sorted(_GAMES)))
    return cls


def load(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options``; unknown ids or options raise ValueError naming
    the valid ones."""
    return game_class(game_id)(**options)


def recorded_options(game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a stored game of ``game_id`` (a record, a saved game) was played with: the
    ones it names, and for an option it predates, the value every game had then. Unknown
    games keep their options as given (loading them says what is wrong)."""
    cls = _GAMES.get(normalize_game_id(game_id))
    return dict(options) if cls is None else cls.recorded_options(options)


def needs_seed(game_id: str, options: Mapping[str, Any]) -> bool:
    """Do these options leave part of the set-up to chance (Coin Age's ``map="random"``) with
    no seed given? Then the caller draws one (:func:`with_seed`): the engine never does."""
    cls = game_class(game_id)
    return cls.needs_seed(resolve_options(cls.ID, cls.OPTIONS, dict(options)))


def with_seed(game_id: str, options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """``options`` with ``seed=seed`` added when the set-up needs a seed and has none; the
    seed then stays in the game's options, and so in its record."""
    out = dict(options)
    if needs_seed(game_id, out):
        out["seed"] = seed
    return out


# -- one shared cache of built games ----------------------------------------------------------
# A Game's options, action table and rules never change once built; what does change is its
# caches of derived facts (Stack-a-Cash's legal lists per layout, FlipWars' placeable tiles per
# supply), which fill as states ask and may be filled by any caller, in any order, to the same
# values. So one Game serves every caller, and building one (its action table) takes
# milliseconds that a server or OpenSpiel (which reloads a game for every deserialised state)
# would otherwise spend again and again. Options are explicit (a set-up left to chance needs a seed), so equal
# options always build equal games.
_SHARED: OrderedDict[str, Game] = OrderedDict()
SHARED_LIMIT = 256
_SHARED_LOCK = threading.Lock()  # the server shares games between threads


def load_shared(game_id: str, options: Mapping[str, Any]) -> Game:
    """``load`` with the games shared between callers (least recently used dropped first)."""
    cls = game_class(game_id)
    key = json.dumps([cls.ID, resolve_options(cls.ID, cls.OPTIONS, dict(options))], sort_keys=True)
    with _SHARED_LOCK:
        game = _SHARED.get(key)
        if game is not None:
            _SHARED.move_to_end(key)
            return game
    game = cls(**dict(options))  # outside the lock: other games need not wait for this one
    with _SHARED_LOCK:
        game = _SHARED.setdefault(key, game)
        while len(_SHARED) > SHARED_LIMIT:
            _SHARED.popitem(last=False)
    return game


# -- the parts of a game's folder ---------------------------------------------------------------
def for_game(game_id: str, kind: Kind) -> ModuleType | None:
    """The ``kind`` module of a game's folder (``games/flipwars/render.py`` for
    ``for_game("flipwars", "render")``), or None when the game has none. ValueError for an
    unknown game or kind; an error inside the module itself is raised as it is."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of game module {kind!r}; kinds: {', '.join(KINDS)}")
    return _part(game_class(game_id), kind)


@functools.cache
def _part(cls: type[Game], kind: str) -> ModuleType | None:
    folder = getattr(sys.modules.get(cls.__module__), "__package__", None)
    name = f"{folder}.{kind}"
    if not folder or importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)
