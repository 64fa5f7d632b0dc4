"""The pages' own files under /static: scripts, styles, images.

The scripts are ES modules that import one another by name (``./dom.js``), with no build step
and no version in their addresses. A browser that kept an old module beside a new one after an
upgrade would run a page whose imports no longer match (a blank page, a SyntaxError), so every
file is revalidated on use (``no-cache``: an unchanged file costs a 304 by its ETag) rather than
kept by a browser's guess of freshness. A module is served as JavaScript whatever the system's
type tables say: browsers refuse to run a module of any other type.
"""

from __future__ import annotations

import os

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

JAVASCRIPT = "text/javascript; charset=utf-8"


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
