"""From a parsed scenario file to an engine ``GameState`` and the phase's submissions.

Three stages, each reporting every problem it finds with the field it is about:
the schema (:mod:`bot.scenario.model`), the table as a whole (this module: seats, the
roster, HP, states that could not be, one grail), and the rules (:func:`engine.validate`
on each submission, whose ``RuleViolation`` text is shown as the engine words it).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.i18n import refusal_text
from bot.scenario.errors import Problem, ScenarioError, from_validation_error
from bot.scenario.model import OPEN_ENDED_STATES, PlayerSpec, ScenarioSpec
from engine import (
    Action,
    Faction,
    GameState,
    GrailNumber,
    Guess,
    Identification,
    Orders,
    Phase,
    Player,
    RuleViolation,
    Settings,
    Submission,
    Vote,
    class_spec,
    validate,
)
from engine.classes import FACTION_ROWS, catalogue
from engine.dice import Dice
from engine.ending import end_reason
from engine.model import Condition
from engine.night.context import Night
from engine.skills.base import hooks_for

# The skill that grapples; a Grappled state's source must be a class that has it.
GRAPPLE_SKILL = "grapple"


@dataclass(frozen=True, slots=True)
class Scenario:
    """A runnable scenario: the state before the phase and what each seat sends."""

    spec: ScenarioSpec
    state: GameState
    submissions: dict[int, list[Submission]]
    source: str

    @property
    def title(self) -> str:
        return self.spec.title or Path(self.source).stem


def load(path: str | Path, locale: str = "en-US") -> Scenario:
    """Read, parse and check a scenario file; raise ScenarioError naming each bad field."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError.one("", f"cannot read the file: {exc}") from exc
    return loads(text, str(path), locale)


def loads(text: str, source: str = "<scenario>", locale: str = "en-US") -> Scenario:
    """Like :func:`load`, from the file's text."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError.one("", f"not valid TOML: {exc}") from exc
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        raise from_validation_error(exc) from exc
    return build(spec, source, locale)


def build(spec: ScenarioSpec, source: str = "<scenario>", locale: str = "en-US") -> Scenario:
    """Check the table as a whole, build the state, then have the engine check every
    submission. Raises ScenarioError with all the problems of the first failing stage."""
    problems = table_problems(spec)
    if problems:
        raise ScenarioError(problems)
    state = make_state(spec)
    problems = state_problems(spec, state)
    if problems:
        raise ScenarioError(problems)
    submissions, problems = make_submissions(spec, state, locale)
    if problems:
        raise ScenarioError(problems)
    return Scenario(spec, state, submissions, source)


def _where(i: int, field: str) -> str:
    return f"players[{i}].{field}"


def table_problems(spec: ScenarioSpec) -> list[Problem]:
    """Everything that needs the whole table, before a state is built."""
    out: list[Problem] = []
    n = len(spec.players)
    seats = range(1, n + 1)
    holders = [i for i, p in enumerate(spec.players, start=1) if p.holds_grail]
    for i, p in enumerate(spec.players, start=1):
        out.extend(_player_problems(spec, i, p, seats))
    if len(holders) > 1:
        seats_text = " and ".join(f"seat {s}" for s in holders)
        out.append(Problem(_where(holders[1], "holds_grail"), f"two grail holders ({seats_text}): one grail is in play per round (R5)"))
    elif holders and spec.phase != "dusk":
        out.append(Problem(_where(holders[0], "holds_grail"), f"nobody holds the grail at {spec.phase}: it is won at Day's end and banked at the night's end, so only a dusk scenario has a holder"))
    out.extend(_grapple_problems(spec))
    return out


def _player_problems(spec: ScenarioSpec, i: int, p: PlayerSpec, seats: range) -> list[Problem]:
    out: list[Problem] = []
    cls = class_spec(p.class_)
    if p.seat is not None and p.seat != i:
        out.append(Problem(_where(i, "seat"), f"is {p.seat}, but this is [[players]] table number {i}: seats are numbered in file order"))
    row = FACTION_ROWS[Faction(p.faction)]
    if p.class_ not in row:
        allowed = [f.value for f, classes in FACTION_ROWS.items() if p.class_ in classes]
        out.append(Problem(_where(i, "faction"), f"a {p.class_} cannot be {p.faction}: the roster deals it to {' or '.join(allowed) or 'no faction'}"))
    hp = cls.hp if p.hp is None else p.hp
    if hp > cls.hp:
        out.append(Problem(_where(i, "hp"), f"{hp} is above the {p.class_}'s maximum HP {cls.hp}"))
    dead = hp < 0
    if hp != 0 and p.wound_rolls:
        out.append(Problem(_where(i, "wound_rolls"), "only a wounded player (hp = 0) has wound rolls"))
    if hp != 0 and p.wounded_by is not None:
        out.append(Problem(_where(i, "wounded_by"), "only a wounded player (hp = 0) was wounded by someone"))
    if p.wounded_by is not None and p.wounded_by not in seats:
        out.append(Problem(_where(i, "wounded_by"), f"no seat {p.wounded_by} at this table (seats 1-{len(seats)})"))
    if dead and p.states:
        out.append(Problem(_where(i, "states"), "a dead player has no states"))
    if dead and p.holds_grail:
        out.append(Problem(_where(i, "holds_grail"), "a dead player cannot hold the grail"))
    for name, st in p.states.items():
        out.extend(_state_problems(spec, i, name, st.until_round, st.source, seats))
    if name_problem := _immunity_problem(i, p):
        out.append(name_problem)
    for skill_id in p.used_once:
        s = cls.skill(skill_id)
        if s is None or not s.once:
            once = [x.id for x in cls.skills if x.once]
            out.append(Problem(_where(i, "used_once"), f"{skill_id!r} is not a once-per-game skill of the {p.class_} (those are: {', '.join(once) or 'none'})"))
    out.extend(_memory_problems(i, p, seats))
    return out


def _state_problems(spec: ScenarioSpec, i: int, name: str, until: int | None, source: int | None, seats: range) -> list[Problem]:
    out: list[Problem] = []
    where = _where(i, f"states.{name}")
    if source is not None and source not in seats:
        out.append(Problem(f"{where}.source", f"no seat {source} at this table (seats 1-{len(seats)})"))
    if name == "grappled" and source is None:
        out.append(Problem(f"{where}.source", "a grappled player is held by someone: name the grappler's seat"))
    if name == "grappled" and source == i:
        out.append(Problem(f"{where}.source", "nobody grapples themselves"))
    if until is not None and until < first_night(spec):
        out.append(Problem(f"{where}.until_round", f"a state lasting through round {until}'s night would have ended before this {spec.phase} of round {spec.round}"))
    return out


def _immunity_problem(i: int, p: PlayerSpec) -> Problem | None:
    """A state the class's own skills make it immune to (Monk: Shaken...) cannot be on it."""
    if not p.states:
        return None
    probe = GameState(players=[Player(1, "probe", p.class_, Faction(p.faction), 1, 1)])
    night = Night(probe, Dice(0), [], {})
    for name in p.states:
        for s in hooks_for(p.class_, "resists"):
            if s.resists(night, probe.players[0], name):
                return Problem(_where(i, f"states.{name}"), f"a {p.class_} is immune to {name} ({s.skill_id})")
    return None


