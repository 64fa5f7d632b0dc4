"""The code stays as STYLE asks: ruff-clean (complexity limit included) and ruff-formatted,
mypy --strict clean on the whole package, no import cycles, rules that import nothing but the
engine core, and no randomness drawn inside the engine."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import pocketarena as pa
from pocketarena.core import KINDS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pocketarena"
PATHS = ["src", "tests", "benchmarks", "scripts"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", *PATHS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_kept() -> None:
    done = run("ruff", "format", "--check", *PATHS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_the_whole_package() -> None:
    done = run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def imported_modules(path: Path) -> set[str]:
    """The dotted names ``path`` imports (``from a import b``: ``a`` and ``a.b``), anywhere in
    it, and the dotted names it reads (``gymnasium.wrappers.X`` after ``import gymnasium``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Attribute):
            parts = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name):
                found.add(".".join([value.id, *reversed(parts)]))
    return found


# What pyproject.toml has mypy skip (follow_imports = "skip": Any to mypy), and why that hides
# nothing of ours. PyTorch: only gymnasium's wrappers reach it; mypy went through its 1,400
# modules, a third of the lint's CPU time. gymnasium.wrappers: gymnasium's __init__ imports it,
# and one module of it (transform_observation, numpy's overloads in lambdas) took a seventh of
# a cold run (mypy --strict from a fresh cache, 35.0 -> 30.2 CPU s with it skipped).
SKIPPED = ("torch", "gymnasium.wrappers")


def reaches(path: Path, module: str) -> bool:
    return any(name == module or name.startswith(f"{module}.") for name in imported_modules(path))


def test_mypy_skips_only_modules_the_package_never_uses(tmp_path: Path) -> None:
    """mypy may skip what no module of the package imports or names, under TYPE_CHECKING or
    not: then it hides nothing of ours."""
    users = {
        str(p.relative_to(ROOT)): [m for m in SKIPPED if reaches(p, m)]
        for p in PACKAGE.rglob("*.py")
    }
    assert {k: v for k, v in users.items() if v} == {}
    config = (ROOT / "pyproject.toml").read_text()
    assert 'module = ["torch", "torch.*"]\nfollow_imports = "skip"' in config
    assert (
        'module = ["gymnasium.wrappers", "gymnasium.wrappers.*"]\nfollow_imports = "skip"' in config
    )
    sneaky = tmp_path / "sneaky.py"  # the check sees a use however it is written
    for text, module in [
        ("if TYPE_CHECKING:\n    from torch.nn import Module\n", "torch"),
        ("def f():\n    import torch.cuda as c\n", "torch"),
        ("from gymnasium import wrappers\n", "gymnasium.wrappers"),
        ("import gymnasium\nW = gymnasium.wrappers.FlattenObservation\n", "gymnasium.wrappers"),
    ]:
        sneaky.write_text(text)
        assert [m for m in SKIPPED if reaches(sneaky, m)] == [module], text
    sneaky.write_text("import gymnasium\nfrom gymnasium import spaces\nE = gymnasium.Env\n")
    assert not any(reaches(sneaky, m) for m in SKIPPED)


# -- the import graph ---------------------------------------------------------------------------
# Imports inside functions count (a cycle hidden in a function is still a cycle); imports under
# ``if TYPE_CHECKING`` do not: they are annotations, never run (a Game makes States and a State
# belongs to a Game, so their types name each other).
@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("pocketarena", exclude_type_checking_imports=True, cache_dir=None)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_others(graph: grimp.ImportGraph) -> None:
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert cycles(edges) == []


@pytest.fixture(scope="module")
def typed_graph() -> grimp.ImportGraph:
    """The import graph with the imports under ``if TYPE_CHECKING`` too."""
    return grimp.build_graph("pocketarena", exclude_type_checking_imports=False, cache_dir=None)


def typed_cycles(graph: grimp.ImportGraph, prefix: str) -> list[list[str]]:
    inside = {m for m in graph.modules if m.startswith(prefix)}
    return cycles({m: set(graph.find_modules_directly_imported_by(m)) & inside for m in inside})


def test_the_server_names_no_type_through_a_circle_either(typed_graph: grimp.ImportGraph) -> None:
    """Within the server, imports under ``if TYPE_CHECKING`` count too (issue 22 item 7,
    issue 26 item 3): the hub, the lobby and the views once named one another's types in a
    circle. The live layer's modules type against ``live.games`` and ``live.transport``."""
    assert typed_cycles(typed_graph, "pocketarena.server") == []
    # the hub sends to watchers through live.transport; the WebSocket is the routes' business
    hub = set(typed_graph.find_modules_directly_imported_by("pocketarena.server.live.hub"))
    assert "pocketarena.server.live.connection" not in hub


