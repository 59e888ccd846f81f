"""Initiative, the vote, scoring and the end of the game."""

from engine.ending import check_end, end_reason
from engine.events import Audience
from engine.model import Phase, Settings, VoteTieRule
from engine.morning import count_votes
from engine.night.initiative import roll_initiative
from engine.scoring import score_kill
from tests.engine.helpers import ScriptedDice, kinds, table

SIX = [("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic")] * 2


def test_initiative_highest_first_ties_to_dex_then_a_roll():
    st = table(*SIX[:3])
    st.player(3).dex_mod = 5  # Dex bonus 10: modifier +2
    # totals: 1: 10+1, 2: 10+1, 3: 9+2 = 11 with the higher modifier → first
    d = ScriptedDice([(20, 10), (20, 10), (20, 9), (2, 1)])
    assert roll_initiative(st, d)[0] == [3, 2, 1]  # the d2 shuffle swapped 1 and 2


def test_initiative_skips_the_dead_keeps_the_wounded():
    st = table(*SIX[:3])
    st.player(1).alive = False
    st.player(2).hp = 0
    assert sorted(roll_initiative(st, ScriptedDice([(20, 4), (20, 7)]))[0]) == [2, 3]


def test_vote_most_votes_takes_one_damage_and_counts_are_public():
    st = table(*SIX, phase=Phase.MORNING)
    events: list = []
    hurt = count_votes(st, ScriptedDice(), events, {1: 2, 3: 2, 4: 5, 5: 2})
    assert hurt == [2] and st.player(2).hp == 9
    counted = next(e for e in events if e.kind == "VotesCounted")
    assert counted.audience is Audience.PUBLIC
    assert counted.data["counts"][0] == {"seat": 2, "name": "P2", "votes": 3}
    # who voted for whom is audit only
    assert next(e for e in events if e.kind == "VoteDetail").audience is Audience.AUDIT


def test_vote_ties_follow_the_server_rule():
    votes = {1: 2, 2: 3}
    st = table(*SIX, phase=Phase.MORNING)
    assert count_votes(st, ScriptedDice([(2, 2)]), [], votes) == [3]
    st = table(*SIX, settings=Settings(vote_tie_rule=VoteTieRule.NOBODY), phase=Phase.MORNING)
    assert count_votes(st, ScriptedDice(), [], votes) == []
    st = table(*SIX, settings=Settings(vote_tie_rule=VoteTieRule.ALL), phase=Phase.MORNING)
    assert count_votes(st, ScriptedDice(), [], votes) == [2, 3]
    assert st.player(2).hp == 9 and st.player(3).hp == 9


def test_only_votes_of_the_living_for_the_living_count():
    st = table(*SIX, phase=Phase.MORNING)
    for seat in (5, 6):
        st.player(seat).alive = False
    events: list = []
    # 5 and 6 are dead: their votes for 3 and the vote for 6 are not counted
    hurt = count_votes(st, ScriptedDice(), events, {1: 2, 2: 6, 5: 3, 6: 3})
    assert hurt == [2]
    counted = next(e for e in events if e.kind == "VotesCounted")
    assert counted.data["counts"] == [{"seat": 2, "name": "P2", "votes": 1}]


def test_no_votes_no_damage():
    st = table(*SIX, phase=Phase.MORNING)
    assert count_votes(st, ScriptedDice(), [], {}) == []


def test_death_by_vote_scores_no_kill_points():
    st = table(*SIX, phase=Phase.MORNING)
    st.player(2).hp = 0
    events: list = []
    count_votes(st, ScriptedDice(), events, {1: 2})
    assert not st.player(2).alive and sum(st.scores.values()) == 0


def test_kill_scoring_other_faction_three_own_faction_two_to_each_other():
    st = table(*SIX)
    score_kill(st, [], st.player(1), st.player(2))
    assert st.scores == {"lawful": 3, "neutral": 0, "chaotic": 0}
    score_kill(st, [], st.player(1), st.player(4))
    assert st.scores == {"lawful": 3, "neutral": 2, "chaotic": 2}


def test_end_at_fifteen_points_with_survivor_bonus_and_shared_win():
    st = table(*SIX)
    st.scores = {"lawful": 15, "neutral": 15, "chaotic": 3}
    events: list = []
    assert check_end(st, events)
    # every faction has two living members: +4 each
    assert st.scores == {"lawful": 19, "neutral": 19, "chaotic": 7}
    assert st.winners == ["lawful", "neutral"] and st.phase is Phase.OVER
    ended = next(e for e in events if e.kind == "GameEnded")
    assert ended.audience is Audience.PUBLIC and ended.data["reason"] == "score"


def test_end_when_one_faction_outnumbers_the_rest_wounded_count_as_living():
    st = table(*SIX)
    assert end_reason(st) is None
    st.player(2).alive = False
    st.player(3).alive = False
    st.player(5).alive = False
    # lawful 2 (one wounded) vs chaotic 1
    st.player(1).hp = 0
    assert end_reason(st) == "majority"


def test_nobody_left_alive_ends_the_game_and_the_top_score_wins():
    st = table(*SIX)
    st.scores = {"lawful": 3, "neutral": 6, "chaotic": 6}
    for p in st.players:
        p.alive = False
    events: list = []
    assert check_end(st, events) and st.end_reason == "extinction"
    assert st.scores == {"lawful": 3, "neutral": 6, "chaotic": 6}  # no survivors to score
    assert st.winners == ["neutral", "chaotic"]


def test_no_end_on_equal_numbers():
    st = table(*SIX)
    st.player(3).alive = False
    st.player(6).alive = False
    assert end_reason(st) is None  # 2 vs 2: not more than all others together
    events: list = []
    assert not check_end(st, events) and "GameEnded" not in kinds(events)


def test_a_moderator_can_end_the_game_early_scored_as_a_natural_end():
    from engine import end_game

    st = table(*SIX)
    st.scores = {"lawful": 4, "neutral": 1, "chaotic": 0}
    st.player(3).alive = False
    out = end_game(st)
    assert out.state.over and out.state.end_reason == "stopped"
    # living: lawful 2, neutral 2, chaotic 1
    assert out.state.scores == {"lawful": 8, "neutral": 5, "chaotic": 2}
    assert out.state.winners == ["lawful"]
    assert [e.kind for e in out.events if e.audience is Audience.PUBLIC] == ["GameEnded"]
    assert not st.over  # the input is untouched
