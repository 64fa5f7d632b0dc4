"""This process's sockets (``live.transport``): the games and the lobby each watches, and
what they are sent. A socket that starts watching a game follows its channel on the bus
before the game is read, so no change falls between the read and the subscription; every
watcher of a game is sent each change (``send``), and by ``presence`` who is online and how
many watch it across the cluster."""

from __future__ import annotations

from pocketarena import i18n
from pocketarena.i18n import _

from . import views
from .botjobs import BotJobs
from .bus import SESSIONS
from .games import LiveGame, Runner
from .lobby import LobbyBoard
from .outbox import Outbox
from .session import GAME_ID, GameError
from .transport import Watcher


class Watchers:
    def __init__(self, runner: Runner, board: LobbyBoard, outbox: Outbox, botjobs: BotJobs) -> None:
        self.runner = runner
        self.board = board
        self.lobby = board.watchers  # the sockets that asked for the lobby
        self.outbox = outbox
        self.botjobs = botjobs
        self.connections: set[Watcher] = set()

    def connect(self, conn: Watcher) -> None:
        self.connections.add(conn)
        self.runner.presence.connected(conn)

    def disconnect(self, conn: Watcher) -> None:
        for gid in list(conn.watching):
            self.unwatch(conn, gid)
        self.lobby.discard(conn)
        self.connections.discard(conn)
        self.runner.presence.disconnected(conn)
        conn.close()

    def watch_lobby(self, conn: Watcher) -> None:
        """Send ``conn`` the lobby's updates from now on."""
        self.lobby.add(conn)

    async def watch(self, conn: Watcher, game_id: str, svg: bool = True) -> LiveGame:
        runner = self.runner
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise GameError("unknown_game", _("no game has that id"))
        # follow the game's channel (each watching socket once) before reading it, so no
        # change falls between the read and the subscription
        first = game_id not in conn.watching
        conn.watching[game_id] = svg
        if first:
            await runner.bus.follow(game_id)
        try:
            live = await runner.get(game_id, fresh=True)  # a client (re)connecting gets the truth
        except BaseException:
            if first:
                self.unwatch(conn, game_id)
            raise
        if conn.closed or game_id not in conn.watching:  # it left meanwhile
            return live
        live.subscribers[conn] = svg
        conn.watching[live.id] = svg
        conn.push(self.message(live, conn, svg))
        self.botjobs.queue_move(live)  # reopened: its job may have been lost (once per version)
        runner.presence.watching(conn, live)
        return live

    def unwatch(self, conn: Watcher, game_id: str) -> None:
        if game_id in conn.watching:
            del conn.watching[game_id]
            self.runner.bus.unfollow(game_id)
        live = self.runner.games.get(game_id)
        if live is not None:
            live.subscribers.pop(conn, None)
            if live.status in ("finished", "aborted") and not live.subscribers:
                self.runner.games.pop(live.id, None)  # stays in the database; reloaded on demand
        self.runner.presence.unwatched(conn, game_id, live)

    def send(self, live: LiveGame) -> None:
        """Send every watcher of ``live`` its change. Watchers already hold the move list up
        to the last change sent, so they get only the entries added since (``history_from``
        says where)."""
        live.revision += 1
        # a takeback shortens the move list: watchers keep what is still in it
        live.delta_from = min(live.sent_len, len(live.entries))
        live.sent_len = len(live.entries)
        for conn, svg in list(live.subscribers.items()):
            conn.push(self.message(live, conn, svg, delta=True))

    def message(self, live: LiveGame, conn: Watcher | None, svg: bool, delta: bool = False) -> str:
        """The state message for one client (see ``views.state_message``)."""
        you = live.seats_of(conn.player_id if conn else None)
        # In the watcher's language (a broadcast runs in the language of whoever moved).
        with i18n.use_locale(conn.locale if conn else i18n.current()):
            return views.state_message(live, you, svg, delta)

    def current(self, conn: Watcher, game_id: str) -> str | None:
        """The state message of ``game_id`` for ``conn`` as held here (None: not held), for a
        client whose view was found out of date."""
        live = self.runner.games.get(game_id)
        if live is None:
            return None
        return self.message(live, conn, conn.watching.get(live.id, True))

    def sessions_ended(self, session_ids: list[str], announce: bool = True) -> None:
        """Close the sockets of sessions that ended (sign-out): they act for nobody now; the
        other processes are told (``announce``: it ended here; alone, the bus tells nobody)."""
        if announce:
            self.outbox.tell(SESSIONS, {"ids": list(session_ids)})
        ended = set(session_ids)
        for conn in list(self.connections):
            if conn.session_id is not None and conn.session_id in ended:
                conn.close()
