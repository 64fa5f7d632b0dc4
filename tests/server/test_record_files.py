"""A game's record file as the server gives it, read back: an unfinished game has no end, a
bot is kept by its spec beside the name people read, and ``pocketarena play --resume`` goes on
with a game downloaded from the server against the same bot, in any language."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pocketarena.records import BOT_LEVEL_NAMES, Player, load, loads, termination_message
from pocketarena.server import catalog
from tests.cli.helpers import run

from .conftest import create
from .test_api import SAC, wait_for


def unfinished_game_with_a_bot(client: TestClient) -> str:
    """A Stack-a-Cash game against Randy (random): a move each played, Heads to move."""
    gid: str = create(client, **SAC, mode="bot", bot="random", seat=0)["id"]
    view = client.get(f"/api/games/{gid}?svg=false").json()
    move = {"action": view["legal"][0]["text"], "version": view["version"]}
    assert client.post(f"/api/games/{gid}/moves", json=move).status_code == 200
    wait_for(client, gid, lambda v: len(v["history"]) == 2 and v["to_move"] == 0)
    return gid


def test_the_record_of_a_game_in_progress_has_no_end(client: TestClient) -> None:
    gid = unfinished_game_with_a_bot(client)
    text = client.get(f"/api/games/{gid}/record?format=text").text
    assert '[Result "*"]' in text and '[Termination "unterminated"]' in text
    assert "[Start " in text and "[End " not in text, text
    data = client.get(f"/api/games/{gid}/record?format=json").json()
    assert data["started"] and data["ended"] is None
    assert loads(text).ended is None
    assert client.post(f"/api/games/{gid}/resign").status_code == 200
    over = loads(client.get(f"/api/games/{gid}/record?format=text").text)
    assert over.result == "0-1" and over.ended is not None and over.ended >= over.started


def test_a_bot_is_kept_by_its_spec_and_the_file_is_the_same_in_every_language(
    client: TestClient,
) -> None:
    gid = unfinished_game_with_a_bot(client)
    url = f"/api/games/{gid}/record?format=text"
    english = client.get(url).text
    assert '[Tails "Randy (random)"]' in english and '[TailsBot "random"]' in english
    record = loads(english)
    assert record.players[1] == Player("Randy (random)", "bot", bot="random")
    assert "TailsBot" not in record.headers
    json_players = client.get(f"/api/games/{gid}/record?format=json").json()["players"]
    assert json_players[1]["bot"] == "random" and "bot" not in json_players[0]
    for code in ("fr", "ja", "ar"):
        client.cookies.set("lang", code)
        assert client.get(url).text == english, code


@pytest.mark.parametrize("lang", ["en", "fr", "ja"])
def test_play_resume_goes_on_with_a_game_from_the_server_against_its_bot(
    client: TestClient, tmp_path: Path, lang: str
) -> None:
    """The file from the server's download link, resumed in the terminal: the bot is made
    from its spec (the name "Randy (random)" is no bot spec), and shown by its name in the
    reader's words."""
    gid = unfinished_game_with_a_bot(client)
    saved = tmp_path / f"{gid}.txt"
    saved.write_bytes(client.get(f"/api/games/{gid}/record?format=text&download=true").content)
    resumed = run("--lang", lang, "play", "--resume", str(saved), input="1\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Traceback" not in resumed.output
    name = {"en": "Randy (random)", "fr": "Randy (au hasard)", "ja": "ランディ（ランダム）"}[lang]
    assert name in resumed.output, resumed.output
    again = load(saved)
    # The person's move or the random bot's reply may end the game (Stack-a-Cash can be over
    # in three or four plies): a game over is dated, one still going is not.
    assert len(again.moves) == 4 or (len(again.moves) == 3 and again.result != "*")
    assert (again.ended is None) == (again.result == "*"), (again.result, again.ended)
    assert again.players[1] == Player("Randy (random)", "bot", bot="random")
    assert again.headers["GameId"] == gid
    assert run("replay", str(saved), "--check").exit_code == 0


def test_a_level_bots_name_in_the_engine_is_the_one_the_server_stores() -> None:
    """``pocketarena replay`` words a server's bot from the engine's catalog: the engine's
    English for each level is the name the site stores (and words from its own catalog)."""
    assert set(BOT_LEVEL_NAMES) == set(catalog.BOT_LEVELS)
    for level in BOT_LEVEL_NAMES:
        said = Player(catalog.stored_bot_name(level), "bot", bot=level).said()
        assert said.id == f"record.bot.{level}", level


def test_an_aborted_game_says_it_was_called_off(client: TestClient, tmp_path: Path) -> None:
    """A game called off before each side moved is over without a result: its record says
    "aborted" (not "unterminated", which is a game still going) and has an end; read back, it
    is a valid record, and its termination is worded in the reader's language."""
    gid: str = create(client, **SAC, mode="bot", bot="random", seat=0)["id"]
    aborted = client.post(f"/api/games/{gid}/abort")
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted", aborted.text
    text = client.get(f"/api/games/{gid}/record?format=text").text
    assert '[Result "*"]' in text and '[Termination "aborted"]' in text, text
    record = loads(text)
    assert record.termination == "aborted" and record.ended is not None
    assert record.ended >= record.started
    assert termination_message("aborted").id == "record.termination.aborted"
    data = client.get(f"/api/games/{gid}/record?format=json").json()
    assert data["termination"] == "aborted" and data["ended"] is not None
    saved = tmp_path / "aborted.txt"
    saved.write_text(text, encoding="utf-8")
    assert run("replay", str(saved), "--check").exit_code == 0
