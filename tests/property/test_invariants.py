"""Hypothesis: whatever players send, the game stays within its rules."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import refusal_text
from engine import Audience, RuleViolation, Settings, VoteTieRule, validate
from engine.values import FACTIONS
from tests.engine.randplay import play, random_submission

POINTS = {"allocation": {1}, "steal": {2}, "kill": {3}, "teamkill": {2}}

seeds = st.text(min_size=1, max_size=12)
sizes = st.integers(min_value=6, max_value=15)
rules = st.sampled_from(list(VoteTieRule))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=sizes, tie=rules, reveal=st.booleans())
def test_invariants_hold_through_whole_games(seed, n, tie, reveal):
    played = play(seed, players=n, settings=Settings(vote_tie_rule=tie, reveal_on_death=reveal), keep_states=True)
    for before, outcome in zip(played.states, played.outcomes, strict=False):
        after = outcome.state
        for p in after.players:
            assert p.hp <= p.max_hp
            assert p.alive == (p.hp >= 0)
        # at most one grail holder, and only a living one
        assert after.grail_holder is None or after.player(after.grail_holder).alive
        # the dead never act
        dead_before = {p.seat for p in before.players if not p.alive}
        for e in outcome.events:
            if e.kind in ("ActionTaken", "AttackRolled"):
                actor = e.data.get("seat", e.data.get("attacker"))
                assert actor not in dead_before
            if e.audience is Audience.PRIVATE:
                assert e.seat not in dead_before
        # scores move only by the scoring rules
        changes = [e for e in outcome.events if e.kind == "ScoreChanged"]
        for e in changes:
            if e.data["reason"] == "survivors":
                assert e.data["points"] % 2 == 0 and e.data["points"] > 0
            else:
                assert e.data["points"] in POINTS[e.data["reason"]]
        for f in FACTIONS:
            delta = after.scores[f.value] - before.scores[f.value]
            assert delta == sum(e.data["points"] for e in changes if e.data["faction"] == f.value)
            assert delta >= 0
    assert played.states[-1].over or len(played.outcomes) == 150


@settings(max_examples=200, deadline=None)
@given(seed=seeds, n=sizes, phases=st.integers(min_value=0, max_value=12), who=st.integers(min_value=1, max_value=15), salt=st.integers())
def test_any_submission_is_applied_or_refused_with_a_rule_violation(seed, n, phases, who, salt):
    import random

    played = play(seed, players=n, keep_states=True, max_phases=phases)
    state = played.states[-1]
    if state.over:
        return
    seat = 1 + (who - 1) % n
    rng = random.Random(salt)
    for sub in random_submission(state, seat, rng):
        before = state.to_dict()
        try:
            out = validate(state, seat, sub)
            assert out.kind == sub.kind
        except RuleViolation as exc:
            assert refusal_text(exc, "en-US") and refusal_text(exc, "zh-CN")
        assert state.to_dict() == before  # validation never changes anything
