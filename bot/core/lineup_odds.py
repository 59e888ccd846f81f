"""A lobby's line-up and its odds: which line-up a lobby would be dealt now (its preset or
own line-up at the size it would start with), and the simulated win rate of each faction
for it, stored once per line-up, size and rules (``lineup_odds``).

The simulation itself (bot.ai.odds) is slow, so the Discord layer runs it in a worker
process and hands the result to :func:`store_odds`; the lobby post shows it from there,
after a restart too."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core.effects import mark_effects_due
from bot.core.types import GameSettings, LineupOdds
from bot.db.models import LineupOdds as OddsRow
from bot.db.repos import lineup_odds as odds_repo
from bot.db.session import Database
from engine import lineup as lineups


def table_size(settings: GameSettings, joined: int) -> int:
    """The size a lobby would start with: its own line-up's, else the players who have
    joined (the smallest table until enough have)."""
    fixed = lineups.fixed_size(settings.lineup)
    if fixed is not None:
        return fixed
    return max(engine.MIN_PLAYERS, min(joined, settings.max_players))


def odds_for(settings: GameSettings, players: int) -> LineupOdds:
    """The line-up ``settings`` deal at ``players`` and the key of its odds (not read)."""
    rules = settings.engine_settings(players=players).to_dict()
    lineup = rules.get("lineup")
    key = f"{players}|{lineup or lineups.RANDOM}|{json.dumps({k: v for k, v in sorted(rules.items()) if k != 'lineup'}, separators=(',', ':'))}"
    return LineupOdds(players=players, lineup=lineup, key=key, rules=rules)


async def with_stored(session: AsyncSession, odds: LineupOdds) -> LineupOdds:
    """``odds`` with the stored result, when there is one."""
    row = await session.get(OddsRow, odds.key)
    if row is None:
        return odds
    wins = {str(k): int(v) for k, v in row.wins.items()}
    return LineupOdds(odds.players, odds.lineup, odds.key, odds.rules, row.games, wins, row.median_rounds)


async def store_odds(db: Database, odds: LineupOdds, result: dict[str, Any], game_ids: list[int]) -> None:
    """Keep a simulation's ``result`` (bot.ai.odds.estimate) for ``odds.key`` (the first
    one kept stands: the same key always gives the same figures) and have the lobbies
    ``game_ids`` that wait for it shown again."""
    try:
        async with db.transaction() as s:
            if await s.get(OddsRow, odds.key) is None:
                s.add(
                    OddsRow(
                        key=odds.key,
                        players=odds.players,
                        games=int(result["games"]),
                        wins={str(k): int(v) for k, v in result["wins"].items()},
                        median_rounds=float(result["median_rounds"]),
                        computed_at=db.now(),
                    )
                )
    except IntegrityError:
        pass  # another process stored it meanwhile
    if game_ids:
        await mark_effects_due(db, game_ids)


async def stored_keys(db: Database, keys: list[str]) -> set[str]:
    """Which of ``keys`` have their odds stored."""
    async with db.read() as s:
        return await odds_repo.stored_keys(s, keys)