def _grapple_problems(spec: ScenarioSpec) -> list[Problem]:
    out: list[Problem] = []
    held_by: dict[int, int] = {}
    for i, p in enumerate(spec.players, start=1):
        st = p.states.get("grappled")
        if st is None or st.source is None or not 1 <= st.source <= len(spec.players):
            continue
        where = _where(i, "states.grappled.source")
        grappler = spec.players[st.source - 1]
        if class_spec(grappler.class_).skill(GRAPPLE_SKILL) is None:
            grapplers = sorted(c.id for c in catalogue().values() if c.skill(GRAPPLE_SKILL))
            out.append(Problem(where, f"seat {st.source} is a {grappler.class_}, which cannot grapple (grapplers: {', '.join(grapplers) or 'none'})"))
        if _hp(grappler) <= 0 or _hp(p) <= 0:
            out.append(Problem(where, "a wounded or dead player can neither hold nor be held"))
        if st.source in held_by:
            out.append(Problem(where, f"seat {st.source} already holds seat {held_by[st.source]}: a grappler holds one player"))
        held_by.setdefault(st.source, i)
    return out


def _memory_problems(i: int, p: PlayerSpec, seats: range) -> list[Problem]:
    out: list[Problem] = []
    cls = class_spec(p.class_)
    m = p.memory
    if m.spell_points is not None:
        cap = _spell_point_cap(p.class_)
        if "spell_points" not in cls.memory:
            out.append(Problem(_where(i, "memory.spell_points"), f"a {p.class_} has no spell points"))
        elif cap is not None and m.spell_points > cap:
            out.append(Problem(_where(i, "memory.spell_points"), f"{m.spell_points} is above the pool's cap {cap}"))
    if m.companion_hp is not None:
        if "companion_hp" not in cls.memory:
            out.append(Problem(_where(i, "memory.companion_hp"), f"a {p.class_} has no companion"))
        elif not -1 <= m.companion_hp <= int(cls.memory["companion_hp"]):
            out.append(Problem(_where(i, "memory.companion_hp"), f"must be from -1 (the companion is dead) to its maximum HP {cls.memory['companion_hp']}, got {m.companion_hp}"))
    if m.cleave_ready and cls.skill("cleave") is None:
        out.append(Problem(_where(i, "memory.cleave_ready"), f"a {p.class_} has no Cleave"))
    for k, g in enumerate(m.confirmed or [], start=1):
        if g.target not in seats:
            out.append(Problem(_where(i, f"memory.confirmed[{k}].target"), f"no seat {g.target} at this table"))
    return out


