"""Texts read as a player reads them: Discord's timestamps filled in as a client shows
them, counts of one in the singular, commands named as the client shows them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.core.outbox import OutgoingMessage
from bot.i18n import LOCALES
from bot.render.outgoing import render_outgoing
from bot.render.posts import phase_opened

DEADLINE = 1_796_096_973
SHOWN = {  # how a Discord client words <t:DEADLINE:…> two hours ahead
    "en-US": {"f": "30 November 2026 14:29", "R": "in 2 hours"},
    "zh-CN": {"f": "2026年11月30日 14:29", "R": "2小时后"},
    "zh-TW": {"f": "2026年11月30日 14:29", "R": "2小時後"},
}


def zh(text: str, locale: str) -> str:
    """A Simplified expectation as the reader's script writes it (zh-TW: converted as
    its catalogue is, bot/i18n/make_zh_tw.py)."""
    from bot.i18n.make_zh_tw import traditional

    return traditional(text) if locale == "zh-TW" else text


def as_shown(text: str, locale: str) -> str:
    """``text`` with every Discord timestamp replaced by what the reader sees."""
    return re.sub(r"<t:(\d+):([tTdDfFR])>", lambda m: SHOWN[locale][m.group(2)], text)


def outgoing(payload: dict, locale: str) -> OutgoingMessage:
    return OutgoingMessage("k", 1, "channel", 1, locale, payload, 0, datetime.now(UTC))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("phase", ["day", "dusk", "morning"])
def test_a_phase_post_reads_well_with_its_relative_deadline(phase: str, locale: str) -> None:
    raw = phase_opened(phase, 3, DEADLINE, locale)
    assert f"<t:{DEADLINE}:R>" in raw and f"<t:{DEADLINE}:f>" in raw  # when, and how long from now
    shown = as_shown(raw, locale)
    if locale == "en-US":
        assert "before in" not in shown and "Closes 30 November 2026 14:29 (in 2 hours)." in shown
    else:
        assert "后前" not in shown and "在2" not in shown
        assert zh("截止：2026年11月30日 14:29（2小时后）。", locale) in shown


@pytest.mark.parametrize("locale", LOCALES)
def test_a_phase_without_a_deadline_says_who_closes_it(locale: str) -> None:
    text = phase_opened("day", 1, None, locale)
    assert "<t:" not in text
    assert ("Closes when the moderator advances it." in text) if locale == "en-US" else (zh("截止：由管理员推进。", locale) in text)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_moved_deadline_reads_well(locale: str) -> None:
    iso = datetime.fromtimestamp(DEADLINE, UTC).isoformat()
    text = as_shown(render_outgoing(outgoing({"type": "deadline_extended", "round": 2, "phase": "dusk", "deadline": iso}, locale), None).embeds[0].description or "", locale)
    assert "to in" not in text and "至2小时后" not in text
    assert ("closes 30 November 2026 14:29 (in 2 hours)" in text) if locale == "en-US" else (zh("2026年11月30日 14:29（2小时后）", locale) in text)


def test_the_demo_shows_a_relative_time_as_discord_words_it() -> None:
    from bot.sandbox.demo import relative_time

    assert relative_time(7200, "en-US") == "in 2 hours" and relative_time(60, "en-US") == "in 1 minute"
    assert relative_time(-30, "en-US") == "30 seconds ago"
    assert relative_time(7200, "zh-CN") == "2小时后" and relative_time(-120, "zh-CN") == "2分钟前"
    assert relative_time(59, "en-US") == "in 1 minute" and relative_time(50 * 60, "zh-CN") == "1小时后"


def refusal(class_id: str, action, locale: str) -> str:
    from bot.discord.errors import error_text
    from engine.errors import RuleViolation
    from engine.submissions import Orders
    from engine.validate import validate
    from tests.engine.helpers import table

    state = table((class_id, "lawful"), ("warrior", "chaotic"), ("warrior", "neutral"))
    with pytest.raises(RuleViolation) as refused:
        validate(state, 1, Orders((action,)))
    text = error_text(refused.value, locale)
    assert text is not None
    return text


@pytest.mark.parametrize(
    ("class_id", "skill", "targets", "en", "zh"),
    [
        ("paladin", "lay_on_hands", (), "this skill takes exactly one target.", "该技能需要指定1个目标。"),
        ("warrior", "whirlwind", (2,), "this skill takes exactly 2 targets.", "该技能需要指定2个目标。"),
        ("wizard", "fireball", (), "this skill takes 1 to 3 targets.", "该技能需要指定1到3个目标。"),
    ],
)
def test_a_skills_target_count_is_worded_exactly(class_id: str, skill: str, targets: tuple[int, ...], en: str, zh: str) -> None:
    from engine.submissions import Action

    english, chinese = refusal(class_id, Action(skill, targets), "en-US"), refusal(class_id, Action(skill, targets), "zh-CN")
    assert en in english and "1 to 1" not in english and "2 to 2" not in english
    assert "`target`, `target2` and `target3` options of `/act skill`" in english
    assert zh in chinese and "1到1" not in chinese and "2到2" not in chinese
    assert "`/行动 技能`（`/act skill`）的 `目标`、`目标2`、`目标3` 选项" in chinese


def test_a_missing_amount_names_the_option_that_carries_it() -> None:
    from engine.submissions import Action

    en = refusal("sorcerer", Action("chaos_bolt", (2,)), "en-US")
    assert "an amount of points from 1 to 4" in en and "`amount` option of `/act skill`" in en
    zh = refusal("sorcerer", Action("chaos_bolt", (2,)), "zh-CN")
    assert "1到4之间的点数" in zh and "`/行动 技能`（`/act skill`）的 `点数` 选项" in zh


REMINDED = {  # what each reminder must name, as the reader's client shows the commands
    ("day", "en-US"): "use `/grail`. Closes in 2 hours.",
    ("dusk", "en-US"): "use `/act attack` or `/act skill`. Closes in 2 hours.",
    ("morning", "en-US"): "use `/vote`. Closes in 2 hours.",
    ("day", "zh-CN"): "请用 `/圣杯`（`/grail`）提交。2小时后截止。",
    ("dusk", "zh-CN"): "请用 `/行动 攻击`（`/act attack`）或 `/行动 技能`（`/act skill`）提交。2小时后截止。",
    ("morning", "zh-CN"): "请用 `/投票`（`/vote`）投票。2小时后截止。",
}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("phase", ["day", "dusk", "morning"])
def test_a_reminder_names_the_command_and_reads_without_doubled_brackets(phase: str, locale: str) -> None:
    iso = datetime.fromtimestamp(DEADLINE, UTC).isoformat()
    payload = {"type": "reminder", "phase": phase, "round": 2, "deadline": iso, "missing": 3}
    private = OutgoingMessage("k", 1, "user", 1, locale, payload, 0, datetime.now(UTC))
    texts = [
        as_shown(render_outgoing(m, None).embeds[0].description or "", locale)
        for m in (private, outgoing(payload, locale), outgoing({**payload, "missing": 1}, locale))
    ]
    assert zh(REMINDED[phase, "zh-CN" if locale == "zh-TW" else locale], locale) in texts[0]
    for text in texts:
        assert ") (" not in text and "）（第" not in text and "{" not in text
    if locale == "en-US":
        assert "3 players have not sent yet" in texts[1] and "1 player has not sent yet" in texts[2]
    command = {"day": "`/grail`", "dusk": "`/act`", "morning": "`/vote`"}[phase]
    assert command in texts[1]


def test_a_grappler_is_told_how_to_let_go_with_the_order_its_skill_text_names() -> None:
    from bot.features.play.cog_choices import skill_label
    from bot.i18n.terms import release_words
    from bot.render.events import render_event
    from engine import parse_skill
    from engine.classes import class_spec
    from engine.events import private

    held = private(4, "GrappleHeld", target=2)
    assert "`/act skill skill: Release`" in render_event(held, "en-US", {2: "bob"})
    assert "`/行动 技能 技能: 松开`（`/act skill skill: Release`）" in render_event(held, "zh-CN", {2: "bob"})
    escaped = private(4, "GrappleEscaped", target=2)
    assert render_event(escaped, "en-US", {2: "bob"}) == "🤼 #2 bob broke free of your hold."
    assert render_event(escaped, "zh-CN", {2: "bob"}) == "🤼 #2 bob挣脱了你的擒抱。"
    grapple = class_spec("monk").skill("grapple")
    assert grapple is not None
    for locale, name in (("en-US", "Release"), ("zh-CN", "松开")):
        assert skill_label("monk", "release", locale).startswith(name) and name in grapple.text[locale]  # type: ignore[index]
        assert parse_skill(name, "monk", release_words()) == "release"
        assert parse_skill(skill_label("monk", "release", locale), "monk", release_words()) == "release"


def test_what_you_sent_reads_as_sent() -> None:
    from bot.features.play.look import describe_submission

    bolt = {"actions": [{"skill": "chaos_bolt", "targets": [2], "amount": 2}], "toggles": []}
    assert describe_submission("orders", bolt, {2: "bob"}, "sorcerer", "en-US").endswith("→ #2 bob (2 points)")
    assert describe_submission("orders", bolt, {2: "bob"}, "sorcerer", "zh-CN").endswith("→ #2 bob（2点）")  # no space before a full-width bracket
    one = {"actions": [{"skill": "chaos_bolt", "targets": [2], "amount": 1}], "toggles": []}
    assert describe_submission("orders", one, {2: "bob"}, "sorcerer", "en-US").endswith("→ #2 bob (1 point)")
    assert describe_submission("orders", one, {2: "bob"}, "sorcerer", "zh-CN").endswith("→ #2 bob（1点）")
    passed = {"actions": [], "toggles": []}
    assert describe_submission("orders", passed, {}, "sorcerer", "en-US") == "💤 Nothing tonight (counts as sent)"
    assert describe_submission("orders", passed, {}, "sorcerer", "zh-CN") == "💤 今夜不行动（计为已提交）"


def test_the_settings_warn_when_a_reminder_is_longer_than_a_phase():
    from bot.core.types import GameSettings
    from bot.features.moderation.look_settings import settings_lines

    fine = GameSettings(reminder_lead_seconds=3600)
    assert "no reminder" not in settings_lines(fine, "en-US")
    # Day 1 h with a 2 h reminder: the reminder would fall before the Day opens.
    too_long = GameSettings(day_seconds=3600, reminder_lead_seconds=7200)
    assert "a phase no longer than that gets no reminder" in settings_lines(too_long, "en-US")
    assert "不会收到提醒" in settings_lines(too_long, "zh-CN")
    assert "no reminder" not in settings_lines(GameSettings(reminder_lead_seconds=0), "en-US")


@pytest.mark.parametrize("locale", LOCALES)
def test_an_advance_says_when_the_new_phase_closes_in_a_sentence_that_reads(locale: str) -> None:
    """With a deadline, and without one (the moderator closes it): never "deadline no
    deadline", nor "截止2小时后"."""
    from bot.i18n import t
    from bot.render.replies import closing_line

    def advanced(when: datetime | None) -> str:
        text = t("reply.advanced", locale, closed="phase.day", phase="phase.dusk", round=1, closes=closing_line(when, locale))
        return as_shown(text, locale)

    stamp = datetime.fromtimestamp(DEADLINE, UTC)
    if locale == "en-US":
        assert advanced(stamp).endswith("Now: Dusk (identifications and orders), round 1 — closes in 2 hours.")
        assert advanced(None).endswith("round 1 — closes when the moderator advances it.")
    else:
        assert advanced(stamp).endswith(zh("当前：黄昏（指认与行动），第1轮，2小时后截止。", locale))
        assert advanced(None).endswith(zh("第1轮，管理员推进时截止。", locale))
    me = as_shown(t("reply.me.phase", locale, phase="phase.dusk", round=1, closes=closing_line(stamp, locale)), locale)
    assert me == ("Dusk (identifications and orders), round 1 — closes in 2 hours" if locale == "en-US" else zh("黄昏（指认与行动），第1轮，2小时后截止", locale))


@pytest.mark.parametrize("locale", LOCALES)
def test_a_departure_names_the_player_as_every_other_post_does(locale: str) -> None:
    from bot.render import words
    from bot.render.events import render_event
    from engine.events import public

    names = {12: "阿杰"}
    for event in (public("PlayerLeft", seat=12, name="阿杰", round=2), public("PlayerLeft", seat=12, name="阿杰", round=2, faction="lawful", class_id="warrior")):
        text = render_event(event, locale, names)
        assert words.seat_label(12, names) in text and "#12 阿杰" in text, text
        assert "(seat" not in text and "号）" not in text and "號）" not in text, text