def runner_parts_read(tree: ast.AST) -> set[str]:
    """The runner's ``games`` and ``bus`` read in ``tree`` (``hub.games``, ``self.hub.bus``,
    ``ctx.hub.bus``, ``runner.games`` …)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("games", "bus"):
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if name in ("hub", "runner"):
                found.add(f"{name}.{node.attr}")
    return found


def test_outside_the_live_layer_nobody_reaches_into_the_runner(graph: grimp.ImportGraph) -> None:
    """The modules outside ``server.live`` ask the game runner through its public methods
    (``live.games.Runner``): none reads its table of games or its bus (issue 26 item 3; table
    chat did), and chat types against the runner's protocol, not the hub. The health probe
    alone reads the bus: it reports on the bus itself (its answer, its name, its counts)."""
    server = PACKAGE / "server"
    reached = {}
    for path in sorted(server.rglob("*.py")):
        if path.is_relative_to(server / "live"):
            continue
        found = runner_parts_read(ast.parse(path.read_text(), str(path)))
        if found:
            reached[str(path.relative_to(server))] = sorted(found)
    assert reached == {"health.py": ["hub.bus"]}
    assert "pocketarena.server.live.hub" not in graph.find_modules_directly_imported_by(
        "pocketarena.server.chat"
    )
    assert runner_parts_read(ast.parse("live = hub.games.get(g)\nawait self.hub.bus.ping()")) == {
        "hub.games",
        "hub.bus",
    }


def test_in_the_core_only_game_and_state_name_each_others_types(
    typed_graph: grimp.ImportGraph,
) -> None:
    """Counting imports under ``if TYPE_CHECKING``, the core's one circle is a Game making
    States and a State belonging to its Game (issue 26 item 3): chance reads a state through
    its own ``ChanceNode`` protocol, so it names no State."""
    assert typed_cycles(typed_graph, "pocketarena.core") == [
        ["pocketarena.core.game", "pocketarena.core.state"]
    ]


def test_no_two_parts_of_the_package_import_each_other(graph: grimp.ImportGraph) -> None:
    """``bots`` may use ``core``, ``interop`` may use ``bots``, never both ways round."""

    def part(module: str) -> str:
        return ".".join(module.split(".")[:2])

    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if part(module) != part(imported) and imported != "pocketarena":
                edges.setdefault(part(module), set()).add(part(imported))
    assert cycles(edges) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_rules_import_only_the_engine_core(graph: grimp.ImportGraph, game_id: str) -> None:
    """A game's package, rules and data use the core and nothing else of ours: not drawing,
    observation or bots (their own folder's included), not the server."""
    folder = pa.GAMES[game_id].__module__.rpartition(".")[0]
    used = graph.find_upstream_modules(folder)
    parts = {f"{folder}.{kind}" for kind in KINDS}
    allowed = [m for m in used if m.startswith("pocketarena.core") or m.startswith(folder + ".")]
    assert sorted(used - set(allowed)) == []
    assert sorted(used & parts) == []


# -- no randomness inside the engine --------------------------------------------------------------
def engine_files() -> list[Path]:
    """The core and every game's rules and data (the optional parts of a folder excluded);
    ``core/chance.py`` is where callers get fresh seeds, so it is checked on its own below."""
    files = [p for p in (PACKAGE / "core").glob("*.py") if p.name != "chance.py"]
    for folder in (PACKAGE / "games").iterdir():
        if folder.is_dir():
            files += [p for p in folder.glob("*.py") if p.stem not in KINDS]
    return files


def unseeded_randomness(path: Path) -> list[str]:
    """Where ``path`` draws randomness not derived from a seed it is given: an entropy source
    imported, ``fresh_seed`` called, or ``random`` used other than as ``random.Random(seed)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            for name in names:
                if name.split(".")[0] in ("secrets", "uuid") or name == "urandom":
                    found.append(f"line {node.lineno}: imports {name}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random" and node.attr != "Random":
                found.append(f"line {node.lineno}: random.{node.attr}")
            if node.value.id == "os" and node.attr == "urandom":
                found.append(f"line {node.lineno}: os.urandom")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "fresh_seed":
                found.append(f"line {node.lineno}: fresh_seed()")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            func = node.func
            if func.attr == "fresh_seed":
                found.append(f"line {node.lineno}: fresh_seed()")
            named = isinstance(func.value, ast.Name) and func.value.id == "random"
            if named and func.attr == "Random" and not node.args:
                found.append(f"line {node.lineno}: random.Random() without a seed")
    return sorted(found, key=lambda text: int(text.split()[1].rstrip(":")))


def test_the_engine_draws_no_randomness() -> None:
    files = engine_files()
    assert len(files) > 10
    problems = {str(p.relative_to(ROOT)): unseeded_randomness(p) for p in files}
    assert {k: v for k, v in problems.items() if v} == {}


def test_the_randomness_check_sees_hidden_draws(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "import random\nimport secrets\nrandom.random()\nrandom.Random()\nrandom.Random(seed)\n"
        "core.fresh_seed()\n"
    )
    found = [p.split(":")[0] for p in unseeded_randomness(sneaky)]
    assert found == ["line 2", "line 3", "line 4", "line 6"]