def _spell_point_cap(class_id: str) -> int | None:
    """The pool's cap, from whichever of the class's skills carries a ``cap`` parameter."""
    for s in class_spec(class_id).skills:
        if "cap" in s.params:
            return int(s.params["cap"])
    return None


def _hp(p: PlayerSpec) -> int:
    return class_spec(p.class_).hp if p.hp is None else p.hp


def first_night(spec: ScenarioSpec) -> int:
    """The round of the next night to resolve: this round's, unless its night is over."""
    return spec.round + 1 if spec.phase == "morning" else spec.round


def make_state(spec: ScenarioSpec) -> GameState:
    """The engine state the file describes (assumes table_problems found nothing)."""
    players: list[Player] = []
    for seat, p in enumerate(spec.players, start=1):
        cls = class_spec(p.class_)
        hp = _hp(p)
        memory: dict[str, Any] = dict(cls.memory)
        if p.memory.spell_points is not None:
            memory["spell_points"] = p.memory.spell_points
        if p.memory.companion_hp is not None:
            memory["companion_hp"] = p.memory.companion_hp
        if p.memory.cleave_ready:
            memory["cleave_round"] = first_night(spec)
        if p.memory.confirmed:
            memory["confirmed"] = [{"target": g.target, "what": g.what, "value": g.value} for g in p.memory.confirmed]
        conditions: dict[str, Condition] = {}
        for name, st in p.states.items():
            until = st.until_round
            if until is None and name not in OPEN_ENDED_STATES:
                until = first_night(spec)
            conditions[name] = Condition(until, st.source)
        players.append(
            Player(
                seat=seat,
                name=p.name or f"P{seat}",
                class_id=p.class_,
                faction=Faction(p.faction),
                hp=hp,
                max_hp=cls.hp,
                alive=hp >= 0,
                conditions=conditions,
                wound_rolls=p.wound_rolls,
                wound_source=p.wounded_by,
                grails_banked=p.grails,
                ab_mod=p.modifiers.ab,
                dex_mod=p.modifiers.dex,
                armor_mod=p.modifiers.armor,
                memory=memory,
                used_once=list(p.used_once),
            )
        )
    for player in players:
        grappled = player.conditions.get("grappled")
        if grappled is not None and grappled.source is not None:
            players[grappled.source - 1].memory["grappling"] = player.seat
    holder = next((seat for seat, p in enumerate(spec.players, start=1) if p.holds_grail), None)
    settings = Settings.from_dict(spec.settings.model_dump())
    return GameState(
        players=players,
        settings=settings,
        round=spec.round,
        phase=Phase(spec.phase),
        scores=spec.scores.model_dump(),
        grail_holder=holder,
    )


def state_problems(spec: ScenarioSpec, state: GameState) -> list[Problem]:
    """Checks that need the built state: a game that would already be over."""
    reason = end_reason(state)
    if reason is None:
        return []
    why = {
        "score": f"a faction already has {state.settings.win_score} points (settings.win_score)",
        "majority": "one faction has more living members than all the others together",
        "extinction": "nobody is alive",
    }[reason]
    return [Problem("players", f"this game would already be over: {why} (RULES: the end, R13)")]


def make_submissions(spec: ScenarioSpec, state: GameState, locale: str) -> tuple[dict[int, list[Submission]], list[Problem]]:
    """Each player's submissions, each checked by the engine as the bot would check it."""
    out: dict[int, list[Submission]] = {}
    problems: list[Problem] = []
    for seat, p in enumerate(spec.players, start=1):
        for field, sub in _submissions_of(p):
            try:
                out.setdefault(seat, []).append(validate(state, seat, sub))
            except RuleViolation as exc:
                problems.append(Problem(_where(seat, field), refusal_text(exc, locale)))
    return out, problems


def _submissions_of(p: PlayerSpec) -> list[tuple[str, Submission]]:
    subs: list[tuple[str, Submission]] = []
    if p.grail_number is not None:
        subs.append(("grail_number", GrailNumber(p.grail_number)))
    if p.identify is not None:
        subs.append(("identify", Identification(tuple(Guess(g.target, g.what, g.value) for g in p.identify))))
    if p.orders is not None or p.toggles is not None:
        actions = tuple(Action(a.skill, tuple(a.targets), a.amount) for a in p.orders or [])
        subs.append(("orders" if p.orders is not None else "toggles", Orders(actions, frozenset(p.toggles or []))))
    if p.vote is not None:
        subs.append(("vote", Vote(p.vote)))
    return subs
