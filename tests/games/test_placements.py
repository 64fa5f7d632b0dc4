"""The core's lazy legal-action view (:class:`pocketarena.core.Placements`) on a grid that does
not start at action 0, the case FlipWars' own placements never reach."""

from __future__ import annotations

from pocketarena.core import Placements
from pocketarena.games.flipwars import FlipWars


def test_a_grid_further_on_in_the_table_lists_answers_and_indexes_alike() -> None:
    game = FlipWars(mode="enclosed")
    stride = len(game.combos)
    # Rows 0 and 2 of a grid that starts at cell 1: the placements on b1 and d1.
    view = Placements(game, (2, 0), (1, 3), stride, first=stride)
    listed = list(view)
    assert [a.text.split()[2] for a in listed] == ["d1", "d1", "b1", "b1"]
    assert len(view) == 4 and view[-1] is listed[-1] and view[1:3] == listed[1:3]
    for i, action in enumerate(listed):
        assert action in view and action.text in view and view.index(action) == i
    assert game.actions[0] not in view  # a1: before the grid
    assert game.actions[stride + 2] not in view  # b1, a column not in the view
    assert game.actions[-1] not in view  # past the grid
    assert view == listed and view != listed[:3]
