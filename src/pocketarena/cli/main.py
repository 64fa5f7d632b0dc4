"""The ``pocketarena`` program: it only wires commands together.

Each command lives in its own module here with a ``register(app)`` function; adding one
(``solve``, ``arena``, ``serve``…) means adding its module and its name to ``COMMANDS``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

import pocketarena
from pocketarena import i18n

from . import common
from .common import NOTHING_KEPT, USAGE, error_line, interrupted

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
    "explore",
    "serve",
    "deploy",
)


def _flags_without_type(params: list[Any]) -> list[Any]:
    """Recent typer labels every on/off flag ``<bool>`` in help (``--help <bool>``); a flag
    takes no value, so it shows none."""
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", None) is None:
            param.metavar = ""
    return params


def _usage_message(error: Exception) -> str:
    """click's message as one of our lines: lower case first, the help to ask for after it."""
    text = " ".join(getattr(error, "format_message", error.__str__)().split()).rstrip(".")
    text = text[:1].lower() + text[1:]
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        text += f" (see {ctx.command_path} -h)"
    return text


class Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_type(super().get_params(ctx))

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Every mistake on the command line is one ``error:`` line and exit 2, as the
        commands' own refusals are (not click's usage block and typer's boxed panel)."""
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = run(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.Abort:
            sys.exit(1)
        except typer.TyperException as e:  # click's usage errors (typer vendors click)
            if type(e).__name__ != "NoArgsIsHelpError":  # the help is on the screen already
                error_line(_usage_message(e))
            sys.exit(USAGE)
        sys.exit(code if isinstance(code, int) else 0)


class Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_type(super().get_params(ctx))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """Arguments spelt one way in every usage line: ``GAME`` when required, ``[GAME]``
        when not, ``URL...`` for several (typer writes ``{game}``, ``[[GAME]]``, ``{url}...``)."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if getattr(param, "param_type_name", "") != "argument":
                continue
            name = (param.metavar or param.name or "").strip("[]{}.").upper()
            name += "..." if param.nargs == -1 else ""
            pieces.append(name if param.required else f"[{name}]")
        return pieces

    def invoke(self, ctx: Any) -> Any:
        """Ctrl-C in a command that keeps nothing says so (commands that keep part of their
        work, as arena does, catch it first and say what)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted(NOTHING_KEPT)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"pocketarena {pocketarena.__version__}")
        raise typer.Exit()


def _root(
    ctx: typer.Context,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="CODE",
            help="Language of the words shown: "
            + ", ".join(i18n.LANGUAGES)
            + " (otherwise LANGUAGE, LC_ALL, LC_MESSAGES or LANG, as gettext reads them).",
            show_default=False,
        ),
    ] = None,
    no_color: Annotated[
        bool,
        typer.Option("--no-color", help="No colours (as NO_COLOR=1 does); letters say it all."),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_print_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Pocket Arena: play, replay and study pocket-change micro board games."""
    if no_color:
        common.console.no_color = common.err_console.no_color = True
    # The command speaks this language (a --lang we do not speak is refused in the
    # environment's); the context's end restores the one before (a test that runs commands
    # in one process keeps its own).
    chosen = lang if lang is not None and i18n.known(lang) else None
    ctx.with_resource(i18n.use_locale(chosen or common.terminal_language()))
    if lang is not None and chosen is None:
        common.fail(
            common._(
                "--lang %(lang)s: not a language we speak; codes: %(codes)s",
                lang=lang,
                codes=", ".join(i18n.LANGUAGES),
            )
        )


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="pocketarena",
        cls=Group,
        no_args_is_help=True,
        add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish
        pretty_exceptions_show_locals=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root)
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.{name}").register(app)
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = Command
    return app


app = build_app()


def main() -> None:
    app()
