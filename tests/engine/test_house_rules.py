"""House rules a moderator chooses per game (engine.Settings): the killing blow on the
grail carrier, when the night's departures are announced, and whether the vote's damage
is named. Each is part of the state, so a replay plays it again exactly."""

from __future__ import annotations

import pytest

from engine import GameState, advance, end_game, remove_player
from engine.errors import DeadPlayerError
from engine.events import PUBLIC_KINDS, Audience
from engine.model import DeparturesRule, KillingBlowRule, Phase, Settings, VoteDamageRule
from engine.morning import count_votes
from engine.submissions import Action, Orders, Vote
from engine.validate import validate
from engine.view import table as public_table
from tests.engine.helpers import ScriptedDice, kinds, night, table

SIX = [("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic")] * 2
INIT = [(20, 20), (20, 10), (20, 1)]  # initiative of three living players: 1, 2, 3


def attack(target: int) -> Orders:
    return Orders((Action("attack", (target,)),), frozenset())


def blow(rule: KillingBlowRule, steal_roll: int) -> tuple[GameState, list]:
    """Seat 1 hits seat 2, wounded and carrying the grail: the d3 kills."""
    st = table(*SIX[:3], settings=Settings(killing_blow=rule))
    st.player(2).hp = 0
    st.grail_holder = 2
    script = [*INIT, (100, 90), (3, 2)] + ([(100, steal_roll)] if rule is KillingBlowRule.STEAL else [])
    events = night(st, ScriptedDice(script), {1: attack(2)})
    return st, events


def test_the_default_is_the_originals_reading():
    assert Settings().killing_blow is KillingBlowRule.STEAL
    assert Settings().departures is DeparturesRule.DAWN and Settings().vote_damage is VoteDamageRule.PUBLIC


def test_a_killing_blow_on_the_carrier_is_a_steal_attempt_that_may_take_the_grail():
    st, events = blow(KillingBlowRule.STEAL, steal_roll=50)
    assert not st.player(2).alive
    stolen = next(e for e in events if e.kind == "StealRolled")
    assert stolen.data == {"thief": 1, "victim": 2, "chance": 50, "success": True}
    assert st.player(1).grails_banked == 1  # held at the night's end, banked
    # +3 for the kill, +2 for the steal; the dead victim is not told of the steal.
    assert st.scores["lawful"] == 5
    assert "GrailStolen" not in kinds(events)
    assert any(e.kind == "GrailTaken" and e.seat == 1 and e.data["from_body"] is False for e in events)


def test_a_failed_attempt_loses_the_grail_for_the_round():
    st, events = blow(KillingBlowRule.STEAL, steal_roll=51)
    assert not next(e for e in events if e.kind == "StealRolled").data["success"]
    assert st.scores["lawful"] == 3  # the kill only
    assert all(p.grails_banked == 0 for p in st.players)
    assert "GrailBanked" not in kinds(events) and "GrailTaken" not in kinds(events)
    assert st.grail_dropped_by is None  # the body keeps nothing past the night


def test_the_killer_takes_it_under_e13_without_steal_points():
    st, events = blow(KillingBlowRule.KILLER_TAKES, steal_roll=0)
    assert "StealRolled" not in kinds(events)
    assert any(e.kind == "GrailTaken" and e.data["from_body"] for e in events)
    assert st.scores["lawful"] == 3 and st.player(1).grails_banked == 1


def test_a_death_without_a_hit_loses_the_grail_under_the_steal_rule():
    """A wound that proves fatal gives no steal attempt: nothing hit the carrier."""
    st = table(*SIX[:3], settings=Settings(killing_blow=KillingBlowRule.STEAL))
    st.player(2).hp = 0
    st.player(2).wound_rolls = 1  # the second wound roll: 40% death
    st.player(2).wound_source = 1
    st.grail_holder = 2
    events = night(st, ScriptedDice([*INIT, (100, 95)]), {})
    assert not st.player(2).alive and "StealRolled" not in kinds(events)
    assert all(p.grails_banked == 0 for p in st.players)


def dusk_with_a_death(rule: DeparturesRule) -> tuple[GameState, list]:
    """Six players; seat 1 kills seat 2 (wounded) at night."""
    st = table(*SIX, settings=Settings(departures=rule), phase=Phase.DUSK)
    st.player(2).hp = 0
    out = advance(st, {1: [attack(2)]}, "house-rules")
    assert not out.state.player(2).alive
    return out.state, out.events


