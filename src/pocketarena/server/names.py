"""A player's name as each reader sees it.

Names are stored as they were given. A guest is given ``Guest 0467`` (the first four
characters of their id, ``core.security.default_guest_name``): English words, so a guest
who has not chosen a name is worded where the name is shown, in the reader's language
("Invité 0467", "ゲスト 0467"), from its number. A bot's stored name is the catalog's source
words (``catalog.stored_bot_name``), worded the same way; a tournament's bot is a level's bot
with a number (``numbered_bot_name``: "Randy (random) 2"), worded as the level's name and the
number ("Randy (au hasard) 2"). A name a person chose reads as they wrote it, in every
language.

Pages word names here. The JSON the pages' scripts and the API read keeps ``name`` as stored
and adds ``guest``, the number, where the name is a guest's given one: the lobby's updates
are one message for every reader, so each script words the name for its own
(``static/format.js``, ``personName``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pocketarena.i18n import _

from .core.security import default_guest_name

# A numbered bot's stored name: the level's stored name, a space, the number (static/format.js
# reads it the same way in personName).
_NUMBERED_BOT = re.compile(r"(.+) ([0-9]+)")


def numbered_bot_name(level_name: str, number: int) -> str:
    """The stored name of bot ``number`` of a level whose stored name is ``level_name`` (a
    tournament's bots are players of their own): "Randy (random) 2"."""
    return f"{level_name} {number}"


def guest_number(player_id: str | None, name: str | None) -> str | None:
    """The number of a guest still called by the name they were given ("0467"), else None
    (a name chosen by its player, a bot's)."""
    if not player_id or name is None or name != default_guest_name(player_id):
        return None
    return player_id[:4]


def shown_name(player_id: str | None, name: str, kind: str | None = None) -> str:
    """``name`` as the reader sees it, in the language of the moment."""
    return _worded(name, kind, guest_number(player_id, name))


def shown(player: Mapping[str, Any] | None, fallback: str = "?") -> str:
    """A player's name as the reader sees it, from their JSON: ``name``, ``kind``, and
    ``guest`` (else ``id`` or ``player`` to find it). The templates call it (``shown(me)``,
    ``shown({"name": g.opponent, "guest": g.opponent_guest, "kind": g.opponent_kind})``)."""
    if not player:
        return fallback
    name = str(player.get("name") or fallback)
    if "guest" in player:
        number = player["guest"]
    else:
        number = guest_number(player.get("id") or player.get("player"), name)
    return _worded(name, player.get("kind"), number)


def _worded(name: str, kind: str | None, number: str | None) -> str:
    """A bot's name (the catalog's source words) and a guest's given one (from its number) in
    the reader's words; any other as it is."""
    if kind == "bot":
        numbered = _NUMBERED_BOT.fullmatch(name)
        return f"{_(numbered[1])} {numbered[2]}" if numbered else _(name)
    return name if not number else _("Guest %(number)s", number=number)


def stored_name(typed: str) -> str:
    """A name as a reader typed it (to find a player by), as it is stored: a guest's given
    name in the reader's words ("Invité 0467") is ``Guest 0467``; any other as typed."""
    before, _number, after = _("Guest %(number)s", number="\x00").partition("\x00")
    found = re.fullmatch(
        re.escape(before) + r"([0-9a-f]{4})" + re.escape(after), typed.strip(), re.IGNORECASE
    )
    return default_guest_name(found[1].lower()) if found else typed
