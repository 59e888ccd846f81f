"""The replay's score-by-round chart: an inline SVG line chart (no script, no font file:
the page's own text settles the labels), one line per faction, the winning score dashed.
The survivor bonus at the end (+2 a living seat) is a dotted step of its own after the
last round, in a shaded band with its label, as on the end-of-game scoreboard
(``bot.render.chart``): it is no round's play."""

from __future__ import annotations

from html import escape

from bot.render.palette import FACTION_HEX, FACTIONS

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 44, 120, 16, 36


def score_svg(
    by_round: list[tuple[int, dict[str, int]]], labels: dict[str, str], winners: list[str], win_score: int, title: str, axis_round: str,
    *, survivors: dict[str, int] | None = None, survivors_label: str = "",
) -> str:
    """``by_round``: (round, scores at its end) in order, the last with the survivor bonus
    in it; ``labels``: each faction's name; ``survivors``: each faction's bonus."""
    bonus = {f: v for f, v in (survivors or {}).items() if v}
    if bonus and by_round:  # the last round's own scores, then the bonus as a step
        last_round, ending = by_round[-1]
        by_round = [*by_round[:-1], (last_round, {f: ending.get(f, 0) - bonus.get(f, 0) for f in FACTIONS})]
        finals = ending
    else:
        finals = by_round[-1][1] if by_round else {}
    top = max([win_score, *(v for _, s in by_round for v in s.values()), *finals.values()], default=1) or 1
    rounds = [r for r, _ in by_round] or [1]
    first, last = min(rounds), max(rounds) + (1 if bonus else 0)
    span = max(last - first, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(r: int) -> float:
        return LEFT + (r - first) / span * plot_w if last > first else LEFT + plot_w / 2

    def y(v: float) -> float:
        return TOP + plot_h - v / top * plot_h

    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{LEFT + plot_w}" y2="{y(0):.1f}" stroke="#9ca3af"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{y(0):.1f}" stroke="#9ca3af"/>',
    ]
    step = max(1, round(top / 5))
    for v in range(0, top + 1, step):
        out.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="11" fill="#6b7280">{v}</text>')
    out.append(f'<line x1="{LEFT}" y1="{y(win_score):.1f}" x2="{LEFT + plot_w}" y2="{y(win_score):.1f}" stroke="#f59e0b" stroke-dasharray="5 4"/>')
    every = max(1, round(len(rounds) / 12))
    if bonus:
        x0, x1 = x(last - 1), x(last)
        out.append(f'<rect x="{x0:.1f}" y="{TOP}" width="{x1 - x0:.1f}" height="{plot_h}" fill="#f3f4f6"/>')
        # Above the plot, not among the rounds' numbers: it is wider than the band.
        out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{TOP - 4}" text-anchor="middle" font-size="10" fill="#6b7280">{escape(survivors_label)}</text>')
    for i, r in enumerate(rounds):
        if i % every == 0 or r == rounds[-1]:
            out.append(f'<text x="{x(r):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" font-size="11" fill="#6b7280">{r}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle" font-size="12" fill="#6b7280">{escape(axis_round)}</text>')
    ends: list[tuple[float, str]] = []
    for f in FACTIONS:
        points = " ".join(f"{x(r):.1f},{y(s.get(f, 0)):.1f}" for r, s in by_round)
        width = 4 if f in winners else 2
        out.append(f'<polyline fill="none" stroke="{FACTION_HEX[f]}" stroke-width="{width}" points="{points}"/>')
        for r, s in by_round:
            out.append(f'<circle cx="{x(r):.1f}" cy="{y(s.get(f, 0)):.1f}" r="3" fill="{FACTION_HEX[f]}"/>')
        final = finals.get(f, 0)
        if bonus and by_round:
            before = by_round[-1][1].get(f, 0)
            out.append(
                f'<polyline class="survivors" fill="none" stroke="{FACTION_HEX[f]}" stroke-width="{width}" stroke-dasharray="2 3" '
                f'points="{x(last - 1):.1f},{y(before):.1f} {x(last):.1f},{y(final):.1f}"/>'
            )
            out.append(f'<circle cx="{x(last):.1f}" cy="{y(final):.1f}" r="3" fill="{FACTION_HEX[f]}"/>')
        ends.append((y(final), f"{labels[f]} {final}{' ★' if f in winners else ''}"))
    # End labels kept apart when the lines end close together.
    placed: list[float] = []
    for (ly, text), f in sorted(zip(ends, FACTIONS, strict=True)):
        ly = max(ly, placed[-1] + 14) if placed else ly
        placed.append(ly)
        out.append(f'<text x="{LEFT + plot_w + 8}" y="{ly + 4:.1f}" font-size="12" fill="{FACTION_HEX[f]}" font-weight="600">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)