def test_departures_at_dawn_by_default():
    st, events = dusk_with_a_death(DeparturesRule.DAWN)
    assert [e.kind for e in events if e.audience is Audience.PUBLIC] == ["PlayerLeft"]
    assert st.held_news == [] and not public_table(st)[1]["alive"]


def test_departures_held_for_the_morning_announcement_after_the_vote():
    st, events = dusk_with_a_death(DeparturesRule.MORNING)
    # The dawn says only that the news waits; the departed player is told privately.
    assert [e.kind for e in events if e.audience is Audience.PUBLIC] == ["DeparturesHeld"]
    assert any(e.kind == "YouDied" and e.seat == 2 for e in events)
    assert "DeparturesHeld" in PUBLIC_KINDS
    assert st.unannounced() == {2} and public_table(st)[1]["alive"] and st.publicly_alive(2)
    # A vote for the departed stands (refusing it would tell); the departed cannot vote.
    assert validate(st, 3, Vote(2)) == Vote(2)
    with pytest.raises(DeadPlayerError):
        validate(st, 2, Vote(3))
    stored = GameState.from_dict(st.to_dict())  # held between phases, in the database
    assert stored.unannounced() == {2}
    out = advance(stored, {3: [Vote(2)], 4: [Vote(5)], 5: [Vote(4)], 6: [Vote(4)]}, "house-rules")
    public = [e for e in out.events if e.audience is Audience.PUBLIC]
    assert [e.kind for e in public][:2] == ["VotesCounted", "PlayerLeft"]
    assert public[1].data["seat"] == 2
    # The vote for the departed counted for nobody: 4 took the damage.
    assert public[0].data["hurt"] == [4] and {c["seat"] for c in public[0].data["counts"]} == {4, 5}
    assert out.state.held_news == [] and not public_table(out.state)[1]["alive"]


def test_held_departures_go_out_before_an_early_end_or_a_removal_that_ends_it():
    st, _ = dusk_with_a_death(DeparturesRule.MORNING)
    ended = end_game(st)
    public = [e.kind for e in ended.events if e.audience is Audience.PUBLIC]
    assert public == ["PlayerLeft", "GameEnded"]
    removed = remove_player(st, 3)
    assert [e.kind for e in removed.events if e.audience is Audience.PUBLIC] == ["PlayerLeft"]
    assert removed.state.unannounced() == {2}  # a removal is told at once; the night's wait


def test_the_vote_damage_told_only_to_the_one_who_takes_it():
    st = table(*SIX, settings=Settings(vote_damage=VoteDamageRule.PRIVATE), phase=Phase.MORNING)
    events: list = []
    assert count_votes(st, ScriptedDice([(2, 1)]), events, {1: 2, 3: 4}) == [2]
    counted = next(e for e in events if e.kind == "VotesCounted")
    assert counted.audience is Audience.PUBLIC and "hurt" not in counted.data
    assert [c["seat"] for c in counted.data["counts"]] == [2, 4]
    assert next(e for e in events if e.kind == "VoteDamage").audience is Audience.AUDIT
    taken = next(e for e in events if e.kind == "DamageTaken")
    assert taken.seat == 2 and taken.audience is Audience.PRIVATE and taken.data["cause"] == "vote"


def test_stored_settings_keep_todays_rulings_when_they_name_none():
    """A state stored before house rules existed was played by today's rulings; a state
    playing them is written without the keys, as before."""
    old = Settings.from_dict({"vote_tie_rule": "roll", "reveal_on_death": False, "win_score": 15})
    assert old.killing_blow is KillingBlowRule.KILLER_TAKES
    assert old.departures is DeparturesRule.DAWN and old.vote_damage is VoteDamageRule.PUBLIC
    # (the rules version is written whatever it is: engine.rules)
    assert set(old.to_dict()) == {"vote_tie_rule", "reveal_on_death", "win_score", "rules_version"}
    chosen = Settings(departures=DeparturesRule.MORNING, vote_damage=VoteDamageRule.PRIVATE)
    assert Settings.from_dict(chosen.to_dict()) == chosen
    assert chosen.to_dict()["killing_blow"] == "steal"
