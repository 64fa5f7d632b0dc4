"""What the commands share: the consoles, clean one-line errors, reading a game from flags and
checking where output will go before any work is done."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, NoReturn

import platformdirs
import typer
from rich.console import Console
from rich.markup import escape

import pocketarena as pa
from pocketarena import i18n
from pocketarena.core import (
    format_options,
    fresh_seed,
    game_class,
    parse_option_pairs,
    seat_name,
    with_seed,
)
from pocketarena.messages import speak, speak_error

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

# Exit codes: 2 for a mistake in what the user asked (as click does for bad usage), a file that
# cannot be read as what it should be included; 1 for a request that was understood and whose
# answer is "no" or that failed (a record whose moves do not hold up under --check).
USAGE = 2
FAILED = 1
INTERRUPTED = 130  # stopped by Ctrl-C (128 + SIGINT, as shells report it)


def _(text: str, /, **params: Any) -> str:
    """``text`` in the reader's language (the ``engine`` catalog), ``%(name)s`` filled."""
    return i18n.ENGINE.gettext(text, **params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the reader's language."""
    return i18n.ENGINE.ngettext(singular, plural, n, **params)


def terminal_language(env: Mapping[str, str] = os.environ) -> str:
    """The language to speak, as Python's gettext chooses it: the first of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides, read as a list (``fr:de``) of
    locales such as ``fr_FR.UTF-8``, the first one we speak winning; English for C, POSIX or
    languages we do not speak."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        for part in value.split(":"):
            tag = part.split(".")[0].split("@")[0]
            if tag in ("C", "POSIX", ""):
                return i18n.DEFAULT
            code = i18n.negotiate(tag.replace("_", "-"))
            if code != i18n.DEFAULT or tag.split("_")[0].lower() == "en":
                return code
        return i18n.DEFAULT
    return i18n.DEFAULT


def reason(error: Exception) -> str:
    """Why ``error`` refused, in the reader's language when it says so as a message
    (``error.message``), else its own text."""
    return speak_error(error)


def seat_word(game: pa.Game, seat: int) -> str:
    """A seat's name in the reader's language ("Heads", "Pile")."""
    return speak(seat_name(game.SEATS[seat]))


def say(text: str = "") -> None:
    """One line of text (markup allowed), never wrapped mid-message: a long engine message
    stays one line that the terminal folds, and scripts can grep it."""
    console.print(text, soft_wrap=True)


def error_line(message: str) -> None:
    """The one form every refusal takes: ``error: MESSAGE`` on stderr. The message is plain
    text: brackets in it (``pip install 'pocketarena[rl]'``) are shown, not read as markup."""
    prefix = escape(_("error:"))
    err_console.print(f"[bold red]{prefix}[/] {escape(message)}", markup=True, soft_wrap=True)


def interrupted(kept: str, /, **params: Any) -> NoReturn:
    """Ctrl-C, the same everywhere: one line saying what was kept, exit 130. ``kept`` is a
    message marked with ``N_``, worded here with its ``params``."""
    line = _("Interrupted: %(kept)s", kept=_(kept, **params))
    err_console.print(escape(line), markup=True, soft_wrap=True)
    raise typer.Exit(INTERRUPTED)


def N_(text: str) -> str:
    """Marks ``text`` for the catalog where it is written; it is worded where it is shown."""
    return text


NOTHING_KEPT = N_("nothing was saved.")


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print one clear line to stderr and stop the command with ``code``."""
    error_line(message)
    raise typer.Exit(code)


def cannot_write(folder: Path, error: OSError) -> NoReturn:
    """Results that could not be written: one line naming the folder and why, exit 1."""
    fail(
        _("could not write the results to %(folder)s: %(why)s", folder=folder, why=error.strerror),
        1,
    )


# Games per pairing or variant: the games are listed before the first is played, so a count
# far past any study's (a typo, 10**20) would only fill the memory.
MOST_GAMES = 100_000


def at_least_one(flag: str, value: int, most: int | None = None) -> None:
    """Stop on a count below 1 (``--games 0``) or, given ``most``, above it."""
    if value < 1:
        fail(_("%(flag)s must be at least 1, got %(value)s", flag=flag, value=value))
    if most is not None and value > most:
        fail(
            _("%(flag)s must be at most %(most)s, got %(value)s", flag=flag, most=most, value=value)
        )


GameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help=N_("Game id: %(games)s."), show_default=False),
]
ModeOpt = Annotated[
    str | None,
    typer.Option("--mode", help=N_("Game mode (FlipWars: standard, enclosed, flag, tactical).")),
]
MapOpt = Annotated[
    str | None, typer.Option("--map", help=N_("Map or battlefield (Coin Age, Wallet Battles)."))
]
ProtectOpt = Annotated[
    str | None, typer.Option("--protect", help=N_("Stack-a-Cash protection: touched or placed."))
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="NAME=VALUE",
        help=N_("Any game option as name=value (repeatable), e.g. -o series=false."),
    ),
]


