"""The alphazero bot: the shipped network loads, plays only legal moves and beats random play;
its search (``alphazero:N``) backs values up with the right signs and replays; and the scripts
that train and grade it still run (a tiny run of each, end to end)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import runpy
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.bots.alphazero import AlphaZeroBot, Network, shipped_network
from pocketarena.bots.levels import ALPHAZERO_SIMULATIONS_PER_SECOND
from pocketarena.match import SeededChance, play_match

from .scenarios import ONE_PLY, find, has_threat_to_block, immediate, threats

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_network_is_small_and_fits_the_game() -> None:
    game = pa.load("stack-a-cash", protect="touched")
    net = shipped_network()
    size = (ROOT / "src/pocketarena/bots/nets/stack_a_cash_az.npz").stat().st_size
    assert size < 2_000_000
    assert net.params["policy"]["kernel"].shape[1] == game.num_decisions
    logits, values = net.policy_value(np.zeros((3, 16, 3, 3), np.float32))
    assert logits.shape == (3, game.num_decisions) and values.shape == (3,)
    assert np.all(np.abs(values) <= 1)


def test_alphazero_beats_random_from_both_seats() -> None:
    game = pa.load("stack-a-cash", protect="touched")
    wins = 0
    for seed in range(6):
        seat = seed % 2
        bots = [make_bot("random", game, seed=seed), make_bot("random", game, seed=seed)]
        bots[seat] = make_bot("alphazero", game, seed=seed)
        record = play_match(game, bots, SeededChance(seed))  # raises on an illegal move
        wins += record.result == ("1-0" if seat == 0 else "0-1")
    assert wins >= 5


def test_alphazero_refuses_what_it_was_not_trained_for() -> None:
    with pytest.raises(ValueError, match="only Stack-a-Cash with protect=touched"):
        make_bot("alphazero", pa.load("stack-a-cash", protect="placed"))
    with pytest.raises(ValueError, match="only Stack-a-Cash"):
        make_bot("alphazero", pa.load("flipwars"))
    with pytest.raises(ValueError, match=r"after 'alphazero:' give a positive whole number \("):
        make_bot("alphazero:x", pa.load("stack-a-cash", protect="touched"))


def test_alphazero_specs_set_its_search_budget() -> None:
    game = pa.load("stack-a-cash", protect="touched")
    assert make_bot("alphazero", game).budget == {}
    assert make_bot("alphazero:16", game).budget == {"simulations": 16}
    assert make_bot("alphazero:0.5s", game).budget == {"seconds": 0.5}
    # Reproducible (analysis): a thinking time becomes simulations, what a core does in it.
    counted = make_bot("alphazero:0.5s", game, reproducible=True).budget
    assert counted == {"simulations": round(0.5 * ALPHAZERO_SIMULATIONS_PER_SECOND)}
    with pytest.raises(ValueError, match="positive whole number"):
        make_bot("alphazero:0", game)
    with pytest.raises(ValueError, match="simulations must be a positive number"):
        AlphaZeroBot(game, simulations="many")
    with pytest.raises(ValueError, match="exploration must be more than 0"):
        AlphaZeroBot(game, exploration=0.0, simulations=8)
    with pytest.raises(ValueError, match="has no budget 'iterations'"):
        AlphaZeroBot(game, iterations=3)


def blank_network(favourite: int | None = None) -> Network:
    """The shipped network with every weight zero: a value of 0 everywhere and the same prior
    for every move, except ``favourite`` (an action id), which the policy prefers a little (a
    logit of 1 more), so the search alone finds what is found."""
    net = shipped_network()
    zeros = {layer: {k: np.zeros_like(v) for k, v in p.items()} for layer, p in net.params.items()}
    if favourite is not None:
        zeros["policy"]["bias"][favourite] = 1.0
    return Network(zeros, dict(net.meta))


@pytest.mark.parametrize("scenario", sorted(ONE_PLY))
def test_search_finds_what_the_policy_misses(scenario: str) -> None:
    """The policy favours a wrong move (one that does not win, or one that loses at once) and
    plays it; the search finds the finished games one ply ahead and values them for the
    mover."""
    wanted, right = ONE_PLY[scenario]
    game = pa.load("stack-a-cash", protect="touched")
    for seed in (1, 2, 3):
        state = find(game, wanted, seed=seed)
        results = immediate(state)
        wrong = next(a for a in state.legal_actions() if not right(results[a.text]))
        net = blank_network(favourite=wrong.id)
        assert AlphaZeroBot(game, network=net).choose(state) == wrong
        budget = 2 * len(state.legal_actions())
        action = AlphaZeroBot(game, network=net, simulations=budget).choose(state)
        assert right(results[action.text]), (state.history, action)


def test_search_blocks_a_win_in_one() -> None:
    """Two plies deep: the opponent's win is bad for the mover (the sign turns with the turn)."""
    game = pa.load("stack-a-cash", protect="touched")
    for seed in (1, 2):
        state = find(game, has_threat_to_block, seed=seed, max_legal=40)
        bot = AlphaZeroBot(game, network=blank_network(), simulations=1500)
        action = bot.choose(state)
        assert not threats(state)[action.text], (state.history, action)


