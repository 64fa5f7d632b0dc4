"""Ship a ``train_alphazero.py`` checkpoint as the ``alphazero`` bot's network
(``src/pocketarena/bots/nets/stack_a_cash_az.npz``), optionally stored as float16 (half the
file; the bot computes in float32 either way). Grade the file it writes with
``scripts/grade_alphazero.py FILE`` to check the rounding costs nothing.

    .venv/bin/python scripts/ship_alphazero.py runs/az/00070.npz --float16
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from pocketarena.bots.alphazero import SHIPPED, Network, save_params

NETS = Path(__file__).resolve().parents[1] / "src" / "pocketarena" / "bots" / "nets"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoint", type=Path, help="a train_alphazero.py checkpoint (NNNNN.npz)")
    p.add_argument("--float16", action="store_true", help="store the weights as float16")
    p.add_argument("--out", type=Path, default=NETS / SHIPPED)
    args = p.parse_args(argv)
    net = Network.load(args.checkpoint)
    dtype = np.float16 if args.float16 else np.float32
    meta = {**net.meta, "stored": np.dtype(dtype).name}
    save_params(args.out, net.params, meta, dtype)
    print(f"{args.out}: {args.out.stat().st_size:,} bytes ({meta['stored']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
