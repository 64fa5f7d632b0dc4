"""scripts/balance_report.py on Wallet Battles with a tiny budget (random players, two games a
reading): the readings section with both tables and its figures, and every other game's
section kept as it was. The real study runs for hours; this only checks the script works."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "balance_report.py"


def test_the_report_measures_every_reading_and_keeps_the_other_games(tmp_path: Path) -> None:
    page = tmp_path / "balance.md"
    shutil.copy(ROOT / "docs" / "balance.md", page)
    before = page.read_text(encoding="utf-8")
    runs = tmp_path / "runs"
    command = [sys.executable, str(SCRIPT), "--games", "wallet-battles", "--bot", "random"]
    command += ["--scale", "0.01", "--jobs", "1", "--page", str(page), "--runs", str(runs)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    text = page.read_text(encoding="utf-8")
    wallet = text.split("## Wallet Battles\n", 1)[1].split("\n## ", 1)[0]
    assert "--bot random --games 2 --seed 0" in wallet
    assert "--bot random --against greedy --games 2" in wallet
    pooled = wallet.split("### Each reading over both maps and both pairings", 1)[1]
    pooled_rows = pooled.split("\n\n", 2)[1].splitlines()[2:]
    assert [row.split(" | ")[0] for row in pooled_rows] == [
        "| occupied · 6 each",
        "| occupied · 3 each",
        "| used · 6 each",
        "| used · 3 each",
    ]
    assert all(row.split(" | ")[1] == "8" for row in pooled_rows)  # 2 maps x 2 runs x 2 games
    for heading in ("### Self-play of `random`", "### `random` against `greedy`, seats swapping"):
        table = wallet.split(heading, 1)[1].split("\n\n", 2)[1].splitlines()
        assert table[0].startswith("| map · end · coins | flips (median, 95% CI) |")
        rows = table[2:]
        assert len(rows) == 8  # 2 maps x 2 ends x 2 coin readings
        assert rows[0].startswith("| gettysburg · occupied · 6 each |")
        assert rows[-1].startswith("| antietam · used · 3 each |")
    for figure in ("readings", "flips", "ending"):
        png = tmp_path / "img" / "balance" / f"wallet-battles-{figure}.png"
        assert png.read_bytes()[:4] == b"\x89PNG"
    # The other games' sections and glance rows are kept word for word.
    for title in ("Stack-a-Cash", "Coin Age", "FlipWars"):
        old = before.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
        assert old in text
        for row in [r for r in before.splitlines() if r.startswith(f"| {title} |")]:
            assert row in text
    assert text.count("<!-- reading:start -->") == 1
    saved = json.loads((runs / "wallet-battles" / "balance.json").read_text())
    assert len(saved["variants"]) == 8 and len(saved["variants"][0]["per_game"]) == 2
    assert {"flips", "ending", "plies"} <= set(saved["variants"][0]["per_game"][0])