def test_search_replays_and_leaves_the_state_alone() -> None:
    game = pa.load("stack-a-cash", protect="touched")
    state = game.new_initial_state()
    for move in ("place L b2", "place M a1", "place S b2", "flip a1"):
        state.apply(move)
    before = json.dumps(state.to_json(), sort_keys=True)
    first, second = (AlphaZeroBot(game, simulations=48, seed=s) for s in (1, 2))
    assert first.choose(state) == second.choose(state) == first.choose(state)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_float16_weights_load_as_float32(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from ship_alphazero import main as ship

    net = shipped_network()  # stored as float16 (the file says so) or float32
    source = ROOT / "src/pocketarena/bots/nets/stack_a_cash_az.npz"
    full, half_path = tmp_path / "full.npz", tmp_path / "half.npz"
    assert ship([str(source), "--out", str(full)]) == 0
    assert ship([str(full), "--float16", "--out", str(half_path)]) == 0
    # Stored as asked (compressed, float32 weights that were float16 shrink too: sizes differ
    # less than the dtypes do).
    for path, dtype in ((full, np.float32), (half_path, np.float16)):
        with np.load(path) as data:
            assert {data[k].dtype for k in data.files if k != "meta"} == {np.dtype(dtype)}
    assert half_path.stat().st_size < full.stat().st_size
    single, half = Network.load(full), Network.load(half_path)
    assert single.meta == {**net.meta, "stored": "float32"}
    assert half.meta == {**net.meta, "stored": "float16"}
    assert all(a.dtype == np.float32 for p in half.params.values() for a in p.values())
    x = np.random.default_rng(2).integers(0, 2, (6, 16, 3, 3)).astype(np.float32)
    (logits, values), (half_logits, half_values) = single.policy_value(x), half.policy_value(x)
    np.testing.assert_array_equal(logits, net.policy_value(x)[0])  # float32 loses nothing
    np.testing.assert_allclose(half_logits, logits, atol=0.05)
    np.testing.assert_allclose(half_values, values, atol=0.01)


def test_match_script_plays_two_networks_seats_swapped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from match_alphazero import main as match

    from pocketarena.bots.alphazero import save_params

    shipped = str(ROOT / "src/pocketarena/bots/nets/stack_a_cash_az.npz")
    blank = blank_network()
    save_params(tmp_path / "blank.npz", blank.params, blank.meta)

    def score(*args: str) -> dict[str, Any]:
        assert match(list(args)) == 0
        report: dict[str, Any] = json.loads(capsys.readouterr().out)
        assert report["wins"] + report["draws"] + report["losses"] == report["games"]
        assert report["score"] == report["wins"] + report["draws"] / 2
        return report

    # The same network from both seats of each opening: the two games mirror, half the points.
    same = score(shipped, shipped, "--openings", "3")
    assert same["games"] == 6 and same["score"] == 3 and same["wins"] == same["losses"]
    # The trained policy against one that plays the first legal move: all but a few won.
    trained = score(shipped, str(tmp_path / "blank.npz"), "--openings", "3")
    assert trained["score"] >= 5, trained
    searched = score(shipped, shipped, "--openings", "1", "--simulations", "4")
    assert searched["games"] == 2 and searched["score"] == 1 and searched["moves"] > 0


needs_training_libs = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("jax", "flax", "optax", "mctx")),
    reason="training needs the jax extra (jax, flax, optax, mctx)",
)


