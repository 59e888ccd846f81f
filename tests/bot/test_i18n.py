"""No message is missing in either language, and both say the same placeholders."""

import re
import string
from pathlib import Path

import pytest

from bot.i18n import LOCALES, keys, t
from bot.i18n.catalog import catalogue

ROOT = Path(__file__).resolve().parents[2]
SPECIAL = {"GameEnded"}  # worded by the scoreboard, not a line


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def singular_forms(names: set[str]) -> set[str]:
    return {k for k in names if k.endswith("_one")}


def test_both_languages_have_the_same_keys():
    """Except the singular forms (``<key>_one``), which a language has only where its
    grammar needs them, and never without the key itself."""
    en, zh = keys("en-US"), keys("zh-CN")
    assert en - zh - singular_forms(en) == set(), f"missing in zh-CN: {sorted(en - zh)}"
    assert zh - en - singular_forms(zh) == set(), f"missing in en-US: {sorted(zh - en)}"
    for names in (en, zh):
        assert {k.removesuffix("_one") for k in singular_forms(names)} <= names


def test_a_count_of_one_takes_the_singular_where_the_language_has_one():
    assert t("sheet.identify_slot", "en-US", count=1, what="Combat") == "1 name for Combat"
    assert t("sheet.identify_slot", "en-US", count=2, what="Combat") == "2 names for Combat"
    assert t("sheet.identify_slot", "zh-CN", count=1, what="战斗") == "1个ID指认战斗"
    assert t("reply.inbox.more", "en-US", count=1).startswith("📬 1 more new message:")


def test_both_languages_use_the_same_placeholders():
    en, zh = catalogue("en-US"), catalogue("zh-CN")
    for key in en:
        if key in singular_forms(set(en)):  # may spell the count out, nothing more
            assert placeholders(en[key]) <= placeholders(en[key.removesuffix("_one")]), key
            continue
        assert placeholders(en[key]) == placeholders(zh[key]), key


def engine_event_kinds() -> set[str]:
    found = set()
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"\bprivate\(\s*[^,()]+(?:\([^()]*\))?,\s*\"(\w+)\"", text))
        found |= set(re.findall(r"\bpublic\(\s*\"(\w+)\"", text))
    return found


def test_every_event_a_player_or_the_channel_can_receive_has_words():
    kinds = engine_event_kinds()
    assert {"GrailWon", "DamageTaken", "PlayerLeft", "VotesCounted"} <= kinds  # the scan works
    for kind in sorted(kinds - SPECIAL):
        for loc in LOCALES:
            assert f"event.{kind}" in catalogue(loc) or kind in {"IdentificationAnswered"}, f"event.{kind} ({loc})"


def test_every_literal_key_the_bot_uses_exists():
    used = set()
    for path in (ROOT / "bot").rglob("*.py"):
        used |= set(re.findall(r"\bt\(\s*\"([a-z_]+\.[A-Za-z_.]+)\"", path.read_text(encoding="utf-8")))
    assert used, "the scan found nothing"
    missing = sorted(k for k in used if any(k not in catalogue(loc) for loc in LOCALES))
    assert missing == []


@pytest.mark.parametrize("loc", LOCALES)
def test_nested_keys_translate_in_the_same_language(loc):
    text = t("error.wrong_phase", loc, expected="phase.day", phase="phase.dusk")
    assert "{" not in text and "phase." not in text


def test_spell_points_news_mentions_the_grails_gain_only_when_there_was_one():
    from bot.render.events import render_event
    from engine.events import private

    plain = private(3, "SpellPoints", points=2, cap=6, gained=0)
    assert render_event(plain, "en-US", {}) == "🔮 Spell points after the night: 2/6."
    assert "+" not in render_event(plain, "zh-CN", {})
    grail = private(3, "SpellPoints", points=4, cap=6, gained=2)
    assert "Font of Power: +2" in render_event(grail, "en-US", {})
    assert "力量之泉+2" in render_event(grail, "zh-CN", {})


def test_a_death_says_how_and_a_removal_is_not_a_death():
    from bot.render.events import render_event
    from engine.events import private

    blow = private(2, "YouDied", amount=4)
    assert "4 damage" in render_event(blow, "en-US", {}) and "4点伤害" in render_event(blow, "zh-CN", {})
    wound = private(2, "YouDied", how="wound")
    assert "wound" in render_event(wound, "en-US", {}) and "伤重不治" in render_event(wound, "zh-CN", {})
    removed = private(2, "YouWereRemoved")
    assert "moderator has removed you" in render_event(removed, "en-US", {})
    assert "died" not in render_event(removed, "en-US", {}) and "死亡" not in render_event(removed, "zh-CN", {})


