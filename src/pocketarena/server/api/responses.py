"""The JSON answers of the API: one response class for the app and the routes that build
their answer themselves."""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse


def render_json(content: Any) -> bytes:
    """``SafeJSONResponse``'s body for ``content``."""
    text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode("utf-8", "replace")


class SafeJSONResponse(JSONResponse):
    """JSON that always encodes: a text that cannot be UTF-8 (a lone surrogate a client sent,
    echoed in a message) is written with U+FFFD instead of failing the response."""

    def render(self, content: Any) -> bytes:
        return render_json(content)