@needs_training_libs
def test_numpy_network_matches_the_flax_one() -> None:
    import jax
    import jax.numpy as jnp

    sys.path.insert(0, str(ROOT / "scripts"))
    from train_alphazero import MLP

    net = shipped_network()
    x = np.random.default_rng(0).integers(0, 2, (5, 16, 3, 3)).astype(np.float32)
    model = MLP(
        num_actions=net.params["policy"]["kernel"].shape[1],
        hidden=net.meta["hidden"],
        layers=net.meta.get("layers", 2),
    )
    params = {"params": jax.tree.map(jnp.asarray, net.params)}
    logits, values = model.apply(params, jnp.asarray(x))
    np_logits, np_values = net.policy_value(x)
    np.testing.assert_allclose(np_logits, np.asarray(logits), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np_values, np.asarray(values), rtol=1e-4, atol=1e-4)


@needs_training_libs
@pytest.mark.parametrize("layers", [1, 3])
def test_a_network_of_any_depth_saves_and_loads(tmp_path: Path, layers: int) -> None:
    """The numpy network reads as many hidden layers as the file holds (the training script's
    --layers), and computes what the flax one does."""
    import jax
    import jax.numpy as jnp

    sys.path.insert(0, str(ROOT / "scripts"))
    from train_alphazero import MLP

    from pocketarena.bots.alphazero import save_params

    model = MLP(num_actions=180, hidden=8, layers=layers)
    x = np.random.default_rng(1).integers(0, 2, (4, 16, 3, 3)).astype(np.float32)
    params = model.init(jax.random.PRNGKey(layers), jnp.asarray(x))
    save_params(tmp_path / "net.npz", params["params"], {"hidden": 8, "layers": layers})
    net = Network.load(tmp_path / "net.npz")
    assert sorted(net.params) == sorted(params["params"])
    assert len([name for name in net.params if name.startswith("hidden_")]) == layers
    logits, values = model.apply(params, jnp.asarray(x))
    np_logits, np_values = net.policy_value(x)
    np.testing.assert_allclose(np_logits, np.asarray(logits), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np_values, np.asarray(values), rtol=1e-4, atol=1e-4)


