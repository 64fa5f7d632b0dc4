"""Reading what the person types: a prompt like a good REPL on a terminal, plain lines otherwise.

On a terminal, prompt_toolkit gives line editing (arrows, Home/End, Ctrl-A/E/W…), a history
kept between sessions (Up and Down, Ctrl-R to search) and Tab completion of the legal moves
and commands, one word at a time. When input is piped or scripted (not a terminal), lines are
read plainly, so scripts and tests type exactly what they send.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import platformdirs
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import completion_is_selected
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from rich.markup import escape

from .common import console

Candidates = Callable[[], Iterable[str]]


class WordCompleter(Completer):
    """Completes the next word of any candidate line that starts with the words typed so far:
    ``pl`` gives ``place``, then ``place t`` offers ``tank``, ``trex``, ``twin``."""

    def __init__(self, candidates: Candidates) -> None:
        self.candidates = candidates

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        typed = document.text_before_cursor.lstrip()
        done, _, partial = typed.rpartition(" ")
        done_words = done.lower().split()
        seen: set[str] = set()
        for candidate in self.candidates():
            words = candidate.split()
            n = len(done_words)
            if len(words) <= n or [w.lower() for w in words[:n]] != done_words:
                continue
            word = words[n]
            if word in seen or not word.lower().startswith(partial.lower()):
                continue
            seen.add(word)
            more = " " if len(words) > n + 1 else ""
            yield Completion(word + more, start_position=-len(partial), display=word)


def history_file(name: str) -> Path:
    return platformdirs.user_state_path("pocketarena") / "history" / name


def _history(name: str) -> History:
    """The lines typed at this prompt in earlier sessions too; in memory only when the file
    cannot be kept."""
    path = history_file(name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))


def is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _keys() -> KeyBindings:
    keys = KeyBindings()

    @keys.add("enter", filter=completion_is_selected)
    def _take_completion(event: KeyPressEvent) -> None:
        """Enter on a completion picked from the menu takes it and goes on editing (as in
        IPython), rather than sending a half-typed move."""
        event.current_buffer.complete_state = None

    return keys


class LineReader:
    """One prompt of the program (``play-flipwars``, ``replay``), with its own history.

    ``read`` raises EOFError at the end of input (Ctrl-D) and KeyboardInterrupt on Ctrl-C,
    on a terminal or not."""

    def __init__(self, name: str, candidates: Candidates) -> None:
        self.session: PromptSession[str] | None = None
        if is_terminal():
            self.session = PromptSession(
                history=_history(name),
                completer=WordCompleter(candidates),
                complete_while_typing=False,
                key_bindings=_keys(),
            )

    def read(self, prompt: str) -> str:
        if self.session is None:
            return console.input(f"[bold cyan]{escape(prompt)}>[/] ")
        return self.session.prompt([("bold ansicyan", f"{prompt}> ")])
