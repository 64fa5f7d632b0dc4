"""Fixtures that register the example games for one test at a time (other tests never see
them): Coin Race (``tests/coin_race/``, the example of docs/contributing.md, with every part a
game folder can have) and Bare Race (``tests/bare_race/``, the same rules with no other part).

A folder's conftest imports ``coin_race`` to have Coin Race registered for each of its tests.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import pocketarena as pa
from pocketarena.core import register, unregister
from tests import bare_race as bare_package
from tests import coin_race as race_package


def registered(game: type[pa.Game]) -> Iterator[pa.Game]:
    """``game`` registered while the test runs, then forgotten."""
    register(game)
    try:
        yield pa.load(game.ID)
    finally:
        unregister(game.ID)


@pytest.fixture(autouse=True)
def coin_race() -> Iterator[pa.Game]:
    yield from registered(race_package.GAME)


@pytest.fixture
def bare_race() -> Iterator[pa.Game]:
    yield from registered(bare_package.GAME)
