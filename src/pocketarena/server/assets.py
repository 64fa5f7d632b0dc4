"""The pages' own files under /static: scripts, styles, images.

The scripts are ES modules that import one another by name (``./dom.js``), with no build step
and no version in their addresses. A browser that kept an old module beside a new one after an
upgrade would run a page whose imports no longer match (a blank page, a SyntaxError), so every
file is revalidated on use (``no-cache``: an unchanged file costs a 304 by its ETag) rather than
kept by a browser's guess of freshness. A module is served as JavaScript whatever the system's
type tables say: browsers refuse to run a module of any other type.

A tab left open across an upgrade still runs the old modules against the new server. What the
pages run has one short id, ``BUILD`` (the files' contents and the package's version), in every
page's ``<meta name="pa-build">`` and in the socket's ``hello``: a page that hears another build
than its own tells the player to reload (socket.js).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

from pocketarena import __version__

JAVASCRIPT = "text/javascript; charset=utf-8"
STATIC = Path(__file__).parent / "static"


def build_id(directory: Path, version: str = __version__) -> str:
    """Twelve hex digits of a SHA-256 of the package's version and every file under
    ``directory`` (its path and contents, in the order of the paths): the same files give the
    same id in every process of a cluster, whatever their times or the folder's order."""
    digest = hashlib.sha256(version.encode())
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        name = path.relative_to(directory).as_posix().encode()
        content = path.read_bytes()
        digest.update(b"\0%d:%s\0%d:" % (len(name), name, len(content)))
        digest.update(content)
    return digest.hexdigest()[:12]


BUILD = build_id(STATIC)  # once, as the server starts


class Assets(StaticFiles):
    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = FileResponse(
            full_path,
            status_code=status_code,
            stat_result=stat_result,
            media_type=JAVASCRIPT if str(full_path).endswith(".js") else None,
            headers={"Cache-Control": "no-cache"},
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
