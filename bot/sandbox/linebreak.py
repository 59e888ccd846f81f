"""Line breaking for the terminal demo, as a reader of either language expects it.

rich breaks a line only at spaces: an unspaced Chinese sentence is one "word" to it, pushed
whole onto the next line and then chopped anywhere. Here a line may also break between
any two CJK characters (or between one and a Latin word), but never so that closing
punctuation (。，、：；！？）」』” …) starts a line or opening punctuation (（「『“ …) ends
one (simple kinsoku), never right after an emoji (it stays with the text it heads), and
never inside a Latin word or a number unless it is wider than the whole line. Widths are
terminal cells, as rich counts them (a CJK character is 2).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from rich.cells import split_graphemes

# Never at the start of a line: the full-width ones read as CJK, the ASCII ones only
# forbid the break (between two Latin characters there is none anyway).
CJK_CLOSE = frozenset("。，、：；！？）」』”’》】〕〉〗…～．")
NO_START = CJK_CLOSE | frozenset(",.;:!?)]}%")
# Never at the end of a line: opening punctuation, and what heads a name (/圣杯, @阿明).
CJK_OPEN = frozenset("（「『“‘《【〔〈〖")
NO_END = CJK_OPEN | frozenset("([{/@#")

SPACE, WIDE, EMOJI, OTHER = "space", "wide", "emoji", "other"


def _kind(grapheme: str, cells: int) -> str:
    first = grapheme[0]
    if first.isspace():
        return SPACE
    if first in CJK_CLOSE or first in CJK_OPEN:
        return WIDE
    category = unicodedata.category(first)
    if category == "So":
        return EMOJI
    if cells == 2 and category[0] in "LNP":
        return WIDE
    return OTHER


def _break_allowed(i: int, texts: list[str], kinds: list[str]) -> bool:
    """May a line end before grapheme ``i``?"""
    if kinds[i] == SPACE or texts[i][0] in NO_START:
        return False
    j = i - 1
    while j >= 0 and kinds[j] == SPACE:
        j -= 1
    if j < 0 or kinds[j] == EMOJI or texts[j][-1] in NO_END:
        return False
    if j < i - 1:  # a space between
        return True
    return kinds[j] == WIDE or kinds[i] in (WIDE, EMOJI)


def break_offsets(text: str, width: int) -> list[int]:
    """Where to break one line of ``text`` (no newline in it) so that every line fits in
    ``width`` cells, trailing spaces aside: string offsets, as rich's ``Text.divide`` takes.
    Greedy: each line takes as much as fits and ends at the last place a break is allowed;
    where there is none (a word wider than the line), it is folded at the width."""
    spans, _ = split_graphemes(text)
    texts = [text[start:end] for start, end, _ in spans]
    cells = [c for _, _, c in spans]
    kinds = [_kind(g, c) for g, c in zip(texts, cells, strict=True)]
    allowed = [i > 0 and _break_allowed(i, texts, kinds) for i in range(len(spans))]
    breaks: list[int] = []
    line_start = used = 0  # the line's first grapheme; its cells so far, spaces and all
    last_break: int | None = None
    for i, kind in enumerate(kinds):
        if allowed[i] and i > line_start:
            last_break = i
        while kind != SPACE and i > line_start and used + cells[i] > width:
            cut = i if last_break is None else last_break
            while texts[cut][0] in NO_START and cut - 1 > line_start:
                cut -= 1  # fold early rather than start a line with 。
            breaks.append(spans[cut][0])
            line_start, used = cut, sum(cells[cut:i])
            last_break = next((j for j in range(i, cut, -1) if allowed[j]), None)
        used += cells[i]
    return breaks


def wrap(text: str, width: int) -> list[str]:
    """``text`` as lines of at most ``width`` cells (trailing spaces aside); joined, they
    give back ``text``."""
    lines: list[str] = []
    for line in text.split("\n"):
        cuts = [0, *break_offsets(line, width), len(line)]
        lines.extend(line[a:b] for a, b in pairwise(cuts))
    return lines


class Prose:
    """A rich renderable: styled text wrapped by :func:`break_offsets` instead of at spaces
    only. ``Prose.from_markup("…")`` where ``console.print("…")`` would be used."""

    def __init__(self, text: Any) -> None:
        self.text = text

    @classmethod
    def from_markup(cls, markup: str) -> Prose:
        from rich.text import Text

        return cls(Text.from_markup(markup))

    def __rich_console__(self, console: Any, options: Any) -> Iterable[Any]:
        from rich.containers import Lines
        from rich.text import Text

        width = options.max_width
        lines = Lines()
        for line in self.text.split(allow_blank=True):
            for piece in line.divide(break_offsets(line.plain, width)):
                piece.rstrip_end(width)
                piece.truncate(width)  # only a grapheme wider than the line itself
                lines.append(piece)
        yield from Text("\n").join(lines).render(console, end=self.text.end)

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        return Measurement.get(console, options, self.text)
