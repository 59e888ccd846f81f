"""Tonight's orders and identification a piece at a time (engine.pieces): what each
piece makes of what the seat has sent of its kind."""

from __future__ import annotations

from engine import (
    RELEASE,
    Action,
    ActionPiece,
    GrailNumber,
    Guess,
    GuessPiece,
    Identification,
    Orders,
    TogglePiece,
)

ATTACK = Action("attack", (2,))
RAGE = Action("rage")


def test_an_action_goes_last_and_replaces_its_own_skill_in_place():
    sent = Orders((ATTACK, RAGE), frozenset({"power_attack"}))
    assert ActionPiece(Action("cleave", (3,))).added_to(sent) == Orders((ATTACK, RAGE, Action("cleave", (3,))), sent.toggles)
    assert ActionPiece(Action("attack", (4,))).added_to(sent) == Orders((Action("attack", (4,)), RAGE), sent.toggles)


def test_release_goes_first():
    assert ActionPiece(Action(RELEASE)).added_to(Orders((ATTACK,))) == Orders((Action(RELEASE), ATTACK))


def test_a_toggle_is_switched_on_off_or_flipped_and_the_actions_kept():
    sent = Orders((ATTACK,), frozenset({"rage"}))
    assert TogglePiece("rage", on=True).added_to(sent) == sent
    assert TogglePiece("rage", on=False).added_to(sent) == Orders((ATTACK,))
    assert TogglePiece("rage").added_to(sent) == Orders((ATTACK,))
    assert TogglePiece("rage").added_to(Orders((ATTACK,))) == sent


def test_a_guess_replaces_the_same_kind_about_the_same_seat():
    sent = Identification((Guess(2, "trait", "holy"), Guess(3, "class", "monk")))
    assert GuessPiece(Guess(2, "trait", "agility")).added_to(sent) == Identification((Guess(2, "trait", "agility"), Guess(3, "class", "monk")))
    assert GuessPiece(Guess(2, "faction", "lawful")).added_to(sent) == Identification((*sent.guesses, Guess(2, "faction", "lawful")))


def test_nothing_sent_or_another_kind_starts_from_nothing():
    for sent in (None, GrailNumber(5), Identification((Guess(2, "trait", "holy"),))):
        assert ActionPiece(ATTACK).added_to(sent) == Orders((ATTACK,))
        assert TogglePiece("rage").added_to(sent) == Orders((), frozenset({"rage"}))
    assert GuessPiece(Guess(2, "trait", "holy")).added_to(Orders((ATTACK,))) == Identification((Guess(2, "trait", "holy"),))
    assert (ActionPiece.kind, TogglePiece.kind, GuessPiece.kind) == ("orders", "orders", "identify")
