"""Rules versions (engine.rules): every published version keeps its class numbers and
behaviour, a game plays by its own to the end, and no class number, event shape or
outcome changes without a new version.

The table below pins, per version, three digests: of its class numbers (the catalogue
without its texts), of its events' shapes (kind, audience, and each data field with the
types it takes) and of its play (every event and roll) over a fixed corpus of random
games. A change to the engine or the class data that moves one of them for a published
version would make the logs of that version's games stop verifying, and a live game
change rules half-way: make the change a new version instead (see ``FAILURE``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.i18n import refusal_text
from engine import GameState, Settings, end_game, new_game, remove_player, rules
from engine.classes import catalogue, catalogue_of, class_spec
from engine.errors import RuleViolation
from tests.engine.randplay import NAMES, play

# version -> (class numbers, event shapes, play). Published versions are never changed.
PINNED: dict[int, tuple[str, str, str]] = {
    1: ("3fd528c484e28649", "46d09e70856a59f8", "c738458468e0772e"),
    2: ("3fd528c484e28649", "c8cc29f416721cb2", "0cece1193c95b1f9"),
    3: ("0165e9c58868c8e4", "c8cc29f416721cb2", "77bfbe545eb4a6df"),
    4: ("0165e9c58868c8e4", "09731e399d2448ba", "ab07753536bd8666"),
    5: ("0165e9c58868c8e4", "5f5fcd19cdecb3a8", "0646160fb04342d9"),
    6: ("0165e9c58868c8e4", "0f354471ca8fd955", "46bdf1f0d3395c9f"),
    7: ("0165e9c58868c8e4", "5f427a2b06f40d77", "8033e3794c5a6979"),
}

FAILURE = """\
rules version {version}: the {what} changed ({found}, pinned {pinned}).
A published rules version must not change: old logs of its games would stop verifying
and its live games would change rules half-way. Instead:
  1. add version {next} to engine/data/rules.toml (when it is published, its commit, what
     it changes), with under [versions.before.<class>] the numbers version {newest} had
     where the class data files now differ;
  2. keep a behaviour change behind the version in the engine (a constant in
     engine/rules.py, read with rules.in_force(), as DEATH_NEWS is);
  3. pin version {next}'s digests here (print them with: python -m tests.engine.test_rules_versions);
  4. add a migration for it whose downgrade_refusal names its games, and give its revision
     as the version's `schema` (bot.db.rules_versions, tests/db/test_rules_refusals.py).
If the change is a fix that must not reach old games, it is the same: a new version."""

TEXT_FIELDS = {"name", "text", "blurb"}


def _numbers(value: Any) -> Any:
    """The class data without its texts (names, rules texts, blurbs)."""
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in value.items() if k not in TEXT_FIELDS}
    if isinstance(value, list | tuple):
        return [_numbers(v) for v in value]
    return value


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def class_digest(version: int) -> str:
    return _digest({cid: _numbers(spec.model_dump(mode="json")) for cid, spec in catalogue_of(version).items()})


def _corpus(version: int) -> Iterable[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]:
    """(game, events, rolls) of every step of the corpus: random games at each size,
    each house rule, then a removal and a moderator's end."""
    for n, players in enumerate((6, 7, 9, 11, 13, 15) * 3):
        settings = Settings(rules_version=version)
        if n % 3 == 1:
            settings = Settings.from_dict({"killing_blow": "killer_takes", "departures": "morning", "vote_damage": "private", "rules_version": version})
        seed = f"rules-corpus-{n}"
        played = play(seed, players, settings, max_phases=60, keep_states=True)
        for i, outcome in enumerate(played.outcomes):
            yield seed, [e.to_dict() for e in outcome.events], [r.to_dict() for r in outcome.rolls]
            if i == 4 and not outcome.state.over:
                living = [p.seat for p in outcome.state.players if p.alive]
                removed = remove_player(outcome.state, living[-1])
                yield seed, [e.to_dict() for e in removed.events], []
        last = played.states[-1]
        if not last.over:
            yield seed, [e.to_dict() for e in end_game(last).events], []


def _shape(value: Any) -> str:
    return type(value).__name__


def event_and_play_digests(version: int) -> tuple[str, str]:
    shapes: set[tuple[str, ...]] = set()
    whole = hashlib.sha256()
    for seed, events, rolls in _corpus(version):
        for e in events:
            shapes.add((e["kind"], e["audience"], "seat:" + _shape(e["seat"])))
            for key, value in e["data"].items():
                shapes.add((e["kind"], e["audience"], key, _shape(value)))
            if not e["data"]:
                shapes.add((e["kind"], e["audience"], "(no data)"))
        for r in rolls:
            shapes.add(("roll", *sorted(r)))
        whole.update(json.dumps([seed, events, rolls], sort_keys=True).encode())
    return _digest(sorted(shapes)), whole.hexdigest()[:16]


def digests(version: int) -> tuple[str, str, str]:
    return (class_digest(version), *event_and_play_digests(version))


def test_every_published_version_is_pinned() -> None:
    assert sorted(PINNED) == sorted(rules.versions()), (
        "each rules version in engine/data/rules.toml needs its digests pinned in PINNED "
        "(print them with: python -m tests.engine.test_rules_versions)"
    )


@pytest.mark.parametrize("version", sorted(rules.versions()))
def test_a_published_version_never_changes(version: int) -> None:
    pinned = PINNED.get(version)
    if pinned is None:
        pytest.fail(f"rules version {version} has no digests pinned (python -m tests.engine.test_rules_versions)", pytrace=False)
    for what, found, kept in zip(("class numbers", "event shapes", "play of the corpus"), digests(version), pinned, strict=True):
        if found != kept:
            newest = rules.CURRENT
            pytest.fail(FAILURE.format(version=version, what=what, found=found, pinned=kept, next=newest + 1, newest=newest), pytrace=False)



