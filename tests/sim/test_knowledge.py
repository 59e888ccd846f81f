"""What a player deduces from what it may see: identification answers (confirmed and,
by silence, refuted), unique roles, exact faction sizes, public departures, class news."""

from __future__ import annotations

import pytest

from bot.ai.knowledge import Knowledge
from engine import Audience, Event, Guess, Identification
from engine.view import sheet, table
from tests.engine.helpers import table as hand_table

ROSTER = (
    ("warrior", "lawful"), ("monk", "lawful"), ("cleric", "lawful"), ("wizard", "lawful"), ("paladin", "lawful"),
    ("barbarian", "neutral"), ("wizard", "neutral"), ("warrior", "neutral"), ("rogue", "neutral"), ("druid", "neutral"),
    ("barbarian", "chaotic"), ("sorcerer", "chaotic"), ("ranger", "chaotic"), ("rogue", "chaotic"), ("bard", "chaotic"),
)  # fmt: skip


def _know(seat: int = 1) -> Knowledge:
    state = hand_table(*ROSTER)
    return Knowledge(sheet(state, seat), table(state))


def _private(seat: int, kind: str, **data: object) -> Event:
    return Event(kind, Audience.PRIVATE, seat, dict(data))


def test_starts_from_the_roster_odds() -> None:
    k = _know(1)  # the lawful warrior
    assert k.p_enemy(2) == pytest.approx(10 / 14)
    assert k.known_faction(2) is None and not k.is_friend(2) and not k.is_enemy(2)


def test_answers_confirm_and_silence_refutes() -> None:
    k = _know(1)
    guesses = (Guess(3, "faction", "lawful"), Guess(6, "faction", "lawful"), Guess(7, "trait", "holy"))
    k.note_sent([Identification(guesses)])
    k.see(_private(1, "IdentificationAnswered", confirmed=[guesses[0].to_dict()], asked=3))
    assert k.is_friend(3) and k.p_enemy(3) == 0.0
    assert k.is_enemy(6) and k.p_enemy(6) == 1.0
    assert k.could_be(7, "trait", "holy") == 0.0  # not holy: no cleric, druid or paladin
    assert k.could_be(7, "class", "cleric") == 0.0


def test_a_known_role_is_nobody_elses() -> None:
    k = _know(1)
    k.learn(2, "class", "monk", True)  # only the lawful monk exists
    assert k.known_faction(2) == "lawful"
    assert all(k.could_be(s, "class", "monk") == 0.0 for s in range(3, 16))


def test_exact_faction_sizes_settle_the_rest() -> None:
    k = _know(1)
    for seat in (2, 3, 4, 5):  # all four other lawful members found
        k.learn(seat, "faction", "lawful", True)
    assert all(k.is_enemy(s) for s in range(6, 16))
    k2 = _know(1)
    for seat in range(6, 16):  # ten seats shown not lawful: the four left must be
        k2.learn(seat, "faction", "lawful", False)
    assert all(k2.is_friend(s) for s in (2, 3, 4, 5))


def test_public_departures_and_wipe_outs() -> None:
    k = _know(1)
    k.see(Event("PlayerLeft", Audience.PUBLIC, None, {"seat": 9, "name": "P9"}))
    assert not k.alive[9] and 9 not in k.others_alive()
    k.see(Event("PlayerLeft", Audience.PUBLIC, None, {"seat": 12, "name": "P12", "class_id": "sorcerer", "faction": "chaotic"}))
    assert k.known_faction(12) == "chaotic"
    for seat in (6, 7, 8, 10):  # with seat 9, the whole neutral faction has left
        k.see(Event("PlayerLeft", Audience.PUBLIC, None, {"seat": seat, "name": f"P{seat}"}))
    k.see(Event("FactionWipedOut", Audience.PUBLIC, None, {"faction": "neutral"}))
    assert all(k.could_be(s, "faction", "neutral") == 0.0 for s in k.others_alive())
    # Five neutral players existed and only five seats could have been neutral.
    assert all(k.known_faction(s) == "neutral" for s in (6, 7, 8, 9, 10))
    k.see(Event("VotesCounted", Audience.PUBLIC, None, {"round": 1, "counts": [], "hurt": [4]}))
    assert k.vote_damage[4] == 1


def test_class_news_teaches_too() -> None:
    k = _know(15)  # the bard
    k.see(_private(15, "BardicKnowledge", target=3, trait="holy"))
    assert k.could_be(3, "trait", "holy") == 1.0
    c = _know(3)  # the cleric
    c.see(_private(3, "SpeakWithDead", dead=[{"seat": 11, "faction": "chaotic"}]))
    assert c.known_faction(11) == "chaotic"


def test_own_news_updates_the_player() -> None:
    k = _know(1)
    k.see(_private(1, "DamageTaken", amount=3, hp=7, max_hp=10, cause="night"))
    assert k.hp == 7
    k.see(_private(1, "Healed", amount=2, hp=9, max_hp=10))
    assert k.hp == 9
    k.set_phase(2, "dusk")
    k.see(_private(1, "GrailWon", round=2))
    assert k.holds_grail
    k.set_phase(3, "day")
    assert not k.holds_grail
    k.see(_private(1, "YouDied"))
    assert not k.alive[1]
