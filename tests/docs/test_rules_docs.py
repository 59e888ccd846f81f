"""The generated documents (the rules in English and Chinese, the scenario tool's page):
rendered from the templates, the class data and the tools' live output, so they can
never drift from what the engine does."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.docs_gen import main
from bot.docs_gen import DOCUMENTS, stale, write_all
from bot.docs_gen.generate import ROOT, TemplateError, render_template
from bot.i18n import t
from bot.i18n.terms import FACTIONS, STATES, TRAITS
from engine.classes import catalogue, missing_classes
from engine.night.combat import STEAL_CHANCE

DOCS = {doc.lang: (ROOT / doc.output).read_text(encoding="utf-8") for doc in DOCUMENTS if doc.template.startswith("rules.")}
LOCALE = {"en": "en-US", "zh": "zh-CN"}


def test_committed_docs_match_the_class_data_and_templates() -> None:
    out = stale()
    assert not out, "docs are stale; run `python -m bot.cli.docs_gen`:\n" + "\n".join(out.values())


def test_the_check_command_passes() -> None:
    r = subprocess.run([sys.executable, "-m", "bot.cli.docs_gen", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr


def test_the_check_catches_drift_and_regeneration_fixes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for doc in DOCUMENTS:
        (tmp_path / doc.output).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / doc.output, tmp_path / doc.output)
    edited = tmp_path / DOCUMENTS[0].output
    edited.write_text(edited.read_text(encoding="utf-8").replace("| 10 |", "| 12 |", 1), encoding="utf-8")
    assert main(["--check", "--root", str(tmp_path)]) == 1
    assert "out of date" in capsys.readouterr().err
    assert write_all(tmp_path) == [edited]
    assert main(["--check", "--root", str(tmp_path)]) == 0
    (tmp_path / DOCUMENTS[1].output).unlink()
    assert main(["--check", "--root", str(tmp_path)]) == 1


def test_the_scenario_page_shows_the_tools_real_output() -> None:
    page = (ROOT / "docs" / "scenario.md").read_text(encoding="utf-8")
    assert "{{" not in page
    assert "$ wolfhowl scenario docs/examples/warrior-attacks-grail-carrier.toml\nScenario: A Warrior attacks the grail carrier" in page
    assert "2000 runs" in page and "Attacks (hit rate):" in page
    assert "bad.toml: players[1].class: unknown class 'wizzard'" in page
    assert "bad.toml: players[1].orders: You cannot target or vote for yourself." in page


def test_all_eleven_classes_are_in_the_data() -> None:
    assert missing_classes() == []
    assert len(catalogue()) == 11


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_class_and_skill_is_documented(lang: str) -> None:
    doc, loc = DOCS[lang], LOCALE[lang]
    for spec in catalogue().values():
        assert f"### {spec.name[loc]}" in doc
        assert spec.blurb[loc] in doc
        for skill in spec.skills:
            assert f"`{skill.id}`" in doc
            assert skill.name[loc] in doc
            assert skill.text[loc] in doc, f"{spec.id}.{skill.id} text missing in {lang}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_ruling_is_in_both_documents(lang: str) -> None:
    doc = DOCS[lang]
    for n in range(1, 14):
        assert f"**R{n}**" in doc, f"R{n} missing in {lang}"
    engine_rulings = set(re.findall(r"\*\*(E\d+)\*\*", doc))
    assert engine_rulings == set(re.findall(r"\*\*(E\d+)\*\*", DOCS["en"]))
    assert engine_rulings == {f"E{n}" for n in range(1, len(engine_rulings) + 1)}
    assert len(engine_rulings) >= 18


def test_a_servers_own_winning_score_is_stated() -> None:
    """Like the vote-tie rule and reveal-on-death, the winning score is a server setting."""
    en, zh = (" ".join(DOCS[lang].split()) for lang in ("en", "zh"))
    assert "(a server may set another winning score before the game starts)" in en
    assert "（服务器可以在游戏开始前设定其他获胜分数）" in zh


def test_the_engine_rulings_the_code_makes_are_stated() -> None:
    en, zh = (" ".join(DOCS[lang].split()) for lang in ("en", "zh"))  # lines wrap anywhere
    for phrase in (
        "passes to the killer if the killer is alive",
        "If nobody sends a number, the grail stays hidden this round",
        "in seat order",
        "resolve in the order you sent them",
        "cannot itself be countered",
        "at the very start of the night's resolution",
        "leaves the game as if dead, with no points to anyone",
        '("extinction")',
    ):
        assert phrase in en, phrase
    for phrase in ("圣杯归击杀者所有", "本轮圣杯不会现身", "按座位号顺序", "按提交的顺序结算", "本身不能再被反击", "任何人行动之前", "不为任何人带来分数", "全员覆灭"):
        assert phrase in zh, phrase


def test_the_chinese_document_uses_the_originals_terms() -> None:
    zh = DOCS["zh"]
    for word in ("圣杯", "指认", "标准动作", "自由动作", "先攻", "受伤", "夺宝", "意志", "反射", "强韧", "抉择技能", "全局技能", "公决投票"):
        assert word in zh, word


def test_engine_numbers_flow_into_the_text() -> None:
    assert f"{STEAL_CHANCE}% chance" in DOCS["en"] and f"成功率为{STEAL_CHANCE}%" in DOCS["zh"]
    assert "{{" not in DOCS["en"] and "{{" not in DOCS["zh"]


def test_unknown_placeholders_are_refused() -> None:
    with pytest.raises(TemplateError, match=r"\{\{clases\}\}"):
        render_template("{{clases}}", "en", "t.md")
    assert render_template("{{ steal_chance }}%", "en") == f"{STEAL_CHANCE}%"


@pytest.mark.parametrize("table,prefix", [(FACTIONS, "faction"), (TRAITS, "trait"), (STATES, "state")])
def test_terms_agree_with_the_bots_catalogue(table: dict[str, dict[str, str]], prefix: str) -> None:
    for key, words in table.items():
        if key in ("wounded", "dead"):
            continue  # derived from HP, not catalogue states
        assert words["en"] == t(f"{prefix}.{key}", "en-US")
        assert words["zh"] == t(f"{prefix}.{key}", "zh-CN")


def test_the_grapplers_release_is_named_as_each_languages_players_choose_it() -> None:
    """E14: the Chinese page names “松开”, the skill a Chinese client offers, beside its order id."""
    assert f"“{t('skill.release', 'zh-CN')}”（指令ID `release`" in DOCS["zh"]
    assert "first action is `release`" in DOCS["en"]
