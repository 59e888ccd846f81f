"""The one validation entry point: every bad submission is refused with a typed error
whose message exists in both languages; a good one comes back normalised."""

import pytest

from bot.i18n import refusal_text
from engine import errors as E
from engine.model import Phase
from engine.submissions import Action, GrailNumber, Guess, Identification, Orders, Vote
from engine.validate import validate
from tests.engine.helpers import table


def st(phase=Phase.DUSK):
    s = table(("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"), phase=phase)
    return s


def attack(t):
    return Orders((Action("attack", (t,)),))


@pytest.mark.parametrize(
    ("phase", "submission", "error"),
    [
        (Phase.DUSK, GrailNumber(50), E.WrongPhaseError),
        (Phase.DAY, attack(2), E.WrongPhaseError),
        (Phase.DAY, Vote(2), E.WrongPhaseError),
        (Phase.DAY, GrailNumber(0), E.OutOfRangeError),
        (Phase.DAY, GrailNumber(101), E.OutOfRangeError),
        (Phase.MORNING, Vote(1), E.SelfTargetError),
        (Phase.MORNING, Vote(9), E.BadTargetError),
        (Phase.DUSK, attack(1), E.SelfTargetError),
        (Phase.DUSK, Orders((Action("fireball", (2,)),)), E.UnknownSkillError),
        (Phase.DUSK, Orders((Action("combat_reflexes"),)), E.SkillUnavailableError),
        (Phase.DUSK, Orders((), frozenset({"whirlwind"})), E.SkillUnavailableError),
        (Phase.DUSK, Orders((Action("attack", (2,)), Action("whirlwind", (2, 3)))), E.ActionEconomyError),
        (Phase.DUSK, Orders((Action("attack", (2,)), Action("attack", (3,)))), E.ActionEconomyError),
        (Phase.DUSK, Orders((Action("whirlwind", (2,)),)), E.MalformedSubmissionError),
        (Phase.DUSK, Orders((Action("whirlwind", (2, 2)),)), E.MalformedSubmissionError),
        (Phase.DUSK, Orders((Action("release"),)), E.SkillUnavailableError),
        (Phase.DUSK, Orders((Action("attack", (2,), amount=3),)), E.MalformedSubmissionError),
    ],
)
def test_refusals(phase, submission, error):
    with pytest.raises(error) as info:
        validate(st(phase), 1, submission)
    exc = info.value
    assert isinstance(exc, E.RuleViolation)
    en, zh = refusal_text(exc, "en-US"), refusal_text(exc, "zh-CN")
    assert en and zh and en != zh
    assert "{" not in en and "{" not in zh  # every placeholder filled


def test_dead_and_absent_players_and_dead_targets():
    s = st(Phase.MORNING)
    s.player(3).alive = False
    with pytest.raises(E.DeadTargetError):
        validate(s, 1, Vote(3))
    with pytest.raises(E.DeadPlayerError):
        validate(s, 3, Vote(1))
    with pytest.raises(E.NotInGameError):
        validate(s, 7, Vote(1))


def test_wounded_may_send_number_identification_vote_but_no_orders():
    s = st(Phase.DUSK)
    s.player(1).hp = 0
    with pytest.raises(E.WoundedError):
        validate(s, 1, attack(2))
    assert validate(s, 1, Identification((Guess(2, "trait", "combat"),)))
    assert validate(s, 1, Orders()) == Orders()  # clearing is always fine
    s.phase = Phase.DAY
    assert validate(s, 1, GrailNumber(40))
    s.phase = Phase.MORNING
    assert validate(s, 1, Vote(2))


def test_game_over_refuses_everything():
    s = st(Phase.OVER)
    with pytest.raises(E.GameOverError):
        validate(s, 1, Vote(2))


def test_duplicate_guesses_are_folded():
    s = st()
    out = validate(s, 1, Identification((Guess(2, "trait", "combat"), Guess(2, "trait", "combat"))))
    assert out == Identification((Guess(2, "trait", "combat"),))


def test_attack_plus_free_skill_fits_two_standards_do_not():
    s = st()
    assert validate(s, 1, attack(2)) == attack(2)


def test_every_error_key_has_both_languages():
    from bot.i18n import LOCALES
    from bot.i18n.catalog import catalogue

    for cls in vars(E).values():
        if isinstance(cls, type) and issubclass(cls, E.RuleViolation):
            assert all(cls.key in catalogue(loc) for loc in LOCALES), cls
    refusals = {k for k in catalogue("en-US") if k.startswith(("error.", "reason."))}
    assert refusals and all(refusals <= catalogue(loc).keys() for loc in LOCALES)


def test_a_refusal_names_the_skill_in_the_players_language_not_by_id():
    st = table(("paladin", "lawful"), ("warrior", "neutral"))
    with pytest.raises(E.SkillUnavailableError) as refused:
        validate(st, 1, Orders((Action("smite_evil", (2,)),), frozenset({"divine_guard"})))
    assert refusal_text(refused.value, "en-US").startswith("You cannot use Divine Guard now")
    assert "神圣守护" in refusal_text(refused.value, "zh-CN") and "divine_guard" not in refusal_text(refused.value, "zh-CN")
    # A skill no class has is shown as typed.
    assert "“dragon-breath”" in refusal_text(E.UnknownSkillError(skill="dragon-breath"), "en-US")
    # Release is an order of its own, no class's skill: named too, not shown as an id.
    with pytest.raises(E.SkillUnavailableError) as refused:
        validate(st, 1, Orders((Action("release"),)))
    assert refusal_text(refused.value, "en-US").startswith("You cannot use Release now")
    assert "松开" in refusal_text(refused.value, "zh-CN") and "release" not in refusal_text(refused.value, "zh-CN")


def test_a_table_of_the_wrong_size_is_refused_in_both_languages():
    from engine.dice import Dice
    from engine.setup import deal

    with pytest.raises(E.OutOfRangeError) as refused:
        deal(5, Dice.for_phase("seed", 0, "setup"))
    assert refusal_text(refused.value, "en-US").startswith("The number of players must be a whole number from 6 to 15")
    assert refusal_text(refused.value, "zh-CN").startswith("玩家人数必须是6到15之间的整数")


def test_seats_named_by_each_kind_of_submission():
    from engine import Action, GrailNumber, Guess, Identification, Orders, Vote, seats_named

    assert seats_named(Vote(4)) == {4}
    assert seats_named(Orders((Action("attack", (2,)), Action("fireball", (3, 5, 6))), frozenset({"rage"}))) == {2, 3, 5, 6}
    assert seats_named(Identification((Guess(7, "trait", "holy"), Guess(8, "faction", "lawful")))) == {7, 8}
    assert seats_named(GrailNumber(50)) == frozenset()


def test_an_order_whose_targets_do_not_fit_reads_as_such_not_as_gibberish() -> None:
    """Too few targets is a mistake in the order, said as one ("does not fit"), not a
    submission the engine cannot read."""
    with pytest.raises(E.OrderShapeError) as refused:
        validate(st(), 1, Orders((Action("attack", ()),)))
    assert refusal_text(refused.value, "en-US") == "That order does not fit: an attack names exactly one target."
    assert refusal_text(refused.value, "zh-CN") == "该指令不符合要求：攻击只能指定一个目标。"
    assert isinstance(refused.value, E.MalformedSubmissionError)  # still caught as before
