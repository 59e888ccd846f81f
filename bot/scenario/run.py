"""Running a scenario: once with one seed, or N times with N derived seeds and counting
what came of it.

Runs are as deterministic as the engine: the i-th of ``--repeat N`` runs uses the seed
``f"{base}#{i}"``, so the same file and base seed always give the same statistics.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.scenario.build import Scenario
from engine import Event, GameState, Outcome, Roll, advance


def run_once(scenario: Scenario, seed: str) -> Outcome:
    """Resolve the scenario's phase once. The scenario's own state is left untouched."""
    return advance(scenario.state, scenario.submissions, seed)


def repeat_seed(base: str, i: int) -> str:
    """The seed of the i-th run of a repeat (0-based)."""
    return f"{base}#{i}"


@dataclass(slots=True)
class Tally:
    """Successes out of attempts."""

    attempts: int = 0
    successes: int = 0

    def add(self, ok: bool) -> None:
        self.attempts += 1
        self.successes += int(ok)

    @property
    def rate(self) -> float:
        return self.successes / self.attempts if self.attempts else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"attempts": self.attempts, "successes": self.successes, "rate": round(self.rate, 4)}


@dataclass(slots=True)
class Stats:
    """What N runs of one scenario came to. Seat keys are ints; 'outcome' keys are
    strings such as ``"seat 2"`` or ``"lost"``."""

    runs: int = 0
    base_seed: str = ""
    deaths: Counter[int] = field(default_factory=Counter)
    wounded: Counter[int] = field(default_factory=Counter)
    grail: Counter[str] = field(default_factory=Counter)
    attacks: dict[tuple[int, int, str], Tally] = field(default_factory=dict)
    steals: dict[tuple[int, int], Tally] = field(default_factory=dict)
    checks: dict[tuple[int | None, str], Tally] = field(default_factory=dict)
    hp: dict[int, Counter[str]] = field(default_factory=dict)
    states: dict[int, Counter[str]] = field(default_factory=dict)
    vote_hurt: Counter[int] = field(default_factory=Counter)
    points: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)

    def rate(self, count: int) -> float:
        return count / self.runs if self.runs else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe, with rates rounded to 4 places."""

        def counts(c: Counter[Any]) -> dict[str, Any]:
            return {str(k): {"count": n, "rate": round(self.rate(n), 4)} for k, n in sorted(c.items(), key=lambda kv: str(kv[0]))}

        return {
            "runs": self.runs,
            "base_seed": self.base_seed,
            "deaths": counts(self.deaths),
            "wounded_at_end": counts(self.wounded),
            "grail": counts(self.grail),
            "attacks": [
                {"attacker": a, "target": t, "why": w, **tally.to_dict()}
                for (a, t, w), tally in sorted(self.attacks.items())
            ],
            "steals": [{"thief": a, "victim": v, **tally.to_dict()} for (a, v), tally in sorted(self.steals.items())],
            "checks": [
                {"who": who, "why": why, **tally.to_dict()}
                for (who, why), tally in sorted(self.checks.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1]))
            ],
            "hp": {str(s): counts(c) for s, c in sorted(self.hp.items())},
            "states_at_end": {str(s): counts(c) for s, c in sorted(self.states.items()) if c},
            "vote_hurt": counts(self.vote_hurt),
            "mean_points": {f: round(n / self.runs, 4) if self.runs else 0.0 for f, n in sorted(self.points.items())},
            "game_ended": counts(self.endings),
        }


def run_many(scenario: Scenario, base_seed: str, n: int) -> Stats:
    """Run the scenario ``n`` times (seeds ``base#0`` .. ``base#n-1``) and count."""
    stats = Stats(base_seed=base_seed)
    for i in range(n):
        outcome = run_once(scenario, repeat_seed(base_seed, i))
        record(stats, scenario.state, outcome)
    return stats


def record(stats: Stats, before: GameState, outcome: Outcome) -> None:
    """Add one run's outcome to ``stats``."""
    stats.runs += 1
    after = outcome.state
    for p in after.players:
        was = before.player(p.seat)
        if was.alive and not p.alive:
            stats.deaths[p.seat] += 1
        if p.wounded:
            stats.wounded[p.seat] += 1
        if was.alive:
            stats.hp.setdefault(p.seat, Counter())[str(p.hp) if p.alive else "dead"] += 1
            bucket = stats.states.setdefault(p.seat, Counter())
            for name in p.conditions:
                bucket[name] += 1
    for faction, score in after.scores.items():
        stats.points[faction] += score - before.scores.get(faction, 0)
    if after.over:
        stats.endings[after.end_reason or "over"] += 1
        for w in after.winners:
            stats.endings[f"won by {w}"] += 1
    _record_events(stats, before, outcome.events)
    for r in _check_rolls(outcome):
        stats.checks.setdefault((r.who, r.why), Tally()).add(r.result <= (r.need or 0))


def _check_rolls(outcome: Outcome) -> list[Roll]:
    """The pass/fail d100 rolls that are not attacks or steals (those are counted from
    their events, which name both seats). Attack and steal events come in the order of
    their rolls, so each is matched to the first unmatched roll with its roller, reason
    and result."""
    pending: list[tuple[int, tuple[str, ...], int]] = []
    for e in outcome.events:
        d = e.data
        if e.kind == "AttackRolled":
            whys: tuple[str, ...] = (f"{d['why']}:{d['target']}", f"{d['why']}:companion:{d['target']}")
            pending.append((d["attacker"], whys, d["roll"]))
        elif e.kind == "StealRolled":
            pending.append((d["thief"], (f"steal:{d['victim']}",), -1))
    out: list[Roll] = []
    j = 0
    for r in outcome.rolls:
        if r.need is None:
            continue
        if j < len(pending):
            who, whys, result = pending[j]
            if r.who == who and r.why in whys and result in (r.result, -1):
                j += 1
                continue
        out.append(r)
    return out


def _record_events(stats: Stats, before: GameState, events: list[Event]) -> None:
    grail: str | None = None
    for e in events:
        d = e.data
        if e.kind == "AttackRolled":
            why = f"{d['why']}@wolf" if d.get("companion") and d["why"] != "companion" else d["why"]
            stats.attacks.setdefault((d["attacker"], d["target"], why), Tally()).add(bool(d["hit"]))
        elif e.kind == "StealRolled":
            stats.steals.setdefault((d["thief"], d["victim"]), Tally()).add(bool(d["success"]))
        elif e.kind == "VotesCounted":
            for seat in d["hurt"]:
                stats.vote_hurt[seat] += 1
        elif e.kind in ("GrailBanked", "GrailAllocated"):
            grail = f"seat {d['seat' if e.kind == 'GrailBanked' else 'winner']}"
        elif e.kind == "GrailLost" and grail is None:
            grail = "lost"
        elif e.kind == "GrailUnclaimed":
            grail = "unclaimed"
    if grail is None and before.phase.value == "dusk":
        grail = "lost" if before.grail_holder is not None else "none"
    if grail is not None:
        stats.grail[grail] += 1
