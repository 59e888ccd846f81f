"""Traditional Chinese (Discord's zh-TW): every zh-CN catalogue file has its zh-TW twin
with the same keys, each the OpenCC conversion with the game's terms checked by hand; a
player whose Discord is in Traditional Chinese gets the commands, replies, DMs and (in a
zh-TW game) posts in it, not in Simplified."""

from __future__ import annotations

import tomllib
from pathlib import Path

import discord
import pytest

from bot.discord.translator import CatalogueTranslator
from bot.i18n import normalize_locale, refusal_text, t, terms
from bot.i18n.catalog import _flatten, catalogue
from bot.i18n.make_zh_tw import I18N, catalogue_pairs, engine_texts, stale
from engine.classes import class_spec
from engine.errors import DeadTargetError
from engine.zh_tw import traditional
from tests.bot.conftest import Table, reply_text


def keys_of(path: Path) -> set[str]:
    out: dict[str, str] = {}
    _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), out)
    return set(out)


def test_every_zh_cn_file_and_key_has_its_zh_tw_twin() -> None:
    pairs = list(catalogue_pairs())
    assert len(pairs) >= 2 and {p.parent.name for p, _ in pairs[1:]} == {"zh-CN"}
    for source, twin in pairs:
        assert twin.exists(), f"{twin} missing: run python -m bot.i18n.make_zh_tw"
        missing = keys_of(source) - keys_of(twin)
        assert not missing, f"{twin.name} lacks {sorted(missing)}: run python -m bot.i18n.make_zh_tw"
        assert keys_of(twin) == keys_of(source)
    assert set(catalogue("zh-TW")) == set(catalogue("zh-CN"))