@needs_training_libs
def test_board_symmetries_turn_positions_and_policies_together() -> None:
    """Training under --symmetries: a position's observation and its policy turned by each of
    the 8 symmetries are the observation and legal moves of the position reached by the turned
    moves."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from train_alphazero import board_symmetries

    from pocketarena.observe import observation_tensor

    game = pa.load("stack-a-cash", protect="touched")
    cells, actions = board_symmetries("stack-a-cash")
    assert cells.shape == (8, 9) and actions.shape == (8, game.num_decisions)
    assert len({tuple(row) for row in actions}) == 8  # eight different maps
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 6:
        played = [game.new_initial_state() for _ in range(8)]
        for _ in range(int(rng.integers(1, 14))):
            if played[0].is_terminal():
                break
            legal = played[0].legal_actions()
            move = legal[int(rng.integers(len(legal)))]
            for g, state in enumerate(played):
                # actions[g] gathers: the move the turned game plays is where move.id lands
                state.apply(game.actions[int(np.flatnonzero(actions[g] == move.id)[0])])
        base = played[0]
        if base.is_terminal():
            continue
        checked += 1
        obs = observation_tensor(base, base.current_player).reshape(16, 9)
        mask = np.zeros(game.num_decisions)
        mask[[a.id for a in base.legal_actions()]] = 1.0
        for g, state in enumerate(played):
            turned = observation_tensor(state, state.current_player).reshape(16, 9)
            np.testing.assert_array_equal(obs[:, cells[g]], turned)
            want = np.zeros(game.num_decisions)
            want[[a.id for a in state.legal_actions()]] = 1.0
            np.testing.assert_array_equal(mask[actions[g]], want)
    with pytest.raises(ValueError, match="Stack-a-Cash only"):
        board_symmetries("flipwars")


@needs_training_libs
def test_a_widened_network_computes_what_the_narrow_one_did() -> None:
    """--init with a larger --hidden and --layers starts from the same function (the new units
    feed nothing yet), and the new units do have weights into them to learn from."""
    import jax

    sys.path.insert(0, str(ROOT / "scripts"))
    from train_alphazero import MLP, widen

    x = np.random.default_rng(4).integers(0, 2, (7, 16, 3, 3)).astype(np.float32)
    # The shipped recipe's first shape (the shipped network itself is wider now).
    small = MLP(num_actions=180, hidden=256, layers=2).init(jax.random.PRNGKey(1), x)["params"]
    narrow = Network(jax.tree.map(np.asarray, small), {"hidden": 256, "layers": 2})
    model = MLP(num_actions=180, hidden=320, layers=3)
    fresh = jax.tree.map(np.asarray, model.init(jax.random.PRNGKey(0), x)["params"])
    wide = Network(widen(narrow.params, fresh), {"hidden": 320, "layers": 3})
    assert wide.params["hidden_2"]["kernel"].shape == (320, 320)
    (logits, values), (wide_logits, wide_values) = narrow.policy_value(x), wide.policy_value(x)
    np.testing.assert_allclose(wide_logits, logits, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(wide_values, values, rtol=1e-5, atol=1e-5)
    assert np.abs(wide.params["hidden_1"]["kernel"][:, 256:]).sum() > 0
    assert np.abs(wide.params["policy"]["kernel"][256:]).sum() == 0


# -- the training and grading scripts, run as their commands are documented (docs/research.md),
# tiny: one iteration of a few games with two simulations, graded on a handful of positions.
TINY = ["--iterations", "1", "--batch", "8", "--simulations", "2", "--max-steps", "4"]
TINY += ["--train-batch", "16", "--hidden", "16", "--random-opening", "2", "--seed", "3"]


def script(name: str, *args: str) -> list[dict[str, Any]]:
    """Run ``scripts/<name> args`` as its command line does (the file run as ``__main__`` with
    that ``sys.argv``, its exit status checked), in this process; its JSON output lines. In a
    process of their own the five runs spent 51 CPU s, 15 of them importing JAX, flax and mctx
    again and compiling again the small functions a network's start compiles; here they are
    done once. XLA's backend optimisations are off (tests/conftest.py: the compile is most of a
    tiny run's time)."""
    out = io.StringIO()
    argv = sys.argv
    sys.argv = [str(ROOT / "scripts" / name), *args]
    try:
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
            runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        sys.argv = argv
    assert done.value.code == 0, out.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines() if line.startswith("{")]


def share(x: object) -> bool:
    return isinstance(x, float) and 0.0 <= x <= 1.0


def check_checkpoints(run: Path, game_id: str, options: dict[str, Any]) -> list[Path]:
    """The run's checkpoints (before and after its iteration) and log, as the grader reads them."""
    checkpoints = sorted(run.glob("[0-9]*.npz"))
    assert [p.name for p in checkpoints] == ["00000.npz", "00001.npz"]
    (entry,) = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert entry["iteration"] == 1 and entry["frames"] == 8 * 4
    assert {"games", "policy_loss", "value_loss", "seconds"} <= set(entry)
    assert np.isfinite(entry["policy_loss"]) and np.isfinite(entry["value_loss"])
    net = Network.load(checkpoints[-1])
    assert net.meta["game"] == game_id and net.meta["options"] == options
    assert net.meta["iteration"] == 1 and net.meta["hidden"] == 16
    game = pa.load(game_id, **options)
    bot = AlphaZeroBot(game, network=net)  # the bot plays a fresh checkpoint
    state = game.new_initial_state()
    assert bot.choose(state) in state.legal_actions()
    return checkpoints


