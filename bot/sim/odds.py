"""A line-up's odds: the share of games each faction wins when the baseline AI plays it,
small enough to send between processes and to store (bot.service.lineup_odds).

:func:`estimate` is a plain function of its arguments (the games are seeded from
``seed``), so the bot runs it in a worker process and gets the same figures each time."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from bot.sim.knowledge import FACTIONS
from bot.sim.report import TARGET_WIN, wilson
from bot.sim.runner import play_many
from engine import Settings

ODDS_SEED = "odds"


def estimate(players: int, rules: dict[str, Any], games: int, seed: str = ODDS_SEED) -> dict[str, Any]:
    """Play ``games`` games of ``players`` under ``rules`` (``engine.Settings.to_dict``,
    with its line-up, if any): games played, wins per faction, the median length."""
    results = play_many(games, players, seed, settings=Settings.from_dict(rules))
    wins = Counter(w for r in results for w in r.winners)
    return {
        "games": len(results),
        "wins": {f: wins[f] for f in FACTIONS},
        "median_rounds": float(statistics.median(r.rounds for r in results)),
    }


def rate_and_interval(wins: int, games: int) -> tuple[float, float, float]:
    """The win rate and its 95% Wilson interval."""
    lo, hi = wilson(wins, games)
    return wins / games, lo, hi


def off_target(rate: float) -> bool:
    """Whether a faction's win rate falls outside the balance target (docs/balance.md)."""
    lo, hi = TARGET_WIN
    return not lo <= rate <= hi
