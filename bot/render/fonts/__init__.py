"""The font the scoreboard chart draws Chinese with: a subset of Noto Sans CJK SC holding
only the characters the chart can show (see ``make_subset``), so the image needs no font
installed on the host. Licensed under the SIL Open Font License 1.1 (``OFL.txt``)."""

from __future__ import annotations

from pathlib import Path

CJK_FONT = Path(__file__).with_name("wolfhowl-cjk.otf")
FAMILY = "Wolf Howl CJK"