@pytest.mark.slow
@needs_training_libs
def test_train_and_grade_stack_a_cash_smoke(tmp_path: Path) -> None:
    run = tmp_path / "az"
    logged = script("train_alphazero.py", *TINY, "--out", str(run))
    assert [e["iteration"] for e in logged] == [1]
    check_checkpoints(run, "stack-a-cash", {"protect": "touched"})
    grading = ["--positions", "12", "--games", "4", "--simulations", "2"]
    points = script("grade_alphazero.py", str(run), *grading)
    report = json.loads((run / "grades.json").read_text())
    assert report["positions"] == 12 and report["simulations"] == 2
    assert 0 <= report["won_positions"] <= 12
    assert [b["name"] for b in report["baselines"]] == [
        "random legal move (expected)",
        "greedy bot",
    ]
    assert [c["iteration"] for c in report["curve"]] == [0, 1] == [p["iteration"] for p in points]
    for row in [
        *report["baselines"],
        *(c[k] for c in report["curve"] for k in ("policy", "search")),
    ]:
        assert share(row["keeps"]) and share(row["converts"]), row
    assert report["curve"][1]["frames"] == 32
    # One checkpoint alone, with the bot's own search graded and played.
    extra = ["--bot-simulations", "3", "--vs-random", "2", "--vs-greedy", "2"]
    script("grade_alphazero.py", str(run / "00001.npz"), *grading, *extra)
    alone = json.loads((run / "00001-grades.json").read_text())
    assert [c["iteration"] for c in alone["curve"]] == [1]
    assert alone["bots"]["checkpoint"] == "00001.npz"
    policy, searched = alone["bots"]["rows"]
    assert searched["name"] == "alphazero:3 bot" and searched["budget"] == {"simulations": 3}
    assert share(searched["keeps"]) and share(searched["converts"]), searched
    for row in (policy, searched):
        assert share(row["vs_random"]) and share(row["vs_greedy"]), row


@pytest.mark.slow
@needs_training_libs
def test_train_and_grade_flipwars_smoke(tmp_path: Path) -> None:
    run = tmp_path / "az-flipwars"
    script("train_alphazero.py", "--game", "flipwars", *TINY, "--out", str(run))
    check_checkpoints(run, "flipwars", {"mode": "enclosed"})
    args = ["--positions", "4", "--empty", "3", "--games", "2"]
    script("grade_alphazero_flipwars.py", str(run), *args)
    report = json.loads((run / "grades.json").read_text())
    assert report["positions"] == 4
    assert [c["iteration"] for c in report["curve"]] == [0, 1]
    rows = [report["baseline"], *(c["endgames"] for c in report["curve"])]
    for row in rows:
        assert share(row["keeps_result"]) and share(row["keeps_margin"]), row
    for point in report["curve"]:
        assert share(point["vs_random"]) and share(point["vs_hard"]), point


def test_match_script_draws_every_opening_with_the_plies_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every opening is drawn with ``--opening-plies``: the count of a game's moves was kept in
    the same name, so from the second opening on the openings took up to that many plies."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import match_alphazero

    asked: list[int] = []
    draw = match_alphazero.opening

    def recorded(game: pa.Game, plies: int, seed: int) -> Any:
        asked.append(plies)
        return draw(game, plies, seed)

    monkeypatch.setattr(match_alphazero, "opening", recorded)
    net = shipped_network()
    match_alphazero.match(net, net, openings=3, plies=2, simulations=0, seed=0)
    assert asked == [2, 2, 2]
