"""Replaying an exported game log: from the revealed seed and the stored submissions,
the engine must produce exactly the recorded deal, rolls, events and states. Every kind
of step is replayed: the start, advances, removals, replacements and a moderator's end.

Each log is replayed under its own rules version (engine.rules): the one its start
records (``settings.rules_version``), or, for a game dealt before versions were recorded,
the one in force when it was dealt: the newest published by its start time
(``engine.rules.dealt_under``), or an older one when the release that dealt it had not
been upgraded yet (the newest that replays it, which the report names)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import engine
from bot.core.steps import submissions_from
from bot.features.replay.export import LOG_FORMAT
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
    # The rules version the log was replayed under, and whether the log records it (or it
    # was taken from the time the game was dealt).
    rules_version: int = engine.rules.CURRENT
    rules_recorded: bool = True

    def summary(self) -> str:
        rules = f"rules version {self.rules_version}" + ("" if self.rules_recorded else " (not recorded in the log: the version in force when it was dealt)")
        if not self.ok:
            return f"MISMATCH: {self.mismatch} (replayed under {rules})"
        return (
            f"OK: {rules}; seed matches its SHA-256; {self.steps} steps replayed, "
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
        report, final = _replay_by_its_rules(seed, str(game.get("seed_sha256", "")), steps, _dealt_at(game, steps[0]))
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
        if key == "rules_version":  # the game's, not a moderator's setting: the header names it apart
            if game.get("rules_version", value) != value:
                return fail(f"rules version is {json.dumps(game.get('rules_version'))}, the game was dealt under {value}")
            continue
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


def _dealt_at(game: dict[str, Any], start: dict[str, Any]) -> datetime | None:
    when = game.get("started_at") or start.get("at")
    return datetime.fromisoformat(when) if isinstance(when, str) else None


def _replay_by_its_rules(
    seed: str, digest: str, steps: list[dict[str, Any]], dealt_at: datetime | None
) -> tuple[VerifyReport, engine.GameState]:
    """The replay under the log's rules version. A log that records none is tried under
    each version published by the time it was dealt, newest first: the first that
    replays it is the one it was played by; when none does, the report is the newest's."""
    recorded = steps[0]["inputs"]["settings"].get("rules_version")
    if recorded is not None:
        return _replay(seed, digest, steps, engine.rules.known(int(recorded)), recorded=True)
    first: tuple[VerifyReport, engine.GameState] | None = None
    for version in range(engine.rules.dealt_under(dealt_at), 0, -1):
        outcome = _replay(seed, digest, steps, version, recorded=False)
        if outcome[0].ok:
            return outcome
        first = first or outcome
    assert first is not None  # dealt_under gives 1 at least
    return first


def _replay(seed: str, digest: str, steps: list[dict[str, Any]], version: int, *, recorded: bool) -> tuple[VerifyReport, engine.GameState]:
    """The report, and the state the replay ends in, under rules ``version`` (``recorded``:
    named by the log's start, or taken from when it was dealt)."""
    rolls = events = 0
    state: engine.GameState | None = None

    def fail(where: str, what: str, done: int) -> tuple[VerifyReport, engine.GameState]:
        return VerifyReport(False, done, rolls, events, f"{where}: {what}", version, recorded), state or engine.GameState(players=[])

    if hashlib.sha256(seed.encode()).hexdigest() != digest:
        return fail("seed", "its SHA-256 is not the one published at the start", 0)
    for done, st in enumerate(steps):
        where = f"step {st['seq']} ({st['kind']}, round {st['round']} {st['phase']})"
        inputs = st["inputs"]
        out_events: list[engine.Event] = []
        out_rolls: list[engine.Roll] = []
        try:
            if st["kind"] == "start":
                settings = replace(engine.Settings.from_dict(inputs["settings"]), rules_version=version)
                state = engine.new_game(list(inputs["names"]), seed, settings)
                out_events = engine.start_events(state)
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
            or _state_difference(_norm(st["state"]), _norm(_as_logged(state.to_dict(), st["state"])))
        )
        if diff:
            return fail(where, diff, done)
        rolls += len(out_rolls)
        events += len(out_events)
    assert state is not None  # the first step is the start
    return VerifyReport(True, len(steps), rolls, events, None, version, recorded), state


def _as_logged(state: dict[str, Any], stored: dict[str, Any]) -> dict[str, Any]:
    """The replayed state as the log would hold it: a state stored before versions were
    recorded names none (a live game's later states, stored since, do)."""
    if "rules_version" in (stored.get("settings") or {}):
        return state
    return state | {"settings": {k: v for k, v in state["settings"].items() if k != "rules_version"}}
