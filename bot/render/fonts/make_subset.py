"""Rebuild ``wolfhowl-cjk.otf`` after the chart's Chinese words change:

    .venv/bin/python -m bot.render.fonts.make_subset /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

(Debian's ``fonts-noto-cjk``; font 2 of the collection is Simplified Chinese.) It keeps
only the glyphs of :func:`bot.render.chart.chart_texts` and
:func:`bot.features.stats.look_chart.stats_chart_texts` in zh-CN and zh-TW (the Simplified font
draws the Traditional characters too), renamed to
:data:`FAMILY` as the OFL asks of a modified font, its copyright notice kept.
``tests/bot/test_chart.py`` fails when a word of the chart is missing from the font.
"""

from __future__ import annotations

import argparse

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from bot.render.fonts import CJK_FONT, FAMILY

SIMPLIFIED_CHINESE = 2  # index in NotoSansCJK-Regular.ttc


def build(source: str, font_number: int = SIMPLIFIED_CHINESE) -> None:
    from bot.features.stats.look_chart import stats_chart_texts
    from bot.render.chart import chart_texts

    texts = [*(s for loc in ("zh-CN", "zh-TW") for s in (*chart_texts(loc), *stats_chart_texts(loc)))]
    text = "".join(sorted({ch for s in texts for ch in s if ord(ch) > 0x7F}))
    font: TTFont = TTCollection(source).fonts[font_number] if source.endswith(".ttc") else TTFont(source)
    options = subset.Options()
    options.name_IDs = [0, 13, 14]  # copyright and licence; the names are set below
    options.layout_features = []
    options.hinting = False
    options.desubroutinize = True
    sub = subset.Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    names = font["name"]
    for name_id, value in ((1, FAMILY), (2, "Regular"), (3, f"{FAMILY} Regular"), (4, FAMILY), (6, FAMILY.replace(" ", "") + "-Regular")):
        names.setName(value, name_id, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [FAMILY.replace(" ", "") + "-Regular"]
        top = cff.topDictIndex[0]
        top.FamilyName = top.FullName = FAMILY
    font.save(CJK_FONT)
    print(f"{CJK_FONT}: {len(text)} characters, {CJK_FONT.stat().st_size} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="Noto Sans CJK (.ttc collection or .otf)")
    parser.add_argument("--font-number", type=int, default=SIMPLIFIED_CHINESE)
    args = parser.parse_args()
    build(args.source, args.font_number)


if __name__ == "__main__":
    main()