def test_lists_in_running_text_use_each_languages_separator():
    from bot.render.events import render_event
    from engine.events import private, public

    votes = public("VotesCounted", counts=[{"seat": 2, "votes": 3}, {"seat": 5, "votes": 3}], hurt=[2, 5])
    names = {2: "bob", 5: "小红"}
    assert render_event(votes, "en-US", names).splitlines()[0] == "🗳️ Votes: #2 bob **×3**, #5 小红 **×3**"
    zh = render_event(votes, "zh-CN", names)
    assert "#2 bob **×3**、#5 小红 **×3**" in zh and "#2 bob、#5 小红" in zh and ", " not in zh
    assert render_event(votes, "en-US", names).splitlines()[1] == "#2 bob, #5 小红 each take 1 damage from the vote."
    one = public("VotesCounted", counts=[{"seat": 2, "votes": 3}], hurt=[2])
    assert render_event(one, "en-US", names).splitlines()[1] == "#2 bob takes 1 damage from the vote."
    confirmed = [{"target": 2, "what": "faction", "value": "chaotic"}, {"target": 5, "what": "trait", "value": "agility"}]
    answer = private(1, "IdentificationAnswered", confirmed=confirmed, asked=2)
    assert render_event(answer, "en-US", names).count("; ") == 1
    zh_answer = render_event(answer, "zh-CN", names)
    assert zh_answer.count("；") == 1 and ";" not in zh_answer


def test_the_scoreboard_reads_naturally_in_both_languages():
    from bot.render.posts import scoreboard_embed

    ended = {"scores": {"lawful": 7, "neutral": 15}, "winners": ["neutral"], "reason": "score", "roster": []}
    assert scoreboard_embed(ended, "en-US", None, None).fields[0].value == "Neutral: **15**\nLawful: **7**"
    assert scoreboard_embed(ended, "zh-CN", None, None).fields[0].value == "中立：**15**\n守序：**7**"


def test_a_morning_with_no_votes_or_a_tie_that_hurts_nobody_says_so():
    from bot.render.events import render_event
    from engine.events import public

    tie = public("VotesCounted", counts=[{"seat": 2, "votes": 2}, {"seat": 5, "votes": 2}], hurt=[])
    none = public("VotesCounted", counts=[], hurt=[])
    for locale in ("en-US", "zh-CN"):
        assert render_event(tie, locale, {}).splitlines()[1] == t("event.VoteNobodyHurt", locale)
        assert render_event(none, locale, {}) == t("event.VotesNone", locale)


def test_a_skills_target_count_reads_as_a_number_in_both_languages():
    from bot.features.play.cog_choices import skill_label
    from engine.classes import class_spec

    skill = {s.id: s for s in class_spec("bard").skills}
    assert skill_label("bard", skill["hypnotic_prelude"], "en-US") == "Hypnotic Prelude (1 target)"
    assert skill_label("bard", skill["suggestion"], "en-US").endswith("(2 targets)")
    assert skill_label("bard", skill["hypnotic_prelude"], "zh-CN").endswith("（1个目标）")


def test_audit_log_reasons_follow_the_servers_language():
    from types import SimpleNamespace

    import discord

    from bot.discord.guild.permissions import audit_reason

    chinese = SimpleNamespace(preferred_locale=discord.Locale.chinese)
    assert audit_reason(chinese, "left") == "狼嚎酒馆：已出局"  # type: ignore[arg-type]
    assert audit_reason(SimpleNamespace(preferred_locale=discord.Locale.american_english), "left").endswith("left the game")  # type: ignore[arg-type]


def test_a_players_name_is_shown_as_text():
    from bot.render.words import player_name

    assert player_name("**loud** _x_") == "\\*\\*loud\\*\\* \\_x\\_"
    assert player_name("@everyone") == "@\u200beveryone"
    assert player_name("evil\u202eeman") == "evileman"  # no right-to-left override
    assert player_name("小红") == "小红" and player_name("phase.day") == "phase.day"


def test_an_identification_slot_limited_to_some_values_reads_as_the_source_words_it():
    """"每夜一个ID指认“战斗”特质": the values quoted, joined by 或, with what they are; the
    character sheet and `/rules <class>` word it alike."""
    from bot.features.help.cog import class_embed
    from bot.render.sheet import identify_slot

    assert identify_slot(1, "trait", ("combat", "agility"), "zh-CN") == "1个ID指认“战斗”或“敏捷”特质"
    assert identify_slot(1, "trait", ("combat", "agility"), "en-US") == "1 name for the Combat or Agility trait"
    assert identify_slot(2, "faction", ("chaotic",), "zh-CN") == "2个ID指认“混乱”阵营"
    assert identify_slot(2, "faction", ("chaotic",), "en-US") == "2 names for the Chaotic faction"
    assert identify_slot(1, "class", (), "zh-CN") == "1个ID指认任意职业"
    shown = {f.name: f.value for f in class_embed("barbarian", "zh-CN").fields}
    assert shown[t("sheet.identify", "zh-CN")] == "1个ID指认“战斗”或“敏捷”特质"


