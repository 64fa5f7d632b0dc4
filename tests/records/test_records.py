"""Records: JSON <-> text <-> replay round trips for every game, and clear messages for bad ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.bots.simple import RandomBot
from pocketarena.i18n import use_locale
from pocketarena.match import SeededChance, play_match
from pocketarena.messages import speak
from pocketarena.records import Player, Record, load, loads, result_of
from tests.conftest import all_variants, variant_id

CASES = [("coin-race", {}), *all_variants()]


def _json(record: Record) -> Any:
    return json.loads(json.dumps(record.to_json()))


def random_record(game: pa.Game, seed: int) -> Record:
    bots = [RandomBot(game, seed=seed), RandomBot(game, seed=seed + 1000)]
    return play_match(
        game, bots, SeededChance(seed), headers={"Event": "round trip", "Site": "tests"}
    )


@pytest.mark.parametrize("variant", CASES, ids=[variant_id(v) for v in CASES])
def test_json_text_and_replay_agree(variant: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    game_id, options = variant
    game = pa.load(game_id, **options)
    for seed in (1, 2):
        record = random_record(game, seed)
        final = record.replay()
        assert final.is_terminal()
        assert record.result == result_of(final)
        assert record.moves == [a.text for a in final.history]
        assert record.seed == seed and record.headers["Chance"] == "seeded"

        from_text = Record.from_text(record.to_text())
        from_json = Record.from_json(json.dumps(record.to_json()))
        assert _json(from_text) == _json(record) == _json(from_json)
        assert Record.from_text(from_json.to_text()).to_text() == record.to_text()
        for copy in (from_text, from_json):
            again = copy.replay()
            assert again == final
            assert again.to_json() == final.to_json()

        for name in ("game.json", "game.txt"):
            path = record.save(tmp_path / name)
            loaded = load(path)
            assert _json(loaded) == _json(record)
            assert loaded.replay().to_json() == final.to_json()


def test_text_form_reads_like_pgn(coin_race: pa.Game) -> None:
    record = random_record(coin_race, 3)
    record.players = [Player("alice", "human"), Player('Bob "the bot"', "bot")]
    text = record.to_text()
    lines = text.splitlines()
    assert lines[0] == '[Game "coin-race"]'
    assert lines[1] == '[Options "{\\"goal\\": 10}"]'
    assert '[Heads "alice"]' in lines and '[Tails "Bob \\"the bot\\""]' in lines
    assert "" in lines
    blank = lines.index("")
    assert all(line.startswith("[") for line in lines[:blank])
    assert lines[blank + 1 : -1] == record.moves
    assert lines[-1] == record.result
    assert Record.from_text(text).players[1].name == 'Bob "the bot"'


def test_comments_keep_their_place(coin_race: pa.Game) -> None:
    record = random_record(coin_race, 4)
    text = record.to_text().replace("\n\n", "\n\n# opening throw\n", 1)
    lines = text.splitlines()
    lines.insert(len(lines) - 1, "# the end")
    lines.insert(lines.index("# opening throw") + 3, "# after two moves")
    parsed = Record.from_text("\n".join(lines))
    assert parsed.comments == [
        (0, "opening throw"),
        (2, "after two moves"),
        (len(parsed.moves), "the end"),
    ]
    assert parsed.moves == record.moves
    assert Record.from_json(parsed.to_json()).comments == parsed.comments
    assert Record.from_text(parsed.to_text()).comments == parsed.comments


def test_moves_may_follow_headers_without_a_blank_line(coin_race: pa.Game) -> None:
    text = '[Game "coin-race"]\n[Result "*"]\nflip H\nadd 3\n*\n'
    record = loads(text)
    assert record.moves == ["flip H", "add 3"]
    assert record.replay().scores() == (3.0, 0.0)


def test_a_resignation_is_a_result_off_the_board(coin_race: pa.Game) -> None:
    state = coin_race.new_initial_state()
    for move in ("flip H", "add 3", "flip T"):
        state.apply(move)
    record = Record.from_state(state, result="1-0", termination="resignation")
    assert record.replay().ply == 3
    assert Record.from_text(record.to_text()).termination == "resignation"
    unfinished = Record.from_state(state)
    assert unfinished.result == "*" and unfinished.termination == "unterminated"
    unfinished.replay()
    claimed = Record.from_state(state, result="1-0")
    with pytest.raises(pa.RecordError, match="not over after its 3 moves"):
        claimed.replay()


def test_an_unfinished_game_has_no_end(coin_race: pa.Game) -> None:
    """A game still going (result ``*``) has a start but no end: neither form writes one, and
    the record reads back the same; once over, the record is dated when it is made."""
    state = coin_race.new_initial_state()
    for move in ("flip H", "add 3"):
        state.apply(move)
    going = Record.from_state(state, started="2026-12-06T20:00:00Z")
    assert going.ended is None
    text = going.to_text()
    assert '[Start "2026-12-06T20:00:00Z"]' in text and "[End " not in text
    assert going.to_json()["ended"] is None
    for again in (Record.from_text(text), Record.from_json(going.to_json())):
        assert again.ended is None and _json(again) == _json(going)
    stopped = Record.from_state(state, termination="abandoned")  # quit, to go on later
    assert stopped.result == "*" and stopped.ended is None
    assert "[End " not in stopped.to_text()
    resigned = Record.from_state(state, result="1-0", termination="resignation")
    assert resigned.ended is not None and f'[End "{resigned.ended}"]' in resigned.to_text()


# -- what is wrong with a bad record is said in one line -------------------------------------


def _good_json(coin_race: pa.Game) -> dict[str, Any]:
    return random_record(coin_race, 5).to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("moves"), "record has no 'moves' field"),
        (lambda d: d.pop("game"), "record has no 'game' field"),
        (lambda d: d.update(format="chess-pgn"), "not a Pocket Arena record"),
        (lambda d: d.update(version=7), "record version 7 is not supported"),
        (lambda d: d.update(game="nope"), "unknown game 'nope'; known games: .*coin-race"),
        (lambda d: d.update(options={"colour": "red"}), "bad options: unknown option 'colour'"),
        (lambda d: d.update(options={"goal": "ten"}), "bad options: .*'goal' must be an integer"),
        (lambda d: d.update(moves="flip H"), "'moves' must be a list"),
        (lambda d: d.update(result="2-0"), "result '2-0' is not one of"),
        (lambda d: d.update(started="yesterday"), "start date 'yesterday' is not ISO 8601"),
        (lambda d: d.update(players=[{"name": "x"}]), "must name 2 players"),
        (lambda d: d.update(scores=[1]), "'scores' must be a list of two numbers"),
        (lambda d: d.update(seed=[1]), "'seed' must be an integer or text"),
    ],
)
def test_bad_json_fields(coin_race: pa.Game, change: Any, message: str) -> None:
    data = _good_json(coin_race)
    change(data)
    with pytest.raises(pa.RecordError, match=message) as info:
        Record.from_json(json.dumps(data))
    assert "\n" not in str(info.value)


def test_illegal_move_names_number_move_and_reason(coin_race: pa.Game) -> None:
    record = loads('[Game "coin-race"]\n\nflip T\nadd 1\nflip T\nadd 3\n*\n')
    with pytest.raises(pa.RecordError) as info:
        record.replay()
    assert str(info.value) == "move 4 ('add 3') is illegal: add 3 needs heads on this turn's flip"
    unreadable = loads('[Game "coin-race"]\n\nflip T\njump\n*\n')
    with pytest.raises(
        pa.RecordError, match=r"move 2 \('jump'\) is illegal: .*unknown word 'jump'"
    ):
        unreadable.replay()
    wrong_kind = loads('[Game "coin-race"]\n\nadd 1\n*\n')
    with pytest.raises(
        pa.RecordError, match=r"move 1 \('add 1'\) is illegal: .*coins must be thrown"
    ):
        wrong_kind.replay()


def test_stated_result_and_scores_are_checked(coin_race: pa.Game) -> None:
    record = random_record(coin_race, 6)
    other = "0-1" if record.result == "1-0" else "1-0"
    wrong = Record.from_json({**record.to_json(), "result": other})
    with pytest.raises(
        pa.RecordError,
        match=f"states the result {other}, but its moves end the game {record.result}",
    ):
        wrong.replay()
    assert record.scores is not None
    bad_scores = Record.from_json({**record.to_json(), "scores": [99, 0]})
    with pytest.raises(pa.RecordError, match="states the scores 99-0, but its moves give"):
        bad_scores.replay()
    resigned_after_end = Record.from_json({**record.to_json(), "termination": "resignation"})
    with pytest.raises(
        pa.RecordError, match="ended by resignation, but its moves finish it normally"
    ):
        resigned_after_end.replay()


def test_seeded_throws_are_checked_against_the_seed(coin_race: pa.Game) -> None:
    record = random_record(coin_race, 7)
    first_throw = record.moves[0]
    swapped = "flip T" if first_throw == "flip H" else "flip H"
    tampered = Record.from_json({**record.to_json(), "moves": [swapped, *record.moves[1:]]})
    with pytest.raises(
        pa.RecordError, match=f"move 1 \\('{swapped}'\\) is not the throw seed 7 gives"
    ):
        tampered.replay()
    unseeded = Record.from_json({**record.to_json(), "seed": None})
    with pytest.raises(pa.RecordError, match="seeded, but it has no seed"):
        unseeded.replay()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the record is empty"),
        ("{oops", "not valid JSON"),
        ("[1, 2]", "not a Pocket Arena record"),
        ('[Game "coin-race"]\n[Result "*"\n', "line 2: .* is not a header"),
        ("hello world", "not a Pocket Arena record: it must start with headers"),
        ('[Result "*"]\n\nflip H\n', 'no \\[Game "..."\\] header'),
        ('[Game "coin-race"]\n[Options "{nope"]\n\n*\n', "Options header is not JSON"),
        ('[Game "coin-race"]\n[Options "[1]"]\n\n*\n', "Options header must be a JSON object"),
        ('[Game "coin-race"]\n\nflip H\n*\nadd 1\n', "'add 1' comes after the result"),
        (
            '[Game "coin-race"]\n[Result "1-0"]\n\nflip H\n0-1\n',
            "Result header says 1-0 but its last line says 0-1",
        ),
        ('[Game "coin-race"]\n[Scores "1"]\n\n*\n', "Scores header must be two numbers"),
        (
            '[Game "coin-race"]\n[Termination "boredom"]\n\n*\n',
            "termination 'boredom' is not one of",
        ),
        ('[Game "go"]\n\n*\n', "unknown game 'go'"),
    ],
)
def test_bad_text(text: str, message: str) -> None:
    with pytest.raises(pa.RecordError, match=message) as info:
        loads(text)
    assert "\n" not in str(info.value)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(pa.RecordError, match="no such record file"):
        load(tmp_path / "missing.json")
    with pytest.raises(pa.RecordError, match="is a folder"):
        load(tmp_path)
    binary = tmp_path / "coins.bin"
    binary.write_bytes(b"\x89PNG\xff\xfe\x00")
    with pytest.raises(pa.RecordError, match="not a text file"):
        load(binary)
    garbage = tmp_path / "game.json"
    garbage.write_text("{not json")
    with pytest.raises(pa.RecordError, match=f"{garbage}: record is not valid JSON"):
        load(garbage)


def test_a_guests_given_name_keeps_its_number_in_both_forms(coin_race: pa.Game) -> None:
    """A guest still called by the name they were given is stored as that name and its number
    (``guest``), which a reader words in their language; a record without it reads as before."""
    record = random_record(coin_race, 3)
    record.players = [Player("Guest 04a7", "human", guest="04a7"), Player("Bob", "bot")]
    data = record.to_json()
    assert data["players"][0]["guest"] == "04a7" and "guest" not in data["players"][1]
    for again in (Record.from_json(data), Record.from_text(record.to_text())):
        assert again.players == record.players
    assert str(record.players[0].said()) == "Guest 04a7"
    assert str(record.players[1].said()) == "Bob"


def test_a_bots_spec_is_kept_beside_its_name_and_the_name_worded_for_each_reader(
    coin_race: pa.Game,
) -> None:
    """A server's bot is named for people ("Randy (random)", stored in the catalog's English)
    and made from its spec ("random"): a record keeps both (``bot``; ``[TailsBot "random"]`` in
    the text form), the same file in every language, and each reader's program words the name
    in its own language from the spec; a name that is not a level's reads as written."""
    record = random_record(coin_race, 3)
    record.players = [Player("Ann", "human"), Player("Randy (random)", "bot", bot="random")]
    data = record.to_json()
    assert data["players"][1]["bot"] == "random" and "bot" not in data["players"][0]
    text = record.to_text()
    assert '[Tails "Randy (random)"]' in text and '[TailsBot "random"]' in text
    for again in (Record.from_json(data), Record.from_text(text)):
        assert again.players == record.players and again.headers == record.headers
        assert [p.bot_spec for p in again.players] == [None, "random"]
    said = record.players[1].said()
    numbered = Player("Greta (greedy) 2", "bot", bot="greedy").said()
    with use_locale("fr"):
        assert (speak(said), speak(numbered)) == ("Randy (au hasard)", "Greta (gourmande) 2")
    with use_locale("ja"):
        assert speak(said) == "ランディ（ランダム）"
    assert str(said) == "Randy (random)"
    with use_locale("fr"):  # a name of its own, or the terminal's spec as the name: as written
        assert speak(Player("Zed", "bot", bot="random").said()) == "Zed"
        assert speak(Player("mcts:200", "bot", bot="mcts:200").said()) == "mcts:200"
    # written before players kept the spec: the terminal's name was the spec, and a server's
    # JSON had it as a header
    assert Player("greedy", "bot").bot_spec == "greedy"
    old = {**data, "players": [{"name": "Ann"}, {"name": "Randy (random)", "kind": "bot"}]}
    old["headers"] = {**data["headers"], "TailsBot": "random"}
    assert Record.from_json(old).players == record.players
    assert "TailsBot" not in Record.from_json(old).headers
