"""Every sentence the engine says, in English, by message id: the source strings of the
``engine`` gettext catalog, and the wording of a :class:`~pocketarena.core.errors.Message` in
any language.

The engine (core, games, match) gives ids and parameters only; this module is the one place
its English lives. ``render(message)`` words a message in English (what ``str(error)`` shows);
``render(message, translations)`` words it in the language of a gettext ``translations``
object, whose catalog is keyed by the English text with the id as its context (msgctxt).

Placeholders are Python's ``%(name)s`` (``%(name)r`` quotes, as ``repr`` does); a message with
two texts is a plural chosen by its ``count``. A parameter that is itself a ``Message`` is worded
first, in the same language.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from typing import Any

from pocketarena.core.errors import Message, set_wording
from pocketarena.core.words import possessive

Source = str | tuple[str, str]


def M_(key: str, text: str) -> tuple[str, Source]:
    """A message: its id (the catalog's context) and its English (the msgid). The marker
    ``pybabel extract`` looks for (scripts/catalogs.py: ``M_:1c,2``)."""
    return key, text


def nM_(key: str, singular: str, plural: str) -> tuple[str, Source]:
    """A message with plural forms, chosen by its ``count`` parameter (``nM_:1c,2,3``)."""
    return key, (singular, plural)


# A game's own sentence (no message id) is said as it is, in every language.
ENGLISH: dict[str, Source] = {"core.said": "%(text)s"}
ENGLISH |= dict(
    [
        # -- pieces other messages are made of ------------------------------------------------
        M_("core.possessive", "%(name)s's"),
        M_("core.list", "%(first)s, %(next)s"),
        M_("core.alternatives", "%(first)s or %(next)s"),
        M_("core.and", "%(first)s and %(next)s"),
        M_("seat.heads", "Heads"),
        M_("bot.unknown", "unknown bot %(spec)r; valid bots: %(bots)s"),
        M_("bot.no-argument", "bot %(name)r takes no argument (got %(spec)s)"),
        M_(
            "bot.budget",
            "bot %(spec)r: after '%(name)s:' give a positive whole number (%(counts)s, e.g. "
            "%(example)s) or seconds up to 3600 (e.g. %(name)s:1.5s)",
        ),
        M_("bot.count.iterations", "iterations"),
        M_("bot.count.turns-deep", "turns deep"),
        M_("bot.count.simulations", "simulations"),
        M_(
            "bot.level-seconds",
            "bot %(spec)r: a level takes only a thinking time in seconds, e.g. %(level)s:0.5s",
        ),
        M_(
            "bot.not-solved",
            "%(game)s is not solved, so it has no perfect level; its levels: %(levels)s",
        ),
        M_("bot.no-level", "%(game)s has no level %(level)r; its levels: %(levels)s"),
        M_(
            "bot.level-untimed",
            "%(game)s level %(level)s (%(recipe)s) has no thinking time to change",
        ),
        M_(
            "bot.alphazero-elsewhere",
            "this alphazero network plays only %(trained)s with %(options)s (it was trained "
            "there); this game is %(game)s with %(played)s",
        ),
        M_(
            "bot.needs-openspiel",
            "the openspiel-mcts bot needs OpenSpiel: pip install 'pocketarena[rl]' (from a "
            "clone: pip install -e '.[rl]')",
        ),
        M_("arena.two-bots", "an arena needs at least two bots, e.g. --bots random,greedy"),
        M_("arena.bot-twice", "bot %(spec)r is listed twice; each bot plays every other once"),
        M_("arena.unknown-kind", "unknown kind %(kind)r; kinds: %(kinds)s"),
        M_(
            "arena.round-robin-rounds",
            "a round robin has as many rounds as its groups need; drop --rounds",
        ),
        M_("arena.swiss-rounds", "a Swiss needs --rounds of at least 1, got %(rounds)s"),
        M_("arena.swiss-needs-rounds", "a Swiss needs --rounds, e.g. --rounds 5"),
        M_(
            "arena.ray-missing",
            "Ray is not installed; install it with: pip install 'pocketarena[ray]' (from a "
            "clone: pip install -e '.[ray]')",
        ),
        M_("arena.ray-address", "cannot read the Ray address %(address)r; give host:port"),
        M_("arena.ray-unreachable", "cannot reach the Ray cluster at %(address)r: %(why)s"),
        M_("arena.ray-lost", "lost the Ray cluster at %(address)r during the run: %(why)s"),
        M_("arena.swiss-many-rounds", "a Swiss plays at most %(most)s rounds, got %(rounds)s"),
        # -- the research adapters (pocketarena.interop) -------------------------------------
        M_("interop.seat", "seat must be 0, 1, 'random' or 'alternate', got %(seat)r"),
        M_("interop.true-or-false", "%(name)s must be True or False, got %(value)r"),
        M_("interop.opponent-game", "the opponent plays %(theirs)s, not %(ours)s"),
        M_("interop.reset-options", "reset() options are 'seat' only, got %(option)r"),
        M_(
            "interop.render-mode", "render_mode must be one of %(modes)s for %(game)s, got %(mode)r"
        ),
        M_("interop.not-an-id", "an action is a decision id (an integer), got %(action)r"),
        M_("interop.not-legal-now", "%(move)r is not legal now (it is %(agent)s's turn)"),
        M_("interop.id-not-legal-now", "action %(id)s is not legal now (it is %(agent)s's turn)"),
        M_(
            "interop.written-like",
            "%(game)s option %(name)r must be written like %(example)s (or as JSON: %(json)s), "
            "got %(text)r",
        ),
        M_(
            "interop.unknown-parameter", "unknown parameter %(name)r for %(game)s; valid: %(valid)s"
        ),
        M_("interop.no-parameters", "unknown parameter %(name)r for %(game)s; it takes none"),
        M_("interop.32-bits", "%(game)s option %(name)r must fit in 32 bits for OpenSpiel"),
        M_(
            "interop.initial-state-arguments",
            "Pocket Arena games have one initial state; it takes no arguments",
        ),
        M_(
            "interop.observation-parameters",
            "observation parameters are not supported, got %(params)s",
        ),
        M_(
            "interop.chance-outcome",
            "chance outcome %(outcome)s is not one of the %(count)s here (0..%(last)s)",
        ),
        M_("game.unknown", "unknown game %(game)r; valid games: %(games)s"),
        M_("game.none-installed", "unknown game %(game)r; no game is installed"),
        M_(
            "interop.id-out-of-range",
            "action id %(id)s is out of range: %(game)s decisions are 0..%(last)s",
        ),
        M_("seat.tails", "Tails"),
        M_("seat.blue", "Blue"),
        M_("seat.red", "Red"),
        M_("seat.union", "Union"),
        M_("seat.confederacy", "Confederacy"),
        # -- game options (pocketarena.core.options), as typed after -o or sent by a form -----
        M_("option.pair", "option %(pair)r must look like name=value"),
        M_("option.unknown", "unknown option %(name)r for %(game)s; valid options: %(valid)s"),
        M_("option.none", "unknown option %(name)r for %(game)s; it has no options"),
        M_("option.true-or-false", "%(game)s option %(name)r must be true or false, got %(value)r"),
        M_("option.integer", "%(game)s option %(name)r must be an integer, got %(value)r"),
        M_("option.type", "%(game)s option %(name)r must be a %(type)s, got %(value)r"),
        M_("option.json", "%(game)s option %(name)r must be JSON, e.g. %(example)s"),
        M_(
            "option.choice",
            "%(game)s option %(name)s=%(value)r is not valid; choose one of: %(choices)s",
        ),
        M_("option.problem", "%(game)s option %(name)r: %(problem)s"),
        M_("wallet-battles.coins-dict", "must be a dict of coin counts like %(example)s"),
        M_(
            "wallet-battles.coins-missing",
            "needs exactly the keys Q, N, P, D (missing %(missing)s), e.g. %(example)s",
        ),
        M_(
            "wallet-battles.coins-unknown",
            "needs exactly the keys Q, N, P, D (unknown %(unknown)s), e.g. %(example)s",
        ),
        M_(
            "wallet-battles.coins-missing-unknown",
            "needs exactly the keys Q, N, P, D (missing %(missing)s; unknown %(unknown)s), e.g. "
            "%(example)s",
        ),
        M_(
            "wallet-battles.coin-count",
            "%(coin)s must be a whole number from 0 to %(most)s, got %(value)r",
        ),
        M_("wallet-battles.no-coins", "each pile needs at least one coin in total"),
        # -- solving Stack-a-Cash afresh (solve --rebuild's progress bar) ---------------------
        M_("solve.solving", "Solving Stack-a-Cash (protect=%(protect)s)"),
        M_("solve.exploring", "exploring, %(depth)s plies deep"),
        M_("solve.retrograde-depth", "retrograde analysis, %(depth)s plies from the end"),
        M_("solve.retrograde", "retrograde analysis"),
        # -- reading notation (every game) ----------------------------------------------------
        M_("core.empty-action", "an empty action: type a move in notation (e.g. %(example)s)"),
        M_(
            "core.unknown-verb",
            "%(text)r starts with an unknown word %(word)r; actions start with: %(verbs)s",
        ),
        M_(
            "core.not-an-action",
            "%(text)r is not a %(game)s action; %(word)r is written: %(shapes)s",
        ),
        M_("core.not-text", "an action must be notation text or an Action, got %(type)s"),
        # -- applying actions (every game) ----------------------------------------------------
        M_("core.foreign-action", "%(action)r is not a %(game)s action"),
        M_("core.id-out-of-range", "action id %(id)s is out of range 0..%(last)s"),
        M_("core.game-over", "the game is over; %(action)r cannot be played"),
        M_("core.not-legal", "%(action)r is not a legal move here"),
        M_(
            "core.not-chance-now",
            "%(action)r is a chance outcome, but it is %(seat)s turn to decide",
        ),
        M_(
            "core.throw-first",
            "%(action)r is a decision, but the coins must be thrown first (e.g. %(example)r)",
        ),
        # -- Stack-a-Cash ------------------------------------------------------------------------
        M_("stack-a-cash.size.large", "large"),
        M_("stack-a-cash.size.medium", "medium"),
        M_("stack-a-cash.size.small", "small"),
        M_(
            "stack-a-cash.empty",
            "an empty action: type a move such as 'place L b2', 'flip b2' or 'move b2 c3 flip'",
        ),
        M_(
            "stack-a-cash.unknown-verb",
            "%(text)r starts with %(word)r; a Stack-a-Cash action starts with place, flip or move",
        ),
        M_(
            "stack-a-cash.not-a-cell",
            "%(word)r is not a cell: cells are a1 to c3 (file a-c, then rank 1-3)",
        ),
        M_(
            "stack-a-cash.write-place",
            "%(text)r: write a placement as 'place L b2' (size L, M or S, then a cell)",
        ),
        M_(
            "stack-a-cash.not-a-size",
            "%(word)r is not a coin size: use L (large), M (medium) or S (small)",
        ),
        M_("stack-a-cash.write-flip", "%(text)r: write a flip as 'flip b2' (one cell)"),
        M_(
            "stack-a-cash.write-move",
            "%(text)r: write a move as 'move b2 c3', or 'move b2 c3 flip' to turn the coin over too",
        ),
        M_(
            "stack-a-cash.after-move",
            "%(word)r after a move must be 'flip' (or nothing): 'move b2 c3 flip'",
        ),
        M_(
            "stack-a-cash.move-in-place",
            "a coin must move to another cell; to turn over the coin on %(place)s write 'flip %(place)s'",
        ),
        M_(
            "stack-a-cash.not-onto",
            "the %(size)s coin on %(place)s cannot go onto %(onto)s: its top coin is a %(top)s one, and a coin only goes onto an empty cell or a strictly larger coin",
        ),
        M_("stack-a-cash.none-left", "there is no %(size)s coin (%(letter)s) left in the supply"),
        M_(
            "stack-a-cash.supply-empty",
            "there is no %(size)s coin (%(letter)s) left in the supply; move or flip a coin on the board instead",
        ),
        M_(
            "stack-a-cash.topped",
            "%(place)s has a %(top)s coin on top; a %(size)s coin only goes onto an empty cell or a strictly larger coin",
        ),
        M_("stack-a-cash.empty-flip", "%(place)s is empty: there is no coin there to flip"),
        M_("stack-a-cash.empty-move", "%(place)s is empty: there is no coin there to move"),
        M_(
            "stack-a-cash.protected",
            "the coin on %(place)s is protected: %(seat)s just placed it, so it cannot be moved or flipped this turn (it can still be covered)",
        ),
        M_(
            "stack-a-cash.protected-touched",
            "the coin on %(place)s is protected: %(seat)s just touched it, so it cannot be moved or flipped this turn (it can still be covered)",
        ),
        # -- what a move does, as the move list and the terminal say it ---------------------------
        M_("stack-a-cash.says.place", "%(seat)s places a %(size)s coin on %(place)s"),
        M_("stack-a-cash.says.place-anyone", "places a %(size)s coin on %(place)s"),
        M_("stack-a-cash.says.flip", "%(seat)s flips the coin on %(place)s"),
        M_("stack-a-cash.says.flip-anyone", "flips the coin on %(place)s"),
        M_("stack-a-cash.says.move", "%(seat)s moves the top coin from %(start)s to %(end)s"),
        M_("stack-a-cash.says.move-anyone", "moves the top coin from %(start)s to %(end)s"),
        M_(
            "stack-a-cash.says.move-flip",
            "%(seat)s moves the top coin from %(start)s to %(end)s and flips it",
        ),
        M_(
            "stack-a-cash.says.move-flip-anyone",
            "moves the top coin from %(start)s to %(end)s and flips it",
        ),
        # -- what a Stack-a-Cash board says beside the coins (the drawing, the terminal) ------
        M_("stack-a-cash.board.to-move", "%(seat)s to move"),
        M_("stack-a-cash.board.protected", "%(place)s protected (cannot be moved or flipped now)"),
        M_("stack-a-cash.board.wins", "%(seat)s wins (%(lines)s)"),
        M_("stack-a-cash.board.draw", "Draw: %(why)s"),
        M_("stack-a-cash.board.draw-repetition", "Draw: the same position came up a third time"),
        M_("stack-a-cash.board.draw-plies", "Draw: %(plies)s plies were played"),
        M_("stack-a-cash.board.supply", "supply"),
        M_("stack-a-cash.board.supply-left", "Supply: %(counts)s"),
        M_("stack-a-cash.board.protected-mark", "protected"),
        # the letter on a top coin's face: the initial of the seat's name (Heads, Tails) in
        # the reader's language, one or two letters (notation never uses it)
        M_("stack-a-cash.board.heads-letter", "H"),
        M_("stack-a-cash.board.tails-letter", "T"),
        M_("stack-a-cash.board.covered", "lower case: the coins covered by the top one, top first"),
        M_("stack-a-cash.board.last", "Last: %(move)s"),
        M_("stack-a-cash.board.coin", "%(seat)s %(size)s"),
        M_("stack-a-cash.board.on-a", "%(top)s on a %(below)s"),
        M_("stack-a-cash.board.empty", "empty"),
        M_("stack-a-cash.board.cell", "%(cell)s, %(what)s"),
        M_("stack-a-cash.board.cell-protected", "%(cell)s, %(what)s, protected"),
        M_("stack-a-cash.board.in-supply", "%(size)s coin in the supply"),
        M_("coin-age.says.place", "%(seat)s places a %(coin)s on %(space)s"),
        M_("coin-age.says.place-anyone", "places a %(coin)s on %(space)s"),
        M_(
            "coin-age.says.place-covering",
            "%(seat)s places a %(coin)s on %(space)s, covering %(owner)s %(covered)s",
        ),
        M_(
            "coin-age.says.pay",
            "%(seat)s pays a %(coin)s into the opponent's bank to place a third coin",
        ),
        M_(
            "coin-age.says.pay-anyone",
            "pays a %(coin)s into the opponent's bank to place a third coin",
        ),
        M_("coin-age.says.move", "%(seat)s moves the stack on %(start)s to %(end)s"),
        M_("coin-age.says.move-anyone", "moves the stack on %(start)s to %(end)s"),
        M_("coin-age.says.capture", "%(seat)s captures the top coin of %(space)s into their bank"),
        M_("coin-age.says.capture-anyone", "captures the top coin of %(space)s into their bank"),
        M_("coin-age.says.end", "%(seat)s ends the turn"),
        M_("coin-age.says.end-anyone", "ends the turn"),
        M_("coin-age.says.no-coins", "no coins thrown"),
        M_("coin-age.says.landed-heads", "%(heads)s landed heads"),
        M_("coin-age.says.landed-tails", "%(tails)s landed tails"),
        M_("coin-age.says.landed-both", "%(heads)s landed heads; %(tails)s landed tails"),
        nM_("coin-age.says.coins", "%(count)s coin", "%(count)s coins"),
        nM_(
            "coin-age.says.slap-anyone",
            "%(landed)s: %(count)s match for Heads (%(heads)s), %(tails_count)s for Tails (%(tails)s)",
            "%(landed)s: %(count)s matches for Heads (%(heads)s), %(tails_count)s for Tails (%(tails)s)",
        ),
        nM_(
            "coin-age.says.slap",
            "%(seat)s slaps %(thrown)s: %(landed)s. %(count)s match: %(allows)s",
            "%(seat)s slaps %(thrown)s: %(landed)s. %(count)s matches: %(allows)s",
        ),
        nM_(
            "coin-age.says.slap-with",
            "%(seat)s slaps %(thrown)s: %(landed)s. %(count)s match: %(allows)s %(usable)s",
            "%(seat)s slaps %(thrown)s: %(landed)s. %(count)s matches: %(allows)s %(usable)s",
        ),
        M_("coin-age.says.with", "with %(coins)s"),
        M_("coin-age.says.with-any", "with any of them"),
        # -- what a Coin Age board says beside the map (the drawing, the terminal) -------------
        M_("coin-age.board.to-slap", "%(seat)s to slap: throws %(coins)s"),
        M_("coin-age.board.over", "game over (%(why)s): %(result)s"),
        M_("coin-age.board.end.board-full", "board full"),
        M_("coin-age.board.end.bank-empty", "bank empty"),
        M_("coin-age.board.end.turn-limit", "turn limit"),
        M_("coin-age.board.draw", "a draw, %(heads)s-%(tails)s"),
        M_("coin-age.board.wins", "%(seat)s wins %(high)s-%(low)s"),
        M_(
            "coin-age.board.wins-on-bank",
            "%(seat)s wins %(high)s-%(low)s on bank value (%(mine)s to %(theirs)s)",
        ),
        nM_(
            "coin-age.board.acting",
            "%(seat)s: %(slap)s, %(count)s match",
            "%(seat)s: %(slap)s, %(count)s matches",
        ),
        M_("coin-age.board.left", "; left: %(left)s"),
        M_("coin-age.board.unused", " (coins %(coins)s)"),
        M_("coin-age.board.ruled", "%(region)s: ruled by %(seat)s"),
        M_("coin-age.board.ruled-x2", "%(region)s: ruled by %(seat)s (%(heads)s-%(tails)s, x2)"),
        M_("coin-age.board.x2", "x2 %(seat)s"),
        M_("coin-age.board.turn-short", "turn %(turn)s/%(last)s"),
        M_("coin-age.board.turn", "turn %(turn)s of %(last)s"),
        M_("coin-age.board.score", "%(seat)s %(score)s"),
        M_("coin-age.board.regions", "regions, spaces held %(heads)s-%(tails)s:"),
        M_("coin-age.board.region", "%(region)s %(heads)s-%(tails)s of %(size)s"),
        M_("coin-age.board.doubles", " (x2 %(seat)s)"),
        M_("coin-age.board.bank", "%(seat)s bank"),
        nM_(
            "coin-age.board.coins-value",
            "%(count)s coin, value %(value)s",
            "%(count)s coins, value %(value)s",
        ),
        M_("coin-age.board.paid", " (paid %(coin)s)"),
        M_("coin-age.board.last", "last: %(move)s"),
        M_("coin-age.board.empty", "empty"),
        M_("coin-age.board.next-to", "next to %(spaces)s"),
        M_("coin-age.board.column.space", "space"),
        M_("coin-age.board.column.region", "region"),
        M_("coin-age.board.column.stack", "stack, top first"),
        M_("coin-age.board.column.next-to", "next to"),
        M_("coin-age.board.coin", "%(seat)s %(coin)s"),
        M_("coin-age.board.on-a", "%(top)s on a %(below)s"),
        M_("coin-age.board.space", "%(space)s (%(region)s), %(what)s"),
        M_("coin-age.board.held", "%(space)s (%(region)s), held by %(seat)s"),
        M_("coin-age.board.unheld", "%(space)s (%(region)s)"),
        M_("coin-age.board.title-stack", "%(space)s: %(stack)s"),
        M_("coin-age.board.map-title", "Coin Age map: %(map)s"),
        M_("coin-age.board.title", "Coin Age on %(map)s, turn %(turn)s"),
        M_("coin-age.board.bank-coin", "%(seat)s's %(coin)s"),
        M_("coin-age.board.slap", "slap:"),
        M_(
            "wallet-battles.says.odd",
            "Odd (one heads, one tails): nobody acts; flip again. A third odd in a row forces a recall.",
        ),
        M_("wallet-battles.says.both-heads", "Both coins land heads: the %(seat)s may act."),
        M_("wallet-battles.says.both-tails", "Both coins land tails: the %(seat)s may act."),
        M_("wallet-battles.says.pass", "Pass: do nothing this round."),
        M_("wallet-battles.says.place", "Place a %(coin)s (%(letter)s) on %(place)s."),
        M_(
            "wallet-battles.says.capture",
            "Capture the enemy's top coin on %(place)s into your pile.",
        ),
        M_("wallet-battles.says.recall", "Recall your top coin on %(place)s to your pile."),
        M_("flipwars.says.block", "puts the block on %(place)s for the next round"),
        M_("flipwars.says.first", "%(seat)s starts the next round"),
        M_("flipwars.says.a", "a %(tile)s"),
        M_("flipwars.says.an", "an %(tile)s"),
        M_("flipwars.says.attacks-nothing", "it attacks nothing"),
        M_("flipwars.says.attacking", "attacking %(directions)s"),
        M_("flipwars.says.turned", "turned %(degrees)s° clockwise"),
        M_("flipwars.says.flips", "flips %(cells)s"),
        M_("flipwars.says.flips-nothing", "flips nothing"),
        M_("flipwars.says.place-anyone", "places %(tile)s on %(place)s (%(attacks)s)"),
        M_(
            "flipwars.says.place-turned-anyone",
            "places %(tile)s on %(place)s, %(turned)s (%(attacks)s)",
        ),
        M_("flipwars.says.place", "%(seat)s places %(tile)s on %(place)s (%(attacks)s)"),
        M_(
            "flipwars.says.place-turned",
            "%(seat)s places %(tile)s on %(place)s, %(turned)s (%(attacks)s)",
        ),
        M_(
            "flipwars.says.place-flips",
            "%(seat)s places %(tile)s on %(place)s (%(attacks)s); %(flips)s",
        ),
        M_(
            "flipwars.says.place-turned-flips",
            "%(seat)s places %(tile)s on %(place)s, %(turned)s (%(attacks)s); %(flips)s",
        ),
        M_("flipwars.dir.up", "up"),
        M_("flipwars.dir.down", "down"),
        M_("flipwars.dir.left", "left"),
        M_("flipwars.dir.right", "right"),
        M_("flipwars.dir.up-left", "up-left"),
        M_("flipwars.dir.up-right", "up-right"),
        M_("flipwars.dir.down-left", "down-left"),
        M_("flipwars.dir.down-right", "down-right"),
        M_("flipwars.dir.steps", "%(steps)s %(direction)s"),
        # -- Coin Age ----------------------------------------------------------------------------
        M_("core.about", "%(text)r: %(problem)s"),
        M_("coin-age.coin.quarter", "quarter"),
        M_("coin-age.coin.nickel", "nickel"),
        M_("coin-age.coin.penny", "penny"),
        M_("coin-age.coin.dime", "dime"),
        M_("coin-age.side.heads", "heads"),
        M_("coin-age.side.tails", "tails"),
        M_("coin-age.allows.0", "capture 1 and move 1"),
        M_("coin-age.allows.1", "place 1 and move 1"),
        M_("coin-age.allows.2", "place up to 2"),
        M_("coin-age.allows.3", "place up to 2"),
        M_("coin-age.allows.4", "place up to 2, and pay 1 to place a third"),
        M_("coin-age.shape.place", "'place <coin> <space>' (e.g. 'place Q stone-rock')"),
        M_("coin-age.shape.pay", "'pay <coin>' (e.g. 'pay D')"),
        M_("coin-age.shape.move", "'move <from> <to>' (e.g. 'move stone-rock treewood')"),
        M_("coin-age.shape.capture", "'capture <space>'"),
        M_("coin-age.shape.end", "'end'"),
        M_(
            "coin-age.shape.slap",
            "'slap' and the thrown coins in the order Q N P D with their faces (e.g. 'slap Q:H N:T P:T D:H')",
        ),
        M_(
            "coin-age.not-a-space-close",
            "%(word)r is not a space on the %(map)s map; did you mean %(close)r?",
        ),
        M_(
            "coin-age.not-a-space", "%(word)r is not a space on the %(map)s map; spaces: %(spaces)s"
        ),
        M_(
            "coin-age.not-a-thrown-coin",
            "%(text)r: %(word)r is not a thrown coin; write each as coin:face, e.g. Q:H or D:T",
        ),
        M_(
            "coin-age.slap-order",
            "%(text)r: list each thrown coin once, in the order Q N P D (e.g. 'slap Q:H N:T P:T D:H')",
        ),
        nM_(
            "coin-age.word-count",
            "%(text)r has %(count)s word(s) after %(verb)r; it is written %(shape)s",
            "%(text)r has %(count)s word(s) after %(verb)r; it is written %(shape)s",
        ),
        M_(
            "coin-age.not-a-coin",
            "%(text)r: %(word)r is not a coin; coins are Q (quarter), N (nickel), P (penny), D (dime)",
        ),
        M_(
            "coin-age.move-onto-itself", "%(text)r: a stack moves to another space, not onto itself"
        ),
        M_(
            "coin-age.not-adjacent",
            "%(text)r: %(start)s and %(end)s are not adjacent; a stack on %(start)s can move to %(reachable)s",
        ),
        M_(
            "coin-age.not-an-action",
            "%(text)r is not a %(game)s action; %(verb)r is written %(shape)s",
        ),
        M_(
            "coin-age.topped",
            "%(space)s is topped by %(top)s; a %(coin)s goes only on an empty space or on a coin of higher rank (Q > N > P > D)",
        ),
        M_("coin-age.coin-of", "%(seat)s %(coin)s (%(text)s)"),
        M_("coin-age.empty-move", "%(space)s is empty: there is no stack to move"),
        M_(
            "coin-age.occupied",
            "%(space)s is occupied: a stack moves only to an empty adjacent space",
        ),
        M_("coin-age.empty-capture", "%(space)s is empty: there is no coin to capture"),
        M_(
            "coin-age.slap-misfit",
            "%(action)r does not fit: %(seat)s throws one coin of each kind in their bank, which is %(kinds)s (e.g. %(example)r)",
        ),
        M_(
            "coin-age.pay-for-third",
            "you have placed two coins already; pay a matching coin to place a third",
        ),
        M_(
            "coin-age.already-place",
            "you have already placed your coins this turn (your slap allows %(allows)s)",
        ),
        M_("coin-age.already-pay", "you have already paid this turn (your slap allows %(allows)s)"),
        M_(
            "coin-age.already-move",
            "you have already moved a stack this turn (your slap allows %(allows)s)",
        ),
        M_(
            "coin-age.already-capture",
            "you have already captured a coin this turn (your slap allows %(allows)s)",
        ),
        nM_(
            "coin-age.cannot-place",
            "your slap has %(count)s match, which allows %(allows)s: you cannot place a coin",
            "your slap has %(count)s matches, which allows %(allows)s: you cannot place a coin",
        ),
        nM_(
            "coin-age.cannot-pay",
            "your slap has %(count)s match, which allows %(allows)s: you cannot pay",
            "your slap has %(count)s matches, which allows %(allows)s: you cannot pay",
        ),
        nM_(
            "coin-age.cannot-move",
            "your slap has %(count)s match, which allows %(allows)s: you cannot move a stack",
            "your slap has %(count)s matches, which allows %(allows)s: you cannot move a stack",
        ),
        nM_(
            "coin-age.cannot-capture",
            "your slap has %(count)s match, which allows %(allows)s: you cannot capture",
            "your slap has %(count)s matches, which allows %(allows)s: you cannot capture",
        ),
        M_("coin-age.not-thrown-place", "you threw no %(coin)s this turn, so you cannot place one"),
        M_("coin-age.not-thrown-pay", "you threw no %(coin)s this turn, so you cannot pay one"),
        M_(
            "coin-age.landed-wrong",
            "your %(coin)s landed %(side)s; only coins showing your side (%(own)s) can be placed or paid",
        ),
        M_(
            "coin-age.already-used",
            "your matching %(coin)s has already been placed or paid this turn",
        ),
        # -- FlipWars ----------------------------------------------------------------------------
        M_(
            "flipwars.not-a-cell",
            "%(word)r is not a cell: the board is %(size)sx%(size)s, a1 to %(last)s",
        ),
        M_("flipwars.flag-only", "there are flags only in Capture the Flag (mode=flag)"),
        M_(
            "flipwars.not-a-tile-close",
            "%(word)r is not a tile (did you mean %(close)s?); the tiles are: %(tiles)s",
        ),
        M_("flipwars.not-a-tile", "%(word)r is not a tile; the tiles are: %(tiles)s"),
        M_(
            "flipwars.empty",
            "an empty action: type a move in notation, e.g. 'place grenade c3 r90'",
        ),
        M_(
            "flipwars.incomplete",
            "%(text)r is incomplete: write place TILE CELL ROTATION, e.g. place grenade c3 r90",
        ),
        M_(
            "flipwars.not-a-rotation",
            "%(word)r is not a rotation: use r0, r90, r180 or r270 (clockwise)",
        ),
        M_(
            "flipwars.extra-words",
            "%(text)r has extra words: write place TILE CELL ROTATION, e.g. place grenade c3 r90",
        ),
        M_(
            "flipwars.series-only",
            "%(word)r is only used between the rounds of a tactical series (mode=tactical); in this game every move is: place TILE CELL ROTATION",
        ),
        M_("flipwars.write-block", "%(text)r: write block CELL, e.g. block d4"),
        M_("flipwars.write-first", "%(text)r: write first blue or first red"),
        M_(
            "flipwars.needs-verb",
            "%(text)r needs a verb: write place TILE CELL ROTATION, e.g. place grenade c3 r90",
        ),
        M_(
            "flipwars.flag-first",
            "%(seat)s must place the flag first (e.g. place flag c3 r0): in Capture the Flag each player's first placement is the flag",
        ),
        M_(
            "flipwars.choose-block",
            "round %(round)s is over: %(seat)s now chooses where the block goes (e.g. block d4) before the next round",
        ),
        M_(
            "flipwars.choose-first",
            "round %(round)s is over: %(seat)s now chooses who goes first (first blue or first red) before the next round",
        ),
        M_(
            "flipwars.block-between-rounds",
            "the block only moves between rounds of the series; now place a tile",
        ),
        M_(
            "flipwars.block-placed",
            "the block is already on %(place)s; now choose who goes first (first blue or first red)",
        ),
        M_(
            "flipwars.first-between-rounds",
            "who goes first is chosen between rounds of the series; now place a tile",
        ),
        M_(
            "flipwars.block-before-first",
            "%(seat)s first chooses where the block goes (e.g. block d4), then who goes first",
        ),
        M_("flipwars.block-there", "%(place)s holds the block: no tile can be placed there"),
        M_("flipwars.taken-blue", "%(place)s is already taken (by a blue %(name)s)"),
        M_("flipwars.taken-red", "%(place)s is already taken (by a red %(name)s)"),
        M_("flipwars.flag-placed", "%(seat)s has already placed the flag"),
        M_(
            "flipwars.none-left-1",
            "%(seat)s has no %(tile)s left to place (it is on the board); left: %(left)s",
        ),
        M_(
            "flipwars.none-left-2",
            "%(seat)s has no %(tile)s left to place (both are on the board); left: %(left)s",
        ),
        # -- what a FlipWars board says beside the tiles (the drawing, the terminal) -----------
        M_("flipwars.board.tiles", "tiles Blue %(blue)s - Red %(red)s"),
        M_("flipwars.board.round-wins", "round %(round)s, round wins Blue %(blue)s - Red %(red)s"),
        M_("flipwars.board.over", "%(before)s: %(result)s"),
        M_("flipwars.board.drawn", "a draw"),
        M_("flipwars.board.series-drawn", "a draw the series"),
        M_("flipwars.board.wins", "%(seat)s wins"),
        M_("flipwars.board.wins-series", "%(seat)s wins the series"),
        M_("flipwars.board.choose-block", "%(seat)s chooses where the block goes"),
        M_("flipwars.board.choose-first", "%(seat)s chooses who starts round %(round)s"),
        M_("flipwars.board.place-flag", "%(seat)s to place the flag"),
        M_("flipwars.board.place", "%(seat)s to place"),
        M_("flipwars.board.nothing-left", "nothing left"),
        M_("flipwars.board.supply-of", "%(seat)s:"),
        M_("flipwars.board.owners", "B %(blue)s's tile, R %(red)s's"),
        M_("flipwars.board.owners-block", ", ▓▓ the block"),
        M_("flipwars.board.last", "Last: %(move)s (* placed, ↻ flipped)"),
        M_("flipwars.board.the-block", "the block"),
        M_("flipwars.board.block", "block"),
        M_("flipwars.board.empty", "empty"),
        M_("flipwars.board.flipped", "flipped"),
        M_("flipwars.board.tile", "%(seat)s %(tile)s"),
        M_("flipwars.board.tile-turned", "%(seat)s %(tile)s turned %(degrees)s°"),
        M_("flipwars.board.whose", "%(seat)s's"),
        M_("flipwars.board.tiles-left", "tiles left"),
        M_(
            "flipwars.board.supply-label",
            "%(tile)s: %(blue)s %(blue_left)s left, %(red)s %(red_left)s left",
        ),
        # The tiles' names as a player reads them (on the tiles, the legend, the sentences);
        # the notation keeps its own words (``tank``, ``twin``, ``trex``).
        M_("flipwars.tile.tank", "tank"),
        M_("flipwars.tile.rocket", "rocket"),
        M_("flipwars.tile.grenade", "grenade"),
        M_("flipwars.tile.paratrooper", "paratrooper"),
        M_("flipwars.tile.sniper", "sniper"),
        M_("flipwars.tile.foxhole", "foxhole"),
        M_("flipwars.tile.twin", "twin-rifle"),
        M_("flipwars.tile.trex", "T-rex"),
        M_("flipwars.tile.flag", "flag"),
        # Each tile's short name in a terminal's cell (at most 3 columns, a wide character 2).
        M_("flipwars.tile-short.tank", "TNK"),
        M_("flipwars.tile-short.rocket", "RKT"),
        M_("flipwars.tile-short.grenade", "GRN"),
        M_("flipwars.tile-short.paratrooper", "PAR"),
        M_("flipwars.tile-short.sniper", "SNP"),
        M_("flipwars.tile-short.foxhole", "FOX"),
        M_("flipwars.tile-short.twin", "TWN"),
        M_("flipwars.tile-short.trex", "REX"),
        M_("flipwars.tile-short.flag", "FLG"),
        M_("flipwars.board.flag-counts", "%(flag)s (2)"),
        M_("flipwars.board.mode.standard", "standard"),
        M_("flipwars.board.mode.enclosed", "enclosed"),
        M_("flipwars.board.mode.flag", "flag"),
        M_("flipwars.board.mode.tactical", "tactical"),
        # -- Wallet Battles ----------------------------------------------------------------------
        # -- what a Wallet Battles card says beside the map (the drawing, the terminal) -------
        M_("wallet-battles.board.end-pile", ", a pile empty"),
        M_("wallet-battles.board.end-occupied", ", all locations held"),
        M_("wallet-battles.board.end-used", ", all locations used"),
        M_("wallet-battles.board.end-guard", ", the flip limit"),
        M_("wallet-battles.board.empty", "empty"),
        M_("wallet-battles.board.used-empty", "used, empty"),
        M_("wallet-battles.board.draw", "a draw"),
        M_("wallet-battles.board.side-wins", "the %(side)s wins"),
        nM_("wallet-battles.board.flips", "%(count)s flip", "%(count)s flips"),
        M_(
            "wallet-battles.board.over",
            "Game over after %(flips)s%(why)s: %(result)s, %(first)s to %(second)s.",
        ),
        M_("wallet-battles.board.odd", ", %(count)s odd in a row"),
        M_("wallet-battles.board.never-used", " · %(count)s never used"),
        M_("wallet-battles.board.flip", "Flip %(number)s: both players flip%(odd)s%(left)s"),
        M_(
            "wallet-battles.board.recall",
            "Recall: the %(side)s returns one own top coin to the pile%(left)s",
        ),
        M_("wallet-battles.board.acts", "The %(side)s acts: place, capture or pass%(left)s"),
        M_("wallet-battles.board.pile-title", "%(side)s (%(face)s)"),
        M_("wallet-battles.board.points", "%(points)s pts"),
        nM_(
            "wallet-battles.board.pile-holds",
            "pile %(pile)s · holds %(count)s location",
            "pile %(pile)s · holds %(count)s locations",
        ),
        M_("wallet-battles.board.recalls", "recalls"),
        M_("wallet-battles.board.to-act", "to act"),
        M_("wallet-battles.board.last", "Last: %(move)s"),
        M_("wallet-battles.board.stacks-top-first", "stacks top coin first"),
        M_("wallet-battles.board.column.pile", "pile"),
        M_("wallet-battles.board.column.held", "held"),
        M_("wallet-battles.board.column.score", "score"),
        M_("wallet-battles.board.scored", "the %(side)s scored %(places)s"),
        M_("wallet-battles.board.scored-nothing", "the %(side)s scored nothing on the map"),
        M_("wallet-battles.board.on", " on "),
        M_("wallet-battles.board.held-by", ", held by the %(side)s: %(coins)s"),
        M_("wallet-battles.board.label-empty", ", empty"),
        M_("wallet-battles.board.scored-for", ", scored %(points)s for the %(side)s"),
        M_("wallet-battles.board.in-pile", "%(side)s %(coin)s, %(count)s in the pile"),
        M_("wallet-battles.board.title", "Wallet Battles on %(map)s"),
        M_("wallet-battles.coin.quarter", "quarter"),
        M_("wallet-battles.coin.nickel", "nickel"),
        M_("wallet-battles.coin.penny", "penny"),
        M_("wallet-battles.coin.dime", "dime"),
        M_("wallet-battles.shape.place", "place <coin> <location>, e.g. place Q %(place)s"),
        M_("wallet-battles.shape.capture", "capture <location>, e.g. capture %(place)s"),
        M_("wallet-battles.shape.recall", "recall <location>, e.g. recall %(place)s"),
        M_("wallet-battles.shape.pass", "pass"),
        M_("wallet-battles.shape.flip", "flip HH, flip TT or flip odd"),
        M_("wallet-battles.empty", "an empty action: type a move, e.g. place Q %(place)s or pass"),
        M_(
            "wallet-battles.not-a-flip",
            "%(text)r: %(word)r is not a flip; the flips are flip HH, flip TT, flip odd",
        ),
        M_(
            "wallet-battles.say-flip",
            "%(text)r: say how the coins landed: flip HH, flip TT or flip odd",
        ),
        M_(
            "wallet-battles.which-coin", "%(text)r: say which coin to place, e.g. place Q %(place)s"
        ),
        M_(
            "wallet-battles.not-a-coin",
            "%(text)r: %(word)r is not a coin; coins are Q (quarter), N (nickel), P (penny), D (dime)",
        ),
        M_("wallet-battles.too-many-words", "%(text)r has too many words; write %(shape)s"),
        M_(
            "wallet-battles.missing-coin-and-location",
            "%(text)r is missing the coin and location; write %(shape)s",
        ),
        M_("wallet-battles.missing-location", "%(text)r is missing the location; write %(shape)s"),
        M_(
            "wallet-battles.other-map",
            "%(text)r: %(word)r is on the %(map)s map; this game is on %(this)s: %(places)s",
        ),
        M_(
            "wallet-battles.not-a-location",
            "%(text)r: %(word)r is not a location of %(map)s; locations: %(places)s",
        ),
        M_("wallet-battles.not-yours-to-recall", "%(place)s is not yours to recall; %(owed)s"),
        M_("wallet-battles.empty-capture", "%(place)s is empty: there is nothing to capture"),
        M_(
            "wallet-battles.own-stack",
            "%(place)s is your own stack: you can only capture %(seat)s coins",
        ),
        M_(
            "wallet-battles.no-recall-owed",
            "no recall is owed: a recall comes only after three odd flips in a row",
        ),
        M_("wallet-battles.none-left", "you have no %(letter)s (%(coin)s) left in your pile"),
        M_(
            "wallet-battles.held",
            "%(place)s is held by the %(seat)s: you cannot stack on your opponent's coins (capture its top coin instead)",
        ),
        M_(
            "wallet-battles.not-smaller",
            "the top coin on %(place)s is a %(top)s (%(coin)s); only a strictly smaller coin may go on it, and a %(letter)s is not smaller",
        ),
        M_(
            "wallet-battles.recall-owed",
            "after three odd flips the %(seat)s must recall one of their own top coins (no passing while coins are on the map): %(recalls)s",
        ),
        M_("wallet-battles.not-now", "%(action)r is not allowed now: %(owed)s"),
        # -- a match (a game with people and bots at the seats) ---------------------------------
        M_("match.nothing-to-throw", "there are no coins to throw now"),
        M_("match.over", "the game is over"),
        M_("match.throw-first", "the coins must be thrown first (press Enter)"),
        M_("match.bot-seat", "it is %(seat)s turn, and a bot plays that seat"),
        M_("match.no-such-number", "there is no move %(number)s; moves are numbered 1 to %(last)s"),
        M_("match.no-bot-to-move", "no bot is to move now"),
        M_("match.resume-started", "only a match that has not started can resume a game"),
        M_("match.resume-illegal", "move %(number)s (%(text)r) is illegal: %(why)s"),
        M_("match.ended-no-undo", "the game has ended; nothing can be taken back"),
        M_("match.nothing-to-undo", "there is no move of yours to take back"),
        M_("match.already-over", "the game is already over"),
        # -- the analysis board and the explorer (pocketarena.study, pocketarena.explore) --------
        M_("study.to-move", "%(seat)s to move"),
        M_("study.over", "The game is over"),
        M_("study.throw-next", "A throw decides next"),
        M_("study.ended-drawn", "The game ended in a draw (%(score)s)"),
        M_("study.ended-won", "%(seat)s won (%(score)s)"),
        nM_("study.plies", "%(count)s ply", "%(count)s plies"),
        M_("study.draw-best", "A draw with best play"),
        M_("study.wins-best", "%(seat)s wins in %(plies)s with best play"),
        M_(
            "study.wins-round-best",
            "%(seat)s wins the round by %(margin)s with best play (%(plies)s left)",
        ),
        M_("study.level-round-best", "The round ends level with best play (%(plies)s left)"),
        M_("study.by-the-rules", "the rules"),
        M_("study.by-flipwars-solver", "the FlipWars endgame solver"),
        M_("study.by-stack-a-cash-solution", "the Stack-a-Cash solution"),
        M_("study.by-hard-bot", "the hard bot (%(method)s, %(seconds)s s)"),
        M_("study.series-note", "values for this round of the series"),
        M_(
            "study.throws-note",
            "values are expectations over the throws (each throw weighed by its chance)",
        ),
        M_(
            "study.expected",
            "Expected score %(first)s %(first_value)s · %(second)s %(second_value)s",
        ),
        M_(
            "study.expected-before-throw",
            "Expected score %(first)s %(first_value)s · %(second)s %(second_value)s before the throw",
        ),
        M_("study.expected-for", "expected %(value)s for %(seat)s"),
        M_("study.a-throw", "(a throw)"),
        M_("study.too-many-moves", "a position is set up with at most %(most)s moves"),
        M_("study.move-not-text", "move %(number)s must be notation text"),
        M_("study.move-illegal", "move %(number)s (%(text)r) cannot be played: %(why)s"),
        M_("explore.win", "win in %(plies)s"),
        M_("explore.loss", "loss in %(plies)s"),
        M_("explore.win-by", "win by %(margin)s in %(plies)s"),
        M_("explore.loss-by", "loss by %(margin)s in %(plies)s"),
        M_("explore.draw", "draw"),
        M_(
            "explore.no-explorer",
            "%(game)s has no exact explorer (only Stack-a-Cash and FlipWars endgames are solved)",
        ),
        M_("explore.over", "the game is over: there are no moves to explore"),
        M_("explore.unreachable", "this position cannot be reached from the start of a game"),
        M_(
            "explore.beyond-reach",
            "this round is beyond the endgame solver's reach (too many positions to search); play on a few moves and explore again",
        ),
        M_(
            "explore.between-rounds",
            "between rounds of the series there is nothing exact to explore: choose the block and who starts",
        ),
        M_(
            "explore.too-many-empty",
            "%(empty)s cells are empty; the endgame solver explores %(round)s from %(reach)s empty cells",
        ),
        M_("explore.round.standard", "a standard round"),
        M_("explore.round.enclosed", "an enclosed round"),
        M_("explore.round.flag", "a flag round"),
        M_("explore.round.tactical", "a tactical round"),
        # -- the lessons (pocketarena.lessons): each step's title, rule and task, the hint after
        # a legal move that is not what the step asks, and the words after the right move ----
        M_("study.type-a-move", "type a move in notation, as the moves are listed"),
        M_(
            "lesson.not-asked",
            "%(move)s can be played, but it is not what this step asks: %(hint)s",
        ),
        M_(
            "lesson.not-most",
            "%(move)s can be played, but it is not what this step asks: %(hint)s (it leaves you %(got)s; the best move leaves %(best)s)",
        ),
        M_("lesson.coin-age.slap.title", "The slap"),
        M_(
            "lesson.coin-age.slap.text",
            "Every turn starts with a slap: you throw one coin of each kind in your bank and count the matches, the coins showing your side. Heads threw quarter and nickel heads up: two matches, so Heads may place up to two coins, and only the coins that matched. Place your quarter on an empty space.",
        ),
        M_(
            "lesson.coin-age.slap.hint",
            "with two matches you place coins; place the quarter that matched (the penny and the dime landed tails up and stay in the bank this turn).",
        ),
        M_(
            "lesson.coin-age.slap.done",
            "Placed. Two or three matches allow two places, four allow a third by paying a coin, one match a place and a move, none a capture and a move.",
        ),
        M_("lesson.coin-age.stacking.title", "Stacking by rank"),
        M_(
            "lesson.coin-age.stacking.text",
            "A coin may go on an empty space or on a coin of strictly higher rank, anyone's: a dime on anything but a dime, a quarter only on an empty space. Tails matched the quarter and the penny. Cover Heads' quarter on Stone Rock with your penny: the top coin holds the space.",
        ),
        M_("lesson.coin-age.stacking.hint", "put the penny on the quarter at Stone Rock."),
        M_(
            "lesson.coin-age.stacking.done",
            "Covered: Stone Rock is Tails' now, and the quarter under the penny scores nothing while it is covered.",
        ),
        M_("lesson.coin-age.capture.title", "No match: capture"),
        M_(
            "lesson.coin-age.capture.text",
            "Heads threw no match: no place, but a capture and a move. A capture takes the top coin of any stack into your bank; it is yours from then on. Take Tails' penny off Stone Rock, so your quarter holds the space again.",
        ),
        M_("lesson.coin-age.capture.hint", "capture the penny on Stone Rock."),
        M_(
            "lesson.coin-age.capture.done",
            "Captured: the penny is in your bank now and your quarter is on top again.",
        ),
        M_("lesson.coin-age.regions.title", "Regions double"),
        M_(
            "lesson.coin-age.regions.text",
            "Spaces score their top coin's rank; in each region a player holding strictly more spaces than the other doubles their points there, and every coin in a bank scores 1. The Silver Vale has two spaces: your dime holds Silver City, Tails' quarter Gentle Wood, a tie that doubles nobody. You matched the penny: make the move that scores most.",
        ),
        M_("lesson.coin-age.regions.hint", "look for the move that wins a region's majority."),
        M_(
            "lesson.coin-age.regions.done",
            "Both Silver Vale spaces are yours: the region doubles for you and Tails loses the quarter's 4. The game ends at once when a coin fills the last empty space or an action empties the mover's bank; then the totals decide.",
        ),
        M_("lesson.stack-a-cash.line.title", "Three in a row"),
        M_(
            "lesson.stack-a-cash.line.text",
            "Three coins showing your side on the top layer, in a row, column or diagonal, win. Nobody owns a coin: what shows on top counts. Heads to move: win.",
        ),
        M_("lesson.stack-a-cash.line.hint", "Heads has a1 and b1: finish the row."),
        M_("lesson.stack-a-cash.line.done", "A line: Heads wins."),
        M_("lesson.stack-a-cash.protection.title", "Protection"),
        M_(
            "lesson.stack-a-cash.protection.text",
            "The coin your opponent placed, moved or flipped last turn is protected: you cannot flip or move it (try flip c1), but you may cover it with a smaller coin. Win.",
        ),
        M_(
            "lesson.stack-a-cash.protection.hint",
            "the medium coin on c1 is protected; a small coin may still cover it.",
        ),
        M_("lesson.stack-a-cash.protection.done", "Covered with your side up: Heads wins the row."),
        M_("lesson.stack-a-cash.opponent-lines.title", "Lines made for the opponent"),
        M_(
            "lesson.stack-a-cash.opponent-lines.text",
            "After every action the opponent's lines are checked first: a move that shows a line for the other side loses, even if it makes yours too. Tails to move: do not flip or uncover a Heads line; win instead.",
        ),
        M_(
            "lesson.stack-a-cash.opponent-lines.hint",
            "that move shows a line for the other side, or does not win.",
        ),
        M_(
            "lesson.stack-a-cash.opponent-lines.done",
            "A line of your own and none for Heads: Tails wins.",
        ),
        M_("lesson.stack-a-cash.repetition.title", "Repetition"),
        M_(
            "lesson.stack-a-cash.repetition.text",
            "The same position (board, side to move and protected coin) a third time is a draw; flips and moves could go on for ever, and this ends them. Heads and Tails have been flipping a2 and b3 in turn. Tails to move: repeat the position a third time.",
        ),
        M_(
            "lesson.stack-a-cash.repetition.hint",
            "the draw comes from playing the same flip once more.",
        ),
        M_("lesson.stack-a-cash.repetition.done", "The third time: the game is drawn."),
        M_("lesson.flipwars.attack.title", "Attack patterns"),
        M_(
            "lesson.flipwars.attack.text",
            "Every tile attacks the cells its dots show; placing it flips every tile there to the other colour. Red to move: flip the blue tile with the placement that gains most.",
        ),
        M_("lesson.flipwars.attack.hint", "choose a tile whose pattern reaches blue tiles."),
        M_(
            "lesson.flipwars.attack.done",
            "Flipped: attacked tiles change colour, whoever owned them.",
        ),
        M_("lesson.flipwars.rotation.title", "Rotation"),
        M_(
            "lesson.flipwars.rotation.text",
            "A tile may be turned before it is placed (r0 as printed, r90, r180, r270 clockwise), and its pattern turns with it. Blue to move: find the placement, turned as it must be, that gains most.",
        ),
        M_(
            "lesson.flipwars.rotation.hint",
            "turn the tile so that its pattern points at the red tiles.",
        ),
        M_(
            "lesson.flipwars.rotation.done",
            "Right: turned a quarter, the tank's line reaches the most.",
        ),
        M_("lesson.flipwars.own-tiles.title", "Flipping your own tiles"),
        M_(
            "lesson.flipwars.own-tiles.text",
            "An attack flips every tile it reaches, your own too. Blue to move: gain the most, counting the blue tiles a placement would turn red.",
        ),
        M_(
            "lesson.flipwars.own-tiles.hint",
            "that placement turns some of your own tiles, or misses red ones.",
        ),
        M_(
            "lesson.flipwars.own-tiles.done", "Right: most tiles, counting those flipped both ways."
        ),
        M_("lesson.flipwars.enclosed.title", "Enclosed Battle"),
        M_(
            "lesson.flipwars.enclosed.text",
            "Each mode changes the field. Enclosed Battle plays on a 4x4 board with one of each tile per player, all of them placed. Blue to move: gain the most.",
        ),
        M_("lesson.flipwars.more-red", "a placement that reaches more red tiles gains more."),
        M_("lesson.flipwars.enclosed.done", "Right: on the small board every cell counts."),
        M_("lesson.flipwars.flag.title", "Capture the Flag"),
        M_(
            "lesson.flipwars.flag.text",
            "Capture the Flag adds a flag to each side, placed first; it attacks nothing and counts 2 for whoever's colour it shows. Blue to move: gain the most.",
        ),
        M_("lesson.flipwars.flag.hint", "a flag turned to your colour counts 2."),
        M_("lesson.flipwars.flag.done", "Right: flags are the tiles worth taking."),
        M_("lesson.flipwars.tactical.title", "Tactical War"),
        M_(
            "lesson.flipwars.tactical.text",
            "Tactical War blocks a cell (c3 in the first round): no tile fills it, nothing flips it, attacks pass over it. As a series, first to three rounds, the loser of a round moves the block and chooses who starts the next. Blue to move: gain the most.",
        ),
        M_(
            "lesson.flipwars.tactical.done",
            "Right. That is every mode: the most tiles when the board is full wins.",
        ),
        M_("lesson.wallet-battles.flips.title", "Flips"),
        M_(
            "lesson.wallet-battles.flips.text",
            "Each round both players flip a coin: two heads and the Union acts, two tails and the Confederacy acts, one of each and nobody does. The flips came HH: place a coin from your pile on an empty location.",
        ),
        M_(
            "lesson.wallet-battles.flips.hint",
            "after HH the Union places a coin here (or captures, or passes, but no enemy coin is on the map yet).",
        ),
        M_(
            "lesson.wallet-battles.flips.done",
            "Placed: the location is the Union's while its coins are there.",
        ),
        M_("lesson.wallet-battles.capture.title", "Capture"),
        M_(
            "lesson.wallet-battles.capture.text",
            "The act may instead capture: take the top coin of an enemy stack into your pile, to place later as your own. The flips came TT: capture the Union's quarter.",
        ),
        M_("lesson.wallet-battles.capture.hint", "capture the coin on Cemetery Hill."),
        M_(
            "lesson.wallet-battles.capture.done",
            "Captured: the quarter is in the Confederacy's pile now.",
        ),
        M_("lesson.wallet-battles.recall.title", "The recall"),
        M_(
            "lesson.wallet-battles.recall.text",
            "The third odd flip in a row forces a recall: each side with coins on the map, Union first, returns one of its own top coins to its pile. Recall your quarter.",
        ),
        M_(
            "lesson.wallet-battles.recall.hint",
            "the recall returns one of your own top coins.",
        ),
        M_(
            "lesson.wallet-battles.recall.done",
            "Recalled, and the count of odd flips starts again from zero.",
        ),
        M_("lesson.wallet-battles.scoring.title", "Stacks and scoring"),
        M_(
            "lesson.wallet-battles.scoring.text",
            "You may place a coin on your own stack whose top coin is strictly larger. A location you hold scores 2 plus its coins, doubled from three coins up; a coin in your pile scores 1. Make the move that scores most.",
        ),
        M_("lesson.wallet-battles.scoring.hint", "a third coin on your own stack doubles it."),
        M_("lesson.wallet-battles.scoring.done", "Three coins: the stack is worth 8 now."),
        # -- the puzzles (pocketarena.puzzles): what a puzzle asks, and the solver's verdict ----
        nM_(
            "puzzle.goal.round",
            "%(seat)s to move (%(count)s cell is empty): find the only placement that wins the round by %(margin)s.",
            "%(seat)s to move (%(count)s cells are empty): find the only placement that wins the round by %(margin)s.",
        ),
        M_(
            "puzzle.no-solver",
            "%(game)s has no exact solver, so its blunders cannot be checked (puzzles come from %(games)s games)",
        ),
        M_("puzzle.goal.at-once", "%(seat)s to move: find the only move that wins at once."),
        M_(
            "puzzle.goal.wins-in",
            "%(seat)s to move: find the only move that wins (in %(plies)s).",
        ),
        M_("puzzle.right", "Right: %(move)s is a %(result)s for %(seat)s."),
        M_(
            "puzzle.wrong",
            "Not this one: %(move)s is only a %(result)s for %(seat)s. The winning move was %(answer)s (%(best)s).",
        ),
        M_("puzzle.solver-answers", "%(said)s The solver answers %(reply)s."),
        # -- what a better move leads to (pocketarena.analysis.outcome_message) -------------
        M_("analysis.outcome.wins_in", "%(winner)s wins in %(plies)s"),
        M_("analysis.outcome.wins_round_by", "%(winner)s wins the round by %(margin)s"),
        M_("analysis.outcome.draw", "a draw"),
        M_("analysis.outcome.round_level", "the round ends level"),
        M_("analysis.outcome.expected", "expected %(value)s for %(first)s"),
        # -- verifying a record's coin throws (pocketarena.fair) ------------------------------
        M_(
            "fair.first-wrong",
            "the throw at move %(number)s is recorded as %(recorded)r, but the seed gives %(expected)r",
        ),
        M_("fair.then", "%(first)s; %(next)s"),
        M_(
            "fair.unknown-scheme",
            "the record's chance scheme is %(scheme)r; this verifier knows %(known)r",
        ),
        M_(
            "fair.no-scheme",
            "the record has no %(header)s header (it was not played with fair chance)",
        ),
        M_("fair.no-header", "the record has no %(header)s header"),
        M_("fair.seed-secret", "the seed has not been revealed (the game is not over)"),
        M_(
            "fair.seed-not-revealed", "the record does not reveal the seed, though the game is over"
        ),
        M_("fair.seed-malformed", "the revealed seed is malformed: %(why)s"),
        M_("fair.not-replayable", "move %(number)s (%(text)r) cannot be replayed: %(why)s"),
        M_("fair.seeded-no-seed", "the record says its throws are seeded but gives no seed"),
        M_(
            "fair.no-coins",
            "%(game)s has no coin throws: every move is a player's choice (pocketarena replay FILE --check checks the moves)",
        ),
        M_("fair.verdict.nothing", "NOTHING TO VERIFY: %(why)s"),
        M_("fair.verdict.not-verified", "NOT VERIFIED: %(details)s"),
        M_(
            "fair.verdict.seeded-wrong",
            "NOT VERIFIED: %(bad)s of %(count)s throws do not follow from the record's seed; %(first)s",
        ),
        M_(
            "fair.verdict.seeded-one",
            "VERIFIED: the one throw follows from the record's seed %(seed)s (a seeded game: the seed was no secret, so this shows the record is whole, not that the coins were blind)",
        ),
        M_(
            "fair.verdict.seeded-all",
            "VERIFIED: all %(count)s throws follow from the record's seed %(seed)s (a seeded game: the seed was no secret, so this shows the record is whole, not that the coins were blind)",
        ),
        M_(
            "fair.verdict.seed-mismatch",
            "NOT VERIFIED: the revealed seed does not match the commitment",
        ),
        nM_(
            "fair.verdict.wrong",
            "NOT VERIFIED: %(bad)s of %(count)s chance outcome do not match the seed; %(first)s",
            "NOT VERIFIED: %(bad)s of %(count)s chance outcomes do not match the seed; %(first)s",
        ),
        M_(
            "fair.verdict.no-throws",
            "VERIFIED: the revealed seed matches the commitment (no coins were thrown)",
        ),
        M_("fair.verdict.one", "VERIFIED: the one chance outcome follows from the committed seed"),
        M_(
            "fair.verdict.all",
            "VERIFIED: all %(count)s chance outcomes follow from the committed seed",
        ),
        # -- how a game ended (a record's Termination; records.termination_message) ----------
        M_("record.termination.normal", "normal"),
        M_("record.termination.resignation", "resignation"),
        M_("record.termination.time-forfeit", "time forfeit"),
        M_("record.termination.abandoned", "abandoned"),
        M_("record.termination.agreement", "agreement"),
        M_("record.termination.aborted", "aborted"),
        M_("record.termination.unterminated", "unterminated"),
        M_("record.termination.none", "unfinished"),
        # a guest still called by the name a server gave them (records.Player.guest)
        M_("record.guest", "Guest %(number)s"),
        # a level's bot under the name a server gives it (records.Player.bot; the same words as
        # the site's server/catalog.py BOT_NAMES), and a tournament's numbered one
        M_("record.bot.random", "Randy (random)"),
        M_("record.bot.greedy", "Greta (greedy)"),
        M_("record.bot.easy", "Bot · easy"),
        M_("record.bot.medium", "Bot · medium"),
        M_("record.bot.hard", "Bot · hard"),
        M_("record.bot.perfect", "Bot · perfect"),
        M_("record.bot-numbered", "%(name)s %(number)s"),
        # -- a game record that cannot be read or does not replay (pocketarena.records) -------
        M_("record.date-not-text", "record %(name)s date must be ISO 8601 text, got %(value)r"),
        M_(
            "record.date-not-iso",
            "record %(name)s date %(value)r is not ISO 8601 (e.g. %(example)s)",
        ),
        M_("record.unknown-game", "record is for an unknown game %(game)r; known games: %(games)s"),
        M_("record.bad-options", "record has bad options: %(why)s"),
        M_("record.two-players", "record must name 2 players, it names %(count)s"),
        M_("record.bad-result", "record result %(result)r is not one of %(results)s"),
        M_(
            "record.bad-termination",
            "record termination %(termination)r is not one of %(terminations)s",
        ),
        M_("record.moves-not-text", "record moves must all be notation text"),
        M_("record.bad-scores", "record scores must be two numbers, got %(scores)r"),
        M_(
            "record.comment-after",
            "record comment placed after move %(move)s, which does not exist",
        ),
        M_("record.illegal-move", "move %(number)s (%(text)r) is illegal: %(why)s"),
        M_(
            "record.not-the-throw",
            "move %(number)s (%(text)r) is not the throw seed %(seed)r gives (%(expected)s)",
        ),
        M_("record.no-seed", "record says its throws are seeded, but it has no seed"),
        M_(
            "record.result-differs",
            "record states the result %(result)s, but its moves end the game %(played)s",
        ),
        M_(
            "record.ended-normally",
            "record says the game ended by %(termination)s, but its moves finish it normally",
        ),
        nM_(
            "record.not-over",
            "record states the result %(result)s, but the game is not over after its %(count)s move (and no resignation or forfeit is recorded)",
            "record states the result %(result)s, but the game is not over after its %(count)s moves (and no resignation or forfeit is recorded)",
        ),
        M_(
            "record.scores-differ",
            "record states the scores %(stated)s, but its moves give %(played)s",
        ),
        M_("record.no-field", "record has no %(name)r field"),
        M_("record.game-not-id", "record 'game' must be a game id"),
        M_("record.moves-not-list", "record 'moves' must be a list of moves in notation"),
        M_("record.options-not-object", "record 'options' must be an object"),
        M_("record.players-not-list", "record 'players' must be a list of {name, kind} objects"),
        M_(
            "record.scores-not-list",
            "record 'scores' must be a list of two numbers, got %(scores)r",
        ),
        M_("record.headers-not-object", "record 'headers' must be an object"),
        M_("record.comments-not-list", "record 'comments' must be a list of {after, text} objects"),
        M_("record.bad-seed", "record 'seed' must be an integer or text, got %(seed)r"),
        M_("record.no-game-header", 'record has no [Game "..."] header'),
        M_(
            "record.options-header-not-json",
            "record Options header is not JSON: %(error)s (line %(line)s)",
        ),
        M_(
            "record.options-header-too-deep",
            "record Options header is nested more than %(most)s levels deep",
        ),
        M_("record.options-header-not-object", "record Options header must be a JSON object"),
        M_(
            "record.result-header-differs",
            "record Result header says %(stated)s but its last line says %(result)s",
        ),
        M_("record.too-large", "a record is at most %(most)s MB; this is larger"),
        M_("record.empty", "the record is empty"),
        M_("record.no-file", "no such record file: %(path)s"),
        M_("record.folder", "%(path)s is a folder, not a record file"),
        M_("record.unreadable", "cannot read %(path)s: %(why)s"),
        M_(
            "record.file-too-large",
            "%(path)s is larger than %(most)s MB, so not a Pocket Arena record",
        ),
        M_("record.not-text", "%(path)s is not a text file, so not a Pocket Arena record"),
        M_("record.in-file", "%(path)s: %(problem)s"),
        M_("record.json-not-json", "record is not valid JSON: %(error)s (line %(line)s)"),
        M_("record.json-too-deep", "record is nested more than %(most)s levels deep"),
        M_(
            "record.after-result",
            "record line %(number)s: %(line)r comes after the result %(result)r, which must be last",
        ),
        M_(
            "record.no-headers",
            'not a Pocket Arena record: it must start with headers like [Game "stack-a-cash"] (or be a JSON record)',
        ),
        M_(
            "record.bad-header",
            'record line %(number)s: %(line)r is not a header like [Name "value"]',
        ),
        M_("record.bad-scores-header", "record Scores header must be two numbers, got %(text)r"),
        M_("record.json-not-object", "a JSON record must be an object"),
        M_("record.bad-format", "not a Pocket Arena record (its 'format' is not %(format)r)"),
        M_(
            "record.bad-version",
            "record version %(version)r is not supported (this program reads %(reads)s)",
        ),
    ]
)


# Parameters that name a place of the board (a cell, a space, a location) by its notation id;
# a page that shows the places by name ("Gentle Wood") words them so.
PLACE_PARAMS = frozenset({"place", "space", "onto", "start", "end"})


def _word(
    value: Any,
    translations: gettext.NullTranslations | None,
    places: Mapping[str, str] | None = None,
) -> Any:
    if isinstance(value, Message):
        return render(value, translations, places)
    return value


def _list(items: list[Any], key: str, translations: gettext.NullTranslations | None) -> str:
    words = [str(_word(item, translations)) for item in items]
    if not words:
        return ""
    joined = words[-1]
    for i, word in enumerate(reversed(words[:-1])):
        # "a, b and c": the last two joined by "and", the others by the list's comma
        step = ("core.and" if i == 0 else "core.list") if key == "core.all" else key
        joined = _text(step, {"first": word, "next": joined}, None, translations)
    return joined


def _text(
    key: str,
    values: Mapping[str, Any],
    count: int | None,
    translations: gettext.NullTranslations | None,
) -> str:
    source = ENGLISH[key]
    if isinstance(source, tuple):
        n = count if count is not None else 1
        if translations is None:
            template = source[0] if n == 1 else source[1]
        else:
            template = translations.npgettext(key, source[0], source[1], n)
    elif translations is None:
        template = source
    else:
        template = translations.pgettext(key, source)
    if key == "core.possessive" and template == source:
        return possessive(str(values["name"]))  # English's own rule ("Heads'", "Blue's")
    return template % values


def speak(said: Message, places: Mapping[str, str] | None = None) -> str:
    """``said`` in the language of the moment (``pocketarena.i18n.use_locale``), English
    when none is set."""
    from pocketarena import i18n

    if i18n.is_rtl(i18n.current()):
        said = _signs_isolated(said)
    return render(said, current_translations(), places)


def speak_error(error: BaseException) -> str:
    """Why ``error`` refused, in the language of the moment when it says so as a message
    (``error.message``: a ``Refusal``'s, a ``RecordError``'s), else its own text."""
    said = getattr(error, "message", None)
    return speak(said) if isinstance(said, Message) else str(error)


# A number with its sign ("+2", "-1", "−3"): in a right-to-left sentence the sign, a neutral
# character, would be drawn after the digits ("2+") unless the number is isolated.
_SIGNED = re.compile(r"[+\-\u2212]\d[\d.,]*")


def _signs_isolated(said: Message) -> Message:
    """``said`` with each signed number among its parameters isolated left to right
    (U+2066 … U+2069), inner messages too."""
    params = {
        name: f"\u2066{value}\u2069"
        if isinstance(value, str) and _SIGNED.fullmatch(value)
        else _signs_isolated(value)
        if isinstance(value, Message)
        else value
        for name, value in said.params.items()
    }
    return Message(said.id, params)


def current_translations() -> gettext.NullTranslations | None:
    """The engine catalog of the language in use, or None for English."""
    from pocketarena import i18n  # Babel and the catalogs only once something is worded

    code = i18n.current()
    return None if code == i18n.DEFAULT else i18n.translations(code, "engine")


def render(
    said: Message,
    translations: gettext.NullTranslations | None = None,
    places: Mapping[str, str] | None = None,
) -> str:
    """``said`` worded in English, or in the language of ``translations``; ``places`` maps
    place ids to the names a board shows (the place parameters are then said by name)."""
    key = said.id
    params = said.params
    if key in ("core.list", "core.alternatives", "core.all"):
        return _list(list(params.get("items", ())), key, translations)
    if key not in ENGLISH:
        return f"{key} {dict(said.params)}"  # an id this version does not know: say it raw
    values = {name: _word(value, translations, places) for name, value in params.items()}
    if places:
        for name in PLACE_PARAMS.intersection(values):
            values[name] = places.get(values[name], values[name])
    count = params.get("count")
    return _text(key, values, count if isinstance(count, int) else None, translations)


set_wording(render)  # str(message) and str(error) say it in English