def test_a_spent_skill_is_marked_without_a_space_before_a_full_width_bracket():
    from bot.render.sheet import sheet_embed
    from engine.view import sheet
    from tests.engine.helpers import table

    state = table(("wizard", "lawful"), ("warrior", "chaotic"), ("warrior", "neutral"))
    view = sheet(state, 1)
    view["skills"] = [dict(s, used=s["id"] == "fireball") for s in view["skills"]]
    names = [f.name for f in sheet_embed(view, "zh-CN").fields]
    assert any(n.startswith("火球术（已使用） · ") for n in names), names
    assert any(n.startswith("Fireball (used) · ") for n in (f.name for f in sheet_embed(view, "en-US").fields))


# The game's words in the Chinese original (wolf-howl-tavern.zh.txt) and what each English
# term always reads as in Chinese, so the same thing is never called two names.
GLOSSARY = {
    r"\bgrails?\b": "圣杯",
    r"\bidentif": "指认",
    r"\bstandard action": "标准动作",
    r"\bfree action": "自由动作",
    r"\bwounded\b": "受伤",
    r"\btoggles?\b": "抉择",
    r"\bspell points?\b": "法术点",
    r"\bleft the game\b": "出局",
    r"\bamount\b": "点数",
    r"\bDusk\b": "黄昏",
    r"\bMorning\b": "清晨",
}


def test_each_term_of_the_game_has_one_chinese_name():
    """In the catalogues (the engine's and the service's refusals among them)."""
    en, zh = catalogue("en-US"), catalogue("zh-CN")
    pairs = [(key, en[key], zh[key]) for key in en if key in zh]
    odd = []
    for pattern, word in GLOSSARY.items():
        for key, english, chinese in pairs:
            prose = re.sub(r"\{\w+\}", "", english)  # a parameter's name is no word of the text
            if re.search(pattern, prose, re.IGNORECASE) and word not in chinese:
                odd.append((word, key, chinese))
    assert odd == []


# Words for the game's terms that the original does not use (it says 指认, 受伤, 标准动作,
# 自由动作, 擒抱, 夺宝/夺得).
NOT_THE_ORIGINALS = ("鉴定", "识别", "濒死", "重伤", "标准行动", "自由行动", "抓取", "夺取")


def test_chinese_texts_use_the_originals_words_for_the_game():
    from engine.classes import catalogue as classes

    texts = list(catalogue("zh-CN").items())
    for spec in classes().values():
        texts += [(spec.id, spec.blurb["zh-CN"])] + [(s.id, s.text["zh-CN"] + s.name["zh-CN"]) for s in spec.skills]  # type: ignore[index]
    texts.append(("docs/rules.zh.md", (ROOT / "docs" / "rules.zh.md").read_text(encoding="utf-8")))
    assert [(k, w) for k, text in texts for w in NOT_THE_ORIGINALS if w in text] == []


def test_rules_for_a_class_head_its_skills_as_the_character_sheet_does():
    from bot.features.help.cog import class_embed
    from bot.render.sheet import sheet_embed
    from engine.view import sheet
    from tests.engine.helpers import table

    mine = {f.name for f in sheet_embed(sheet(table(("monk", "lawful"), ("warrior", "chaotic"), ("warrior", "neutral")), 1), "zh-CN").fields}
    rules = {f.name for f in class_embed("monk", "zh-CN").fields}
    assert {"心如止水 · 被动 · —", "擒抱 · 主动 · 标准动作", "震颤掌 · 主动、全局 · 标准动作"} <= mine & rules


def test_topic_files_join_the_catalogue_and_a_key_defined_twice_is_refused(tmp_path):
    from bot.i18n.catalog import load

    (tmp_path / "en-US.toml").write_text('[event]\nA = "a"\n', encoding="utf-8")
    (tmp_path / "en-US").mkdir()
    (tmp_path / "en-US" / "stats.toml").write_text('[stats]\nB = "b"\n', encoding="utf-8")
    assert load("en-US", tmp_path) == {"event.A": "a", "stats.B": "b"}
    (tmp_path / "en-US" / "again.toml").write_text('[event]\nA = "other"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"again\.toml.*event\.A"):
        load("en-US", tmp_path)
