"""The ``pocketarena`` program: it only wires commands together.

Each command lives in its own module here with a ``register(app)`` function; adding one
(``solve``, ``arena``, ``serve``…) means adding its module and its name to ``COMMANDS``.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

import pocketarena
from pocketarena import i18n

from . import common
from .common import N_, NOTHING_KEPT, USAGE, error_line, interrupted

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


# pydantic's words for a value typer could not read as the option's type, in our catalog.
_VALUE_WORDS = {
    text: text
    for text in (
        N_("Input should be a valid integer, unable to parse string as an integer"),
        N_("Input should be a valid number, unable to parse string as a number"),
        N_("Input should be a valid boolean, unable to interpret input"),
    )
}


def _hint(error: Any) -> str | None:
    """The parameter a click error is about, as click names it (``'FILE'``, ``'--seat'``)."""
    hint = getattr(error, "param_hint", None)
    param = getattr(error, "param", None)
    if hint is None and param is not None:
        hint = param.get_error_hint()
    if hint is None:
        return None
    return hint if isinstance(hint, str) else " / ".join(repr(h) for h in hint)


def _parameter_said(error: Exception, kind: str, text: str, hint: str | None) -> str | None:
    """A missing or unreadable parameter, worded (``_click_said``)."""
    if not hint:
        return None
    if kind == "MissingParameter" and not text:
        param = getattr(error, "param", None)
        if param is not None and param.get_missing_message(ctx=getattr(error, "ctx", None)):
            return None
        what = getattr(error, "param_type", None) or getattr(param, "param_type_name", None)
        if what == "argument":
            return common._("missing argument %(name)s", name=hint)
        if what == "option":
            return common._("missing option %(name)s", name=hint)
        return None
    if kind == "BadParameter":
        choice = re.fullmatch(r"Value error, ('.*') is not one of (.*)\.", text)
        if choice:
            return common._(
                "invalid value for %(name)s: Value error, %(value)s is not one of %(choices)s",
                name=hint,
                value=choice[1],
                choices=choice[2],
            )
        if text in _VALUE_WORDS:
            return common._(
                "invalid value for %(name)s: %(why)s", name=hint, why=common._(_VALUE_WORDS[text])
            )
        return None
    return None


def _click_said(error: Exception) -> str | None:
    """A usage error worded from its kind and attributes in the reader's language (English
    exactly as click writes it, lower case first), or None for one we do not know."""
    kind = type(error).__name__
    text = " ".join(str(getattr(error, "message", "")).split())
    hint = _hint(error)
    if kind == "NoSuchOption":
        option = getattr(error, "option_name", "")
        possible = getattr(error, "possibilities", None)
        if text != f"No such option: {option}":
            return None
        if not possible:
            return common._("no such option: %(option)s", option=option)
        return common._(
            "no such option: %(option)s (Possible options: %(options)s)",
            option=option,
            options=", ".join(sorted(possible)),
        )
    if kind in ("MissingParameter", "BadParameter"):
        return _parameter_said(error, kind, text, hint)
    if kind == "BadOptionUsage":
        option = getattr(error, "option_name", "")
        if text == f"Option {option!r} requires an argument.":
            return common._("option %(option)s requires an argument", option=repr(option))
        return None
    if kind == "UsageError":
        extra = re.fullmatch(r"Got unexpected extra argument\(s\) \((.*)\)", text)
        if extra:
            return common._("got unexpected extra argument(s) (%(args)s)", args=extra[1])
        command = re.fullmatch(r"No such command (.*)\.", text)
        if command:
            return common._("no such command %(name)s", name=command[1])
    return None


def _usage_message(error: Exception) -> str:
    """click's message as one of our lines, in the reader's language: lower case first, the
    help to ask for after it. An error we cannot word keeps click's English text."""
    text = _click_said(error)
    if text is None:
        text = " ".join(getattr(error, "format_message", error.__str__)().split()).rstrip(".")
        text = text[:1].lower() + text[1:]
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        text = common._("%(problem)s (see %(command)s -h)", problem=text, command=ctx.command_path)
    return text


# The words click and typer write into every help screen, in our catalog so that the screen
# speaks the reader's language (the titles of typer's panels are module constants it reads
# when it draws them).
_PANEL_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
_CLICK_WORDS = (
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)


