"""What a unit of work and a statement cost the bot's process, in a loop, in one process.

    .venv/bin/python bench/unit_costs.py [URL] [--n 2000] [--runs 3]

URL: a database (default: a temporary SQLite file). Each line is ``--n`` repetitions after
a warm-up, ``--runs`` times; printed: CPU time per repetition (the process's, so
aiosqlite's thread too), in µs. The statement is ``SELECT 1``, so what is measured is
the machinery around a statement, not its work:

- ``read unit``: ``Database.read()`` around one statement (``bot.db.core.execute``);
- ``write unit``: ``Database.transaction()`` around one statement (on PostgreSQL its
  BEGIN and COMMIT are two more trips to the server);
- ``statement, SQLAlchemy``: one more statement on a connection already open;
- ``statement, driver``: the same on the driver's own connection under it, past
  SQLAlchemy: asyncpg's ``fetch``, or aiosqlite's ``execute_fetchall`` (one trip to its
  thread that executes and fetches).

``--json``: the figures as one JSON line instead.

On the event loop the bot runs on (``bot.event_loop``: uvloop where installed).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import literal, select

from bot.db import core
from bot.db.session import Database
from bot.event_loop import run

ONE = select(literal(1))


async def measure(url: str, n: int, runs: int) -> dict[str, list[float]]:
    db = Database(url)
    figures: dict[str, list[float]] = {}
    try:
        async with db.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection

            async def read_unit() -> None:
                async with db.read() as s:
                    await core.execute(s, ONE)

            async def write_unit() -> None:
                async with db.transaction() as s:
                    await core.execute(s, ONE)

            async def on_sqlalchemy() -> None:
                await conn.execute(ONE)

            async def on_driver() -> None:
                if db.dialect == "sqlite":
                    await driver.execute_fetchall("SELECT 1")
                else:
                    await driver.fetch("SELECT 1")

            cases: dict[str, Callable[[], Awaitable[Any]]] = {
                "read unit": read_unit,
                "write unit": write_unit,
                "statement, SQLAlchemy": on_sqlalchemy,
                "statement, driver": on_driver,
            }
            for name, case in cases.items():
                for _ in range(50):
                    await case()
                for _ in range(runs):
                    cpu0 = time.process_time()
                    for _ in range(n):
                        await case()
                    figures.setdefault(name, []).append((time.process_time() - cpu0) / n * 1e6)
    finally:
        await db.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", help="a database URL (default: a temporary SQLite file)")
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url or f"sqlite:///{tmp}/units.db"
        figures = run(measure(url, args.n, args.runs), "auto")
    if args.json:
        print(json.dumps({"us_per_repetition": figures, "n": args.n, "runs": args.runs}))
        return
    print(f"{'case':<24} CPU per repetition (µs), {args.runs} runs of {args.n}")
    for name, values in figures.items():
        print(f"{name:<24} " + " / ".join(f"{v:.0f}" for v in values))


if __name__ == "__main__":
    main()