def test_each_version_has_its_own_class_numbers() -> None:
    """The balance of 2026-12-01 (version 3): Bard AB 55 -> 65%, d2 -> d3; Barbarian
    HP 12 -> 10. Outside a game's call the newest version is in force."""
    assert (catalogue_of(2)["bard"].ab, catalogue_of(2)["bard"].damage, catalogue_of(2)["barbarian"].hp) == (55, 2, 12)
    assert (catalogue_of(3)["bard"].ab, catalogue_of(3)["bard"].damage, catalogue_of(3)["barbarian"].hp) == (65, 3, 10)
    assert catalogue_of(1) == catalogue_of(2)
    assert catalogue() == catalogue_of(rules.CURRENT) and class_spec("bard").ab == 65
    with rules.playing(2):
        assert class_spec("bard").ab == 55 and catalogue()["barbarian"].hp == 12
    assert class_spec("bard").ab == 65
    assert rules.CURRENT == max(rules.versions()) == 7
    assert catalogue_of(4) == catalogue_of(3)  # version 4 changed behaviour, not numbers
    assert catalogue_of(6) == catalogue_of(5)  # version 6 changed the deal, not numbers


def _with_class(version: int, class_id: str) -> GameState:
    for i in range(200):
        state = new_game(NAMES[:6], f"rules-deal-{i}", Settings(rules_version=version))
        if any(p.class_id == class_id for p in state.players):
            return state
    raise AssertionError(f"no deal with a {class_id}")


def test_a_game_keeps_its_version_to_its_end() -> None:
    """Dealt under version 2, a game's Barbarian has 12 HP, its state says 2 through
    every step and every reading, and its Bard's damage die is a d2 however late."""
    state = _with_class(2, "barbarian")
    assert next(p for p in state.players if p.class_id == "barbarian").max_hp == 12
    stored = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert stored.settings.rules_version == 2 and stored.to_dict()["settings"]["rules_version"] == 2
    for seed in (f"rules-keep-{i}" for i in range(40)):
        late = {version: _bard_damage_dice(seed, version) for version in (2, 3)}
        if all(any(rnd >= 3 for rnd, _ in dice) for dice in late.values()):
            break
    else:
        raise AssertionError("no corpus game where a Bard still hits in round 3")
    assert {die for _, die in late[2]} == {2} and {die for _, die in late[3]} == {3}


def _bard_damage_dice(seed: str, version: int) -> set[tuple[int, int]]:
    """(round, die) of every damage roll of a Bard in a random game under ``version``,
    whose every state says it is of that version."""
    played = play(seed, 15, Settings(rules_version=version), keep_states=True)
    assert all(s.settings.rules_version == version for s in played.states)
    bards = {p.seat for p in played.states[0].players if p.class_id == "bard"}
    return {
        (st.round, r.die) for st, o in zip(played.states, played.outcomes, strict=False) for r in o.rolls
        if r.who in bards and r.why.startswith("damage:")
    }


def test_death_news_and_cleave_news_are_behind_version_2() -> None:
    state = _with_class(1, "warrior")
    for version, removed_kind, removed_data in ((1, "YouDied", {}), (2, "YouWereRemoved", {})):
        st = GameState.from_dict(state.to_dict() | {"settings": state.settings.to_dict() | {"rules_version": version}})
        news = [e for e in remove_player(st, 1).events if e.seat == 1]
        assert [(e.kind, e.data) for e in news] == [(removed_kind, removed_data)]
    seen: dict[int, set[str]] = {1: set(), 2: set()}
    killed: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    for version in (1, 2):
        for seed in ("rules-news-a", "rules-news-b", "rules-news-c"):
            for o in play(seed, 15, Settings(rules_version=version)).outcomes:
                seen[version] |= {e.kind for e in o.events}
                killed[version] += [e.data for e in o.events if e.kind == "YouDied"]
    assert "CleaveReady" in seen[2] and "CleaveReady" not in seen[1]
    assert killed[1] and all(d == {} for d in killed[1])
    assert killed[2] and all("amount" in d or "how" in d for d in killed[2])


def test_a_game_dealt_before_versions_were_recorded_takes_the_version_of_its_day() -> None:
    def at(text: str) -> datetime:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)

    assert rules.dealt_under(at("2026-11-30T20:00:00")) == 1  # before the first kept: read as 1
    assert rules.dealt_under(at("2026-12-01T03:07:33")) == 1
    assert rules.dealt_under(at("2026-12-01T03:07:34")) == 2
    assert rules.dealt_under(datetime(2026, 12, 1, 20, 22, 19)) == 2  # naive: UTC, as SQLite gives it
    assert rules.dealt_under(at("2026-12-01T20:22:20")) == 3
    assert rules.dealt_under(None) == rules.CURRENT
    assert Settings.from_dict({}).rules_version == rules.CURRENT


def test_a_version_this_release_does_not_know_is_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        Settings.from_dict({"rules_version": rules.CURRENT + 1})
    assert refused.value.key == "error.unknown_rules_version"
    assert f"rules version {rules.CURRENT + 1}" in refusal_text(refused.value, "en-US")
    assert f"规则版本{rules.CURRENT + 1}" in refusal_text(refused.value, "zh-CN")
    with pytest.raises(RuleViolation):
        new_game(NAMES[:6], "s", replace(Settings(), rules_version=0))


if __name__ == "__main__":
    for v in sorted(rules.versions()):
        print(f"    {v}: {digests(v)!r},")