def test_a_zh_cn_key_without_its_twin_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the check does when someone adds a zh-CN text and does not regenerate."""
    import bot.i18n.make_zh_tw as make

    for sub in ("zh-CN", "zh-TW"):
        (tmp_path / sub).mkdir()
    for name in ("zh-CN.toml", "zh-TW.toml"):
        (tmp_path / name).write_text((I18N / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "zh-CN" / "extra.toml").write_text('[extra]\nnew = "新的设置"\n', encoding="utf-8")
    monkeypatch.setattr(make, "I18N", tmp_path)
    monkeypatch.setattr(make, "ROOT", tmp_path)
    monkeypatch.setattr(make, "ENGINE_TABLE", tmp_path / "engine.toml")
    assert tmp_path / "zh-TW" / "extra.toml" in make.stale()
    assert make.main([]) == 0
    assert make.stale() == []
    assert 'new = "新的設定"' in (tmp_path / "zh-TW" / "extra.toml").read_text(encoding="utf-8")


def test_the_committed_zh_tw_texts_are_the_conversion() -> None:
    assert stale() == [], "run python -m bot.i18n.make_zh_tw"


# The game's words, checked by hand: Simplified -> Traditional as its players write it.
TERMS = {
    "圣杯": "聖杯", "全局技能": "全局技能", "抉择技能": "抉擇技能", "指认": "指認", "公决": "公決",
    "出局": "出局", "黄昏": "黃昏", "清晨": "清晨", "标准动作": "標準動作", "自由动作": "自由動作",
    "法术点": "法術點", "受伤": "受傷", "阵营": "陣營", "攻击对象": "攻擊對象", "远程攻击": "遠程攻擊",
    "权限": "權限", "服务器": "伺服器", "身份组": "身分組", "先攻": "先攻", "擒抱": "擒抱", "检定": "檢定",
}  # fmt: skip


def test_the_games_terms_read_as_its_players_write_them() -> None:
    cn, tw = catalogue("zh-CN"), catalogue("zh-TW")
    pairs = [(cn[key], tw[key]) for key in cn] + [(text, traditional(text)) for text in engine_texts()]
    odd = [(text, simplified) for text, trad_text in pairs for simplified, trad in TERMS.items() if simplified in text and text.count(simplified) != trad_text.count(trad)]
    assert odd == []
    seen = {s for s in TERMS if any(s in text for text, _ in pairs)}
    assert seen >= {"圣杯", "全局技能", "抉择技能", "指认", "公决", "出局", "攻击对象", "权限", "服务器"}


# OpenCC's known wrong characters for this game's texts: none may be in what it generated.
MISCONVERSIONS = (
    "輪迴顧",  # 逐轮回顾 → 逐輪回顧 (not 輪迴, reincarnation)
    "輪迴放",  # 逐轮回放 → 逐輪回放
    "隻能", "隻有",  # 只 "only" is not 隻, the measure word for animals
    "傷愈", "療愈", "治愈", "痊愈",  # healing is 癒 in Taiwan
    "頻道里",  # in the channel: 裡, inside (里 is a village)
    "全域性", "聖盃", "許可權", "身份組", "遠端攻擊", "型別", "引數", "釋出",
)  # fmt: skip


def test_the_generated_texts_hold_no_known_misconversion() -> None:
    texts = [path.read_text(encoding="utf-8") for _, path in catalogue_pairs()]
    texts += [traditional(text) for text in engine_texts()]
    found = sorted({(bad, text[max(0, text.find(bad) - 8) : text.find(bad) + 8]) for text in texts for bad in MISCONVERSIONS if bad in text})
    assert found == []
    assert catalogue("zh-TW")["replay.timeline"].startswith("逐輪回放")


def test_engine_texts_come_in_traditional_too() -> None:
    wizard = class_spec("wizard")
    assert wizard.name["zh-TW"] == "法師" and wizard.name["zh-CN"] == "法师"
    assert all("全域性" not in s.text["zh-TW"] and "聖盃" not in s.text["zh-TW"] for s in wizard.skills)
    assert refusal_text(DeadTargetError(target=3), "zh-TW") == "3號已經出局，不能作為目標。"
    assert terms.class_name("wizard", "zh-TW") == "法師"


def test_discords_traditional_chinese_is_zh_tw() -> None:
    assert normalize_locale("zh-TW") == "zh-TW" and normalize_locale("zh-CN") == "zh-CN" and normalize_locale("en-GB") == "en-US"
    assert t("rules.glossary_title", "zh-TW") == "術語"


async def test_command_names_are_localized_for_zh_tw() -> None:
    from discord import app_commands

    translator = CatalogueTranslator()
    name = await translator.translate(app_commands.locale_str("rules", key="cmd.name.rules"), discord.Locale.taiwan_chinese, None)  # type: ignore[arg-type]
    assert name == "規則"


async def test_a_traditional_chinese_player_gets_traditional_replies_dms_and_rules(table: Table) -> None:
    mei = table.emu.create_user("mei", locale="zh-TW")
    table.emu.add_member(table.guild, mei)
    glossary = reply_text(await table.run(mei, "rules", {"topic": "glossary"}))
    assert "術語" in glossary and "全局技能" in glossary and "抉擇技能" in glossary and "公決" in glossary
    assert "术语" not in glossary and "决定" not in glossary
    created = await table.run(table.mod, "mod create", {"language": "zh-TW"})
    await table.delivered()
    assert "#" in reply_text(created)
    joined = reply_text(await table.run(mei, "game join"))
    assert "加入" in joined and "这" not in joined, joined
    for p in table.players[:5]:
        await table.run(p, "game join")
    await table.run(table.mod, "mod start")
    await table.delivered()
    sheet = "\n".join(table.texts(table.emu.dms(mei)))
    assert "請保密" in sheet and "每夜指認" in sheet and "特質" in sheet and "生命值" in sheet, sheet
    assert not {"请", "认", "职", "阵", "伤"} & set(sheet), sheet
    public = "\n".join(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))
    assert "遊戲" in public and "游戏开始" not in public, public
