"""The routes' dependencies run on the event loop: FastAPI runs a plain ``def`` dependency
in a worker thread, so a one-line getter would cost every request a hop to a thread and
back (measured: a fifth of a request's CPU went to AnyIO's worker threads)."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator
from pathlib import Path

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import BaseRoute

from pocketarena.server.main import create_app

from .conftest import make_settings


def _sync_dependencies(dependant: Dependant, route: str) -> list[str]:
    found = []
    for dep in dependant.dependencies:
        call = dep.call
        if call is not None and not (
            inspect.iscoroutinefunction(call)
            or inspect.iscoroutinefunction(type(call).__call__)  # an instance with async __call__
        ):
            found.append(f"{route}: {getattr(call, '__qualname__', call)}")
        found += _sync_dependencies(dep, route)
    return found


def _routes(routes: Iterable[BaseRoute]) -> Iterator[APIRoute | APIWebSocketRoute]:
    for route in routes:
        if isinstance(route, APIRoute | APIWebSocketRoute):
            yield route
        inner = getattr(route, "original_router", None)  # a router the app includes
        if inner is not None:
            yield from _routes(inner.routes)


def test_no_route_has_a_dependency_that_runs_in_a_thread(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path))
    routes = list(_routes(app.routes))
    assert len(routes) > 50  # the check saw the app's routes
    sync = sorted({s for r in routes for s in _sync_dependencies(r.dependant, r.path)})
    assert sync == []
