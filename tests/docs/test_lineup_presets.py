"""The moderators' guides' table of presets (docs/moderating*.md, "The presets") shows
what each preset deals at each size, as engine.lineup deals it, in the guide's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import terms
from engine.lineup import preset

ROOT = Path(__file__).resolve().parents[2]
GUIDES = {"en-US": "moderating.md", "zh-CN": "moderating.zh.md"}
COLUMNS = ("classic", "balanced", "varied")


def shown(name: str, n: int, loc: str) -> str:
    lineup = preset(name, n)
    assert lineup is not None
    return " / ".join(", ".join(terms.class_name(c, loc) for c in row) for row in lineup.rows)


@pytest.mark.parametrize("loc", GUIDES)
def test_the_presets_table_shows_what_each_preset_deals(loc):
    text = (ROOT / "docs" / GUIDES[loc]).read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0].isdigit():
            rows[int(cells[0])] = cells[1:4]
    assert sorted(rows) == list(range(6, 16))
    for n, cells in rows.items():
        assert cells == [shown(name, n, loc) for name in COLUMNS], n