def game_id_or_fail(game_id: str) -> str:
    try:
        return game_class(game_id).ID
    except ValueError:
        fail(
            _(
                "unknown game %(game)r; valid games: %(games)s",
                game=game_id,
                games=", ".join(sorted(pa.GAMES)),
            )
        )


def game_options(
    game_id: str,
    *,
    mode: str | None = None,
    map: str | None = None,
    protect: str | None = None,
    option: list[str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """The game id and the options as typed (``--mode`` and friends merged into ``-o``); the
    same option given twice with different values stops with one line."""
    key = game_id_or_fail(game_id)
    try:
        options: dict[str, Any] = parse_option_pairs(list(option or []))
    except ValueError as e:
        fail(reason(e))
    for name, value in (("mode", mode), ("map", map), ("protect", protect)):
        if value is None:
            continue
        typed = options.get(name)
        if typed is not None and str(typed).strip().lower() != value.strip().lower():
            fail(
                _(
                    "%(flag)s and %(option)s disagree; give the %(name)s once",
                    flag=f"--{name} {value}",
                    option=f"-o {name}={typed}",
                    name=name,
                )
            )
        options[name] = value
    return key, options


def load_game(
    game_id: str,
    *,
    mode: str | None = None,
    map: str | None = None,
    protect: str | None = None,
    option: list[str] | None = None,
    seed: int | None = None,
) -> pa.Game:
    """The game named on the command line, with its options; a bad one stops with one line.
    A set-up left to chance (``--map random``) is drawn from ``seed`` (a fresh one if None)."""
    key, options = game_options(game_id, mode=mode, map=map, protect=protect, option=option)
    return load_or_fail(key, options, seed)


def load_or_fail(key: str, options: Mapping[str, Any], seed: int | None = None) -> pa.Game:
    """``pa.load`` for options a person typed: a bad value, or one the game would quietly
    override (``series=true`` in a one-round mode), stops with one line. A set-up left to
    chance is drawn from ``seed`` (a fresh one if None)."""
    try:
        game = pa.load(key, **with_seed(key, options, fresh_seed() if seed is None else seed))
    except ValueError as e:
        fail(reason(e))
    declared = {o.name: o for o in type(game).OPTIONS}
    for name, typed in options.items():
        wanted = declared[name].coerce(key, typed)
        played = game.options.get(name)
        # "random" asks the game to pick (a map): getting one is what was asked.
        if wanted == played or wanted == "random":
            continue
        others = {k: v for k, v in game.options.items() if k != name and k in options}
        values = {
            "typed": f"{name}={typed}",
            "others": format_options(others),
            "game": game.TITLE,
            "played": format_options({name: played}),
            "help": i18n.SITE.gettext(declared[name].help or ""),  # the games' words: site's
        }
        if others:
            fail(
                _(
                    "%(typed)s does not apply with %(others)s: %(game)s plays %(played)s (%(help)s)",
                    **values,
                )
            )
        fail(_("%(typed)s does not apply: %(game)s plays %(played)s (%(help)s)", **values))
    return game


def data_folder() -> Path:
    """The user's data folder, where games are kept unless ``--save`` says otherwise."""
    return platformdirs.user_data_path("pocketarena")


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def path_typed(flag: str) -> Callable[[str], Path]:
    """The parser of a path option (``parser=path_typed("--out")``): the path as typed, an
    empty one refused at once (Python reads ``Path("")`` as the current folder, where the
    command would then write)."""

    def parse(text: str) -> Path:
        if not text.strip():
            fail(_("%(flag)s needs a path, not an empty one", flag=flag))
        return Path(text)

    return parse


def writable_or_fail(path: Path, flag: str, *, folder: bool = False) -> Path:
    """Stop now, before any game is played, if ``path`` (a file, or with ``folder`` a folder)
    could not be written: a folder where a file goes (or the reverse), a file in the way of the
    folders above it, a folder above it that does not exist (a typo would otherwise make a
    tree of folders; only our own data folder is made as needed), or no permission. Creates
    nothing."""
    if path.exists():
        if folder and not path.is_dir():
            fail(_("%(flag)s %(path)s is a file, not a folder", flag=flag, path=path))
        if not folder and path.is_dir():
            fail(
                _(
                    "%(flag)s %(path)s is a folder; give a file name, e.g. %(example)s",
                    flag=flag,
                    path=path,
                    example=path / "game.json",
                )
            )
    above = path if folder and path.is_dir() else path.parent
    while not above.exists():
        above = above.parent
    if not above.is_dir():
        blocked = (
            _("%(flag)s %(path)s: %(above)s is a file, so no folder can be made under it")
            if folder
            else _("%(flag)s %(path)s: %(above)s is a file, so no file can be made under it")
        )
        fail(blocked % {"flag": flag, "path": path, "above": above})
    parent = path.parent
    if not parent.is_dir() and not _inside(parent, data_folder()):
        fail(
            _(
                "%(flag)s %(path)s: the folder %(parent)s does not exist; make it first or give "
                "another",
                flag=flag,
                path=path,
                parent=parent,
            )
        )
    try:
        if path.is_file():
            with path.open("a", encoding="utf-8"):
                pass  # opening to append writes nothing
        else:
            with tempfile.TemporaryFile(dir=above):
                pass
    except OSError as e:
        fail(
            _(
                "%(flag)s %(path)s: cannot write in %(above)s (%(why)s)",
                flag=flag,
                path=path,
                above=above,
                why=e.strerror or e,
            )
        )
    return path


def seat_label(game: pa.Game, seat: int) -> str:
    return game.SEATS[seat] if 0 <= seat < len(game.SEATS) else "chance"


def scores_line(state: pa.State) -> str:
    """The score under a board, named for what it counts (a series' rounds won)."""
    a, b = state.scores()
    game = state.game
    words = {
        "first": seat_word(game, 0),
        "a": _num(a),
        "second": seat_word(game, 1),
        "b": _num(b),
    }
    if state.scores_name() == "rounds-won":
        return _("Rounds won  %(first)s %(a)s · %(second)s %(b)s", **words)
    return _("Score  %(first)s %(a)s · %(second)s %(b)s", **words)


def quiet_flag(help: str) -> Any:
    """``-q``/``--quiet`` with ``help`` (marked with ``N_``) saying what it leaves out here."""
    return typer.Option("--quiet", "-q", help=help)


def verbose_flag(help: str) -> Any:
    """``-v``/``--verbose`` with ``help`` (marked with ``N_``) saying what it adds here."""
    return typer.Option("--verbose", "-v", help=help)


QuietOpt = Annotated[
    bool, quiet_flag(N_("Only the results and errors: no progress bar, no notes."))
]
VerboseOpt = Annotated[bool, verbose_flag(N_("More detail: a line for each game as it ends."))]


def talk(quiet: bool, verbose: bool) -> int:
    """How much a command says: -1 with --quiet (results and errors only), 1 with --verbose
    (a line per game too), 0 otherwise; both at once is refused."""
    if quiet and verbose:
        fail(_("--quiet and --verbose ask for opposite things: choose one"))
    return -1 if quiet else 1 if verbose else 0


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
