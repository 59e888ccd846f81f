"""What the tool prints: every event of the examples is put into words, audiences are
labelled, and docs/scenario.md shows the tool's real output."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.scenario import load, run_many, run_once
from bot.scenario.describe import Describer
from bot.scenario.output import audience_label, single_json, single_text, stats_text
from engine import Audience

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.toml"))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_event_of_the_examples_has_words(path: Path, lang: str) -> None:
    sc = load(path)
    describer = Describer(sc.state, lang)  # type: ignore[arg-type]
    for i in range(30):
        for event in run_once(sc, f"words#{i}").events:
            text = describer.describe(event)
            assert text != describer.plain(event), f"no words for {event.kind}: {text}"
            assert "{" not in text.replace("{'", "").replace("{" + "}", ""), text


def test_audience_labels() -> None:
    sc = load(ROOT / "docs" / "examples" / "vote-tie.toml")
    events = run_once(sc, "x").events
    labels = {e.audience: audience_label(e, sc.state, "en") for e in events}
    assert labels[Audience.PUBLIC] == "[public]"
    assert labels[Audience.AUDIT] == "[audit]"
    assert labels[Audience.PRIVATE] == "[private → seat 3 (Cy)]" or labels[Audience.PRIVATE].startswith("[private → seat ")
    zh = {audience_label(e, sc.state, "zh") for e in events}
    assert "[公开]" in zh and "[审计]" in zh


def test_private_news_reads_as_the_player_reads_it() -> None:
    sc = load(ROOT / "docs" / "examples" / "warrior-attacks-grail-carrier.toml")
    text = single_text(sc, "tavern", run_once(sc, "tavern"), "en")
    assert "[private → seat 2 (Bo)]   🩸 You took 1 damage. HP 5/10." in text


def test_json_carries_events_rolls_and_both_states() -> None:
    sc = load(ROOT / "docs" / "examples" / "wounded-and-spells.toml")
    data = single_json(sc, "s", run_once(sc, "s"), "zh")
    assert data["before"]["players"][0]["hp"] == 0
    assert {e["audience"] for e in data["events"]} >= {"audit", "private"}
    assert all(isinstance(e["text"], str) and e["text"] for e in data["events"])
    assert len(data["rolls"]) >= len(data["before"]["players"])  # one initiative roll each at least


def test_the_documented_output_is_the_real_output() -> None:
    doc = (ROOT / "docs" / "scenario.md").read_text(encoding="utf-8")
    sc = load(ROOT / "docs" / "examples" / "warrior-attacks-grail-carrier.toml")
    seed = sc.spec.seed
    assert single_text(sc, seed, run_once(sc, seed), "en") in doc
    assert stats_text(sc, run_many(sc, seed, 2000), "en") in doc