def help_words() -> dict[str, str]:
    """The lists a help text names (games, bots, languages), filled in at the time it is
    shown: a help text is a catalog message with these placeholders."""
    from pocketarena.bots.registry import bot_names

    return {
        "games": ", ".join(sorted(pocketarena.GAMES)),
        "bots": ", ".join(bot_names()),
        "codes": ", ".join(i18n.LANGUAGES),
    }


def _worded(text: str | None, words: dict[str, str]) -> str | None:
    # typer reads help as rich markup: "[default: greedy]" would be taken for a tag and vanish.
    return escape(common._(inspect.cleandoc(text), **words)) if text else text


@contextmanager
def _in_the_readers_language(command: Any, ctx: Any) -> Iterator[None]:
    """Help is written in English (message ids) when the program is built, before anyone
    knows the reader's language; while one help screen is drawn, the command's, its
    parameters' and its commands' texts and typer's own words are the reader's."""
    # Here, not at the top: typer draws help with it (rich's markdown, syntax and traceback
    # modules), and a command that shows no help need not import it.
    from typer import rich_utils

    words = help_words()
    saved: list[tuple[Any, str, Any]] = []

    def swap(owner: Any, attribute: str, value: Any) -> None:
        saved.append((owner, attribute, getattr(owner, attribute)))
        setattr(owner, attribute, value)

    swap(command, "help", _worded(command.help, words))
    for param in command.get_params(ctx):
        if getattr(param, "help", None):
            swap(param, "help", _worded(param.help, words))
    for sub in getattr(command, "commands", {}).values():
        swap(sub, "help", _worded(sub.help, words))
        swap(sub, "short_help", _worded(sub.short_help, words))
    for constant, text in _PANEL_WORDS.items():
        swap(rich_utils, constant, common._(text))
    try:
        yield
    finally:
        for owner, attribute, value in reversed(saved):
            setattr(owner, attribute, value)


def _usage_in_the_readers_language(usage: str) -> str:
    """click writes ``Usage:`` in English; the rest of the line is notation."""
    prefix = "Usage:"
    return common._("Usage:") + usage[len(prefix) :] if usage.startswith(prefix) else usage


def _language_asked(args: Sequence[str]) -> str:
    """The language of a help screen asked for before ``--lang`` is read (``pocketarena
    --lang fr -h``: click draws the help while it parses): ``--lang`` among the options before
    the command, else the environment's."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return args[index + 1] if i18n.known(args[index + 1]) else common.terminal_language()
        if arg.startswith("--lang="):
            code = arg.partition("=")[2]
            return code if i18n.known(code) else common.terminal_language()
        if not arg.startswith("-"):
            break
    return common.terminal_language()


class _Spoken:
    """What the program and each command share: flags shown without a type, and help and
    usage lines in the reader's language."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_type(super().get_params(ctx))  # type: ignore[misc]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with _in_the_readers_language(self, ctx):
            super().format_help(ctx, formatter)  # type: ignore[misc]

    def get_usage(self, ctx: Any) -> str:
        return _usage_in_the_readers_language(super().get_usage(ctx))  # type: ignore[misc]


class Group(_Spoken, TyperGroup):
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
        asked = sys.argv[1:] if args is None else list(args)
        with i18n.use_locale(_language_asked(asked)):
            return self._main(
                args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra
            )

    def _main(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        standalone_mode: bool,
        windows_expand_args: bool,
        **extra: Any,
    ) -> Any:
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


class Command(_Spoken, TyperCommand):
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
            help=N_(
                "Language of the words shown: %(codes)s (otherwise LANGUAGE, LC_ALL, "
                "LC_MESSAGES or LANG, as gettext reads them)."
            ),
            show_default=False,
        ),
    ] = None,
    no_color: Annotated[
        bool,
        typer.Option("--no-color", help=N_("No colours (as NO_COLOR=1 does); letters say it all.")),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_print_version,
            is_eager=True,
            help=N_("Print the version and exit."),
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


def command_descriptions() -> list[str]:
    """The program's and each command's description, as ``-h`` shows them: their docstrings,
    message ids of the ``engine`` catalog (``scripts/catalogs.py`` adds them to it)."""
    callbacks = [app.registered_callback.callback] if app.registered_callback else []
    callbacks += [info.callback for info in app.registered_commands]
    return [
        inspect.getdoc(callback) or "" for callback in callbacks if callback and callback.__doc__
    ]


def main() -> None:
    app()
