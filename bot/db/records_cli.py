"""``wolfhowl db backfill`` and ``wolfhowl db ratings [--rebuild]``: the records' upkeep
from the command line (the work itself is in the service)."""

from __future__ import annotations

import asyncio


def run_records(url: str, action: str, *, rebuild: bool = False) -> int:
    return asyncio.run(_run(url, action, rebuild))


async def _run(url: str, action: str, rebuild: bool) -> int:
    from bot.db.session import Database
    from bot.service.backfill import backfill
    from bot.service.ratings import rebuild as rebuild_all
    from bot.service.ratings import stored_matches_replay

    async with Database(url) as db:
        if action == "backfill":
            written = await backfill(db)
            print(f"records written for {written} finished game(s)" if written else "every finished game has its records")
            return 0
        if rebuild:
            count = await rebuild_all(db)
            print(f"ratings rebuilt from the records: {count} standing(s)")
            return 0
        differ = await stored_matches_replay(db)
        if differ:
            print(f"{len(differ)} standing(s) differ from a replay of the records (`wolfhowl db ratings --rebuild` rewrites them)")
            return 1
        print("every rating matches a replay of the records")
        return 0
