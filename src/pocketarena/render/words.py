"""How the notation's words read on the web page's buttons, declared by each game's drawing
(``WORDS`` in its ``render.py``), in English; the site's catalogs translate them.

The game page builds a move from its words (``place Q treewood``): places are named by the
board itself (``data-name``), everything else by these:

- ``names``: a coin or piece, read beside its letter ("Q · Quarter");
- ``choices``: words read instead of the notation's ("Blue starts", "↻ 90°");
- ``verbs``: an action that is its verb alone ("End turn");
- ``rotations``: the words that turn a piece (offered together, each previewed on the board).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pocketarena.core import for_game


@dataclass(frozen=True)
class ButtonWords:
    names: Mapping[str, str] = field(default_factory=dict)
    choices: Mapping[str, str] = field(default_factory=dict)
    verbs: Mapping[str, str] = field(default_factory=dict)
    rotations: tuple[str, ...] = ()

    def all(self) -> list[str]:
        """Every English word here, for the catalogs."""
        return [*self.names.values(), *self.choices.values(), *self.verbs.values()]


def button_words(game_id: str) -> ButtonWords:
    """The game's words for the page's buttons (none for a game whose drawing declares none)."""
    words = getattr(for_game(game_id, "render"), "WORDS", None)
    return words if isinstance(words, ButtonWords) else ButtonWords()
