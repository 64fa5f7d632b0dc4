"""The players' rules pages (Markdown shipped in the package), read by the terminal and the site."""

from __future__ import annotations

from importlib.resources import files


def rules_text(game_id: str) -> str | None:
    """The Markdown rules page of a game, or None when it has none."""
    try:
        page = files("pocketarena") / "rulebook" / f"{game_id}.md"
        return page.read_text(encoding="utf-8") if page.is_file() else None
    except (FileNotFoundError, NotADirectoryError):
        return None
