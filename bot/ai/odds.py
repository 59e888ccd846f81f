"""A line-up's odds: the share of games each faction wins when the baseline AI plays it,
small enough to send between processes and to store (bot.core.lineup_odds).

:func:`estimate` is a plain function of its arguments (the games are seeded from
``seed``), so the bot runs it in a worker process and gets the same figures each time."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import Any

from bot.ai.knowledge import FACTIONS
from bot.ai.runner import play_many
from engine import Settings

ODDS_SEED = "odds"
Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
# The balance target (docs/balance.md): every faction's win rate.
TARGET_WIN = (0.28, 0.39)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes``/``n`` (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} not within 0..{n}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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
