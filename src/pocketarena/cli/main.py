"""The ``pocketarena`` program: it only wires commands together.

Each command lives in its own module here with a ``register(app)`` function; adding one
(``solve``, ``arena``, ``serve``…) means adding its module and its name to ``COMMANDS``.
"""

from __future__ import annotations

import importlib

import typer

COMMANDS = (
    "games",
    "rules",
    "play",
    "replay",
    "solve",
    "verify",
    "arena",
    "balance",
    "analyze",
    "serve",
)


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="pocketarena",
        help="Pocket Arena: play, replay and study pocket-change micro board games.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_show_locals=False,
    )
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.{name}").register(app)
    return app


app = build_app()


def main() -> None:
    app()
