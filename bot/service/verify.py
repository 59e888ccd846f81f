"""Replaying an exported game log: from the revealed seed and the stored submissions,
the engine must produce exactly the recorded deal, rolls, events and states. Every kind
of step is replayed: the start, advances, removals, replacements and a moderator's end."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import engine
from bot.service.advance import submissions_from
from bot.service.export import LOG_FORMAT
from engine import lineup as lineups


class LogFormatError(ValueError):
    """The file is not a complete Wolf Howl Tavern game log."""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    ok: bool
    steps: int
    rolls: int
    events: int
    mismatch: str | None = None

    def summary(self) -> str:
        if not self.ok:
            return f"MISMATCH: {self.mismatch}"
        return (
            f"OK: seed matches its SHA-256; {self.steps} steps replayed, "
            f"{self.rolls} rolls and {self.events} events identical"
        )


def _norm(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def _first_difference(kind: str, stored: list[Any], replayed: list[Any]) -> str | None:
    for i, (a, b) in enumerate(zip(stored, replayed, strict=False)):
        if a != b:
            return f"{kind} #{i + 1} differs: log has {json.dumps(a)}, replay gives {json.dumps(b)}"
    if len(stored) != len(replayed):
        return f"{len(stored)} {kind}s in the log, {len(replayed)} in the replay"
    return None


def _state_difference(stored: dict[str, Any], replayed: dict[str, Any]) -> str | None:
    for key in sorted(set(stored) | set(replayed)):
        if stored.get(key) != replayed.get(key):
            return f"state field {key!r} differs: log has {json.dumps(stored.get(key))}, replay gives {json.dumps(replayed.get(key))}"
    return None


def verify_log(log: Any) -> VerifyReport:
    """Replay ``log`` (an exported dict). Raises LogFormatError if it is not a complete
    log; returns a report naming the first mismatch otherwise."""
    if not isinstance(log, dict) or log.get("format") != LOG_FORMAT:
        raise LogFormatError("not a Wolf Howl Tavern game log (format is not 'wolfhowl-log')")
    game, steps = log.get("game"), log.get("steps")
    if not isinstance(game, dict) or not isinstance(steps, list):
        raise LogFormatError("the log has no 'game' or no 'steps'")
    seed = game.get("seed")
    if not isinstance(seed, str):
        raise LogFormatError("the log has no seed: it is revealed only once the game is over")
    try:
        steps = sorted(steps, key=lambda st: int(st["seq"]))
        if not steps or steps[0]["kind"] != "start":
            raise LogFormatError("the log does not begin with the start of the game")
        report, final = _replay(seed, str(game.get("seed_sha256", "")), steps)
        return report if not report.ok else _check_header(report, game, steps, final)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as exc:
        if isinstance(exc, LogFormatError):
            raise
        raise LogFormatError(f"malformed step in the log ({type(exc).__name__}: {exc})") from None


def _check_header(report: VerifyReport, game: dict[str, Any], steps: list[dict[str, Any]], final: engine.GameState) -> VerifyReport:
    """The replay must account for the whole game the header describes: no step missing
    (the numbers follow on), the rules it was played by, and for a game that is over,
    the same end. (A cancelled game may stop anywhere.)"""

    def fail(what: str) -> VerifyReport:
        return VerifyReport(False, report.steps, report.rolls, report.events, f"header: {what}")

    seqs = [int(st["seq"]) for st in steps]
    if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        missing = sorted(set(range(seqs[0], seqs[-1] + 1)) - set(seqs))
        return fail(f"steps are missing from the log ({', '.join(map(str, missing[:10]))})")
    played_by = steps[0]["inputs"]["settings"]
    header_settings = game.get("settings") or {}
    for key, value in sorted(played_by.items()):
        if key == "lineup":  # the header may name a preset, which deals this line-up at this size
            named = header_settings.get(key)
            try:
                dealt = lineups.resolve(str(named), len(final.players))
            except engine.RuleViolation:
                dealt = None
            if dealt is None or dealt.text() != value:
                return fail(f"setting 'lineup' is {json.dumps(named)}, the game was played with {json.dumps(value)}")
            continue
        if header_settings.get(key) != value:
            return fail(f"setting {key!r} is {json.dumps(header_settings.get(key))}, the game was played with {json.dumps(value)}")
    if "lineup" not in played_by and header_settings.get("lineup", lineups.RANDOM) != lineups.RANDOM:
        return fail(f"setting 'lineup' is {json.dumps(header_settings['lineup'])}, the game was dealt by lot")
    played = engine.Settings.from_dict(played_by)  # a house rule left out was today's ruling
    for rule in engine.HOUSE_RULES:
        value = getattr(played, rule).value
        if rule in header_settings and header_settings[rule] != value:
            return fail(f"setting {rule!r} is {json.dumps(header_settings[rule])}, the game was played with {json.dumps(value)}")
    if game.get("status") == "over":
        if not final.over:
            return fail(f"the game is recorded as over ({game.get('end_reason')}), but the replay stops at round {final.round} ({final.phase.value}): steps are missing")
        if final.end_reason != game.get("end_reason") or final.round != game.get("round"):
            return fail(f"the game is recorded as ended by {game.get('end_reason')!r} in round {game.get('round')}, the replay ends by {final.end_reason!r} in round {final.round}")
    return report


def _replay(seed: str, digest: str, steps: list[dict[str, Any]]) -> tuple[VerifyReport, engine.GameState]:
    """The report, and the state the replay ends in."""
    rolls = events = 0
    state: engine.GameState | None = None

    def fail(where: str, what: str, done: int) -> tuple[VerifyReport, engine.GameState]:
        return VerifyReport(False, done, rolls, events, f"{where}: {what}"), state or engine.GameState(players=[])

    if hashlib.sha256(seed.encode()).hexdigest() != digest:
        return fail("seed", "its SHA-256 is not the one published at the start", 0)
    for done, st in enumerate(steps):
        where = f"step {st['seq']} ({st['kind']}, round {st['round']} {st['phase']})"
        inputs = st["inputs"]
        out_events: list[engine.Event] = []
        out_rolls: list[engine.Roll] = []
        try:
            if st["kind"] == "start":
                settings = engine.Settings.from_dict(inputs["settings"])
                state = engine.new_game(list(inputs["names"]), seed, settings)
            elif state is None:
                raise LogFormatError("a step before the start")
            elif st["kind"] == "advance":
                outcome = engine.advance(state, submissions_from(inputs["submissions"]), seed)
                state, out_events, out_rolls = outcome.state, outcome.events, outcome.rolls
            elif st["kind"] == "remove":
                outcome = engine.remove_player(state, int(inputs["seat"]))
                state, out_events, out_rolls = outcome.state, outcome.events, outcome.rolls
            elif st["kind"] == "replace":
                state = state.clone()
                state.player(int(inputs["seat"])).name = str(inputs["name"])
            elif st["kind"] == "end":
                outcome = engine.end_game(state)
                state, out_events, out_rolls = outcome.state, outcome.events, outcome.rolls
            else:
                raise LogFormatError(f"unknown step kind {st['kind']!r}")
        except engine.RuleViolation as exc:
            return fail(where, f"the engine refused the replay ({exc.key})", done)
        diff = (
            _first_difference("roll", _norm(st["rolls"]), _norm([r.to_dict() for r in out_rolls]))
            or _first_difference("event", _norm(st["events"]), _norm([e.to_dict() for e in out_events]))
            or _state_difference(_norm(st["state"]), _norm(state.to_dict()))
        )
        if diff:
            return fail(where, diff, done)
        rolls += len(out_rolls)
        events += len(out_events)
    assert state is not None  # the first step is the start
    return VerifyReport(True, len(steps), rolls, events), state
