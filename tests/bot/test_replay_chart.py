"""The replay page's own score chart (an inline SVG) draws the survivor bonus at the end
as a step of its own after the last round, as the end-of-game scoreboard does: the last
round's point shows what that round's play scored."""

from __future__ import annotations

import re

from bot.features.replay.look_chart import score_svg

LABELS = {"lawful": "Lawful", "neutral": "Neutral", "chaotic": "Chaotic"}
ROUNDS = [(1, {"lawful": 3, "neutral": 1, "chaotic": 2}), (2, {"lawful": 9, "neutral": 4, "chaotic": 6})]


def circles(svg: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg)]


def test_the_survivor_bonus_is_a_step_of_its_own() -> None:
    plain = score_svg(ROUNDS, LABELS, ["lawful"], 15, "Scores", "round")
    stepped = score_svg(ROUNDS, LABELS, ["lawful"], 15, "Scores", "round", survivors={"lawful": 4, "chaotic": 2}, survivors_label="survivors +2 each")
    assert 'class="survivors"' not in plain and "survivors +2 each" not in plain
    assert stepped.count('class="survivors"') == 3 and "survivors +2 each" in stepped
    assert len(circles(stepped)) == len(circles(plain)) + 3  # one more point a faction: the end
    # The end labels keep the final scores, bonus included.
    assert "Lawful 9 ★" in stepped and "Chaotic 6" in stepped and "Neutral 4" in stepped
    # Lawful's line ends at round 2 on its play's 5; its dotted step goes from there to 9.
    blue = re.search(r'<polyline fill="none" stroke="(#[0-9a-fA-F]+)" stroke-width="4" points="([^"]+)"', stepped)
    assert blue is not None
    line_end = float(blue[2].split()[-1].split(",")[1])
    step = re.search(rf'<polyline class="survivors" fill="none" stroke="{blue[1]}"[^>]*points="([^"]+)"', stepped)
    assert step is not None
    (_, y0), (_, y1) = (map(float, p.split(",")) for p in step[1].split())
    assert y0 == line_end and y1 < y0  # up from 5 to 9 (SVG's y grows downwards)
    height = 300 - 16 - 36  # the plot's height: 15 points span it
    assert abs((y0 - y1) - 4 / 15 * height) < 0.2


def test_without_a_bonus_nothing_changes() -> None:
    assert score_svg(ROUNDS, LABELS, [], 15, "S", "r", survivors={}) == score_svg(ROUNDS, LABELS, [], 15, "S", "r")
