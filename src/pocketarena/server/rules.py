"""Rules pages: docs/rules/<game>.md (and its translations, docs/rules/<code>/<game>.md) rendered
to HTML with markdown-it-py (CommonMark + tables)."""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

ASSET = re.compile(
    r"(?:[A-Za-z0-9][A-Za-z0-9_-]*/)*[A-Za-z0-9][A-Za-z0-9._-]*\.(svg|png|jpg|jpeg|gif|webp)"
)
ASSET_TYPES = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
}


# "<!-- ... -->" lines are notes to whoever edits the page (raw HTML would be shown escaped).
EDITOR_NOTE = re.compile(r"^[ \t]*<!--.*?-->[ \t]*\n?", re.M | re.S)


def _is_relative(url: str) -> bool:
    return bool(url) and not re.match(r"^[a-z][a-z0-9+.-]*:|^/|^#", url, re.I)


def _in_rulebook(env: EnvType, path: str) -> str:
    """A path relative to the page (a translation links ``../maps/x.svg``, as GitHub reads it)
    as a path in the rulebook (``maps/x.svg``)."""
    return posixpath.normpath(posixpath.join(env.get("folder", ""), path)).lstrip("./")


def _image(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    if _is_relative(src):
        token.attrSet("src", "/rules/files/" + _in_rulebook(env, src))
    token.attrSet("loading", "lazy")
    return self.image(tokens, idx, options, env)


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    if _is_relative(href):
        path, _, anchor = href.partition("#")
        if path.endswith(".md"):
            href = "/rules/" + posixpath.basename(path)[:-3] + (f"#{anchor}" if anchor else "")
        elif ASSET.fullmatch(_in_rulebook(env, path)):
            href = "/rules/files/" + _in_rulebook(env, path)
        token.attrSet("href", href)
    return self.renderToken(tokens, idx, options, env)


def _heading_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # Anchors on headings, so sections can be linked (#scoring, #les-cartes, #地図): letters
    # and digits of any script kept, as GitHub keeps them.
    inline = tokens[idx + 1]
    slug = re.sub(r"[^\w]+|_", "-", inline.content.lower()).strip("-")
    if slug:
        tokens[idx].attrSet("id", slug)
    return self.renderToken(tokens, idx, options, env)


@functools.cache
def markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(
        ["table", "strikethrough"]
    )
    md.add_render_rule("image", _image)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("heading_open", _heading_open)
    return md


def render(text: str, folder: str = "") -> str:
    """Markdown to HTML; ``folder`` is where the page lies in the rulebook ("" or "fr"), which
    its relative links start from. Raw HTML in the source is escaped, not passed through. Code
    blocks and tables may scroll sideways on a phone: they take the keyboard focus, so they can
    be scrolled without a pointer. Notation (code, inline or in blocks) stays left to right in
    a right-to-left page."""
    html = str(markdown().render(EDITOR_NOTE.sub("", text), {"folder": folder}))
    return (
        html.replace("<pre><code", '<pre tabindex="0" dir="ltr"><code')
        .replace("<code>", '<code dir="ltr">')
        .replace("<table>", '<table tabindex="0">')
    )


def title_and_body(text: str) -> tuple[str | None, str]:
    """Split off a leading '# Title' line so the page can show it as its heading."""
    lines = text.lstrip().splitlines()
    if lines and lines[0].startswith("# "):
        return lines[0][2:].strip(), "\n".join(lines[1:])
    return None, text


def asset(name: str) -> tuple[bytes, str] | None:
    """An image kept with the rules (docs/rules/<name>, folders allowed), if ``name`` is a plain
    relative path to an image file (no '..', no absolute path). A name the file system cannot
    take (too long, too deep) raises its OSError: the app answers those with 404."""
    match = ASSET.fullmatch(name)
    if not match or ".." in name.split("/"):
        return None
    path: Any = resources.files("pocketarena") / "rulebook"
    for part in name.split("/"):
        path = path / part
    try:
        return path.read_bytes(), ASSET_TYPES[match.group(1).lower()]
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
