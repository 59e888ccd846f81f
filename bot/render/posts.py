"""Public posts in the game channel: phase openings, the dawn and morning announcements,
the final scoreboard. Built only from public events and public phase facts."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t, terms
from bot.render import words
from bot.render.events import render_event
from bot.render.fields import add_lines
from engine.events import Audience, Event

PHASE_COLOUR = {"day": 0xF59E0B, "dusk": 0x7C3AED, "morning": 0xF97316, "over": 0x10B981}


def deadline_text(deadline_ts: int | None, locale: str | None) -> str:
    """When a phase closes: the date and time, then how long from now. Discord renders
    each <t:…> in the reader's own time zone and language, and keeps the relative one
    current, so a post read hours later still says how long is left."""
    return t("post.deadline", locale, ts=deadline_ts) if deadline_ts else t("post.no_deadline", locale)


def phase_opened(phase: str, round_no: int, deadline_ts: int | None, locale: str | None) -> str:
    return t(f"post.{phase}", locale, round=round_no, deadline=deadline_text(deadline_ts, locale))


def announcement_embed(events: list[Event], round_no: int, locale: str | None, names: dict[int, str], dawn: bool) -> discord.Embed:
    """The dawn report (night departures) or the morning announcement (the vote and what
    followed). Refuses to word anything that is not public."""
    public = [e for e in events if e.audience is Audience.PUBLIC and e.kind != "GameEnded"]
    if len(public) != len([e for e in events if e.kind != "GameEnded"]):
        raise ValueError("a public post was handed non-public events")
    title = t("post.dawn_title" if dawn else "post.announcement_title", locale, round=round_no)
    lines = [render_event(e, locale, names) for e in public]
    if dawn and not lines:
        lines = [t("post.dawn_quiet", locale)]
    return discord.Embed(title=title, description="\n".join(lines)[:4096], colour=PHASE_COLOUR["morning"])


def scoreboard_embed(ended: dict[str, Any], locale: str | None, seed: str | None, seed_sha: str | None) -> discord.Embed:
    """``ended`` is the GameEnded event's data: scores, winners, reason and the roster."""
    winners = [terms.faction(w, locale) for w in ended["winners"]]
    key = "post.scoreboard_title" if len(winners) == 1 else "post.scoreboard_title_shared"
    embed = discord.Embed(title=t(key, locale, winners=words.listing(winners, locale)), colour=PHASE_COLOUR["over"])
    embed.description = t("post.scoreboard_reason", locale, reason=t(f"end_reason.{ended['reason']}", locale))
    scores = "\n".join(
        t("post.score_line", locale, faction=terms.faction(f, locale), score=v) for f, v in sorted(ended["scores"].items(), key=lambda kv: -kv[1])
    )
    starts = ended.get("head_starts") or {}
    if starts:
        given = words.listing((f"{terms.faction(f, locale)} +{v}" for f, v in starts.items()), locale)
        scores += "\n" + t("post.score_head_starts", locale, starts=given)
    embed.add_field(name=t("post.scoreboard_scores", locale), value=scores, inline=False)
    roster = [
        t(
            "post.roster_line",
            locale,
            seat=p["seat"],
            name=words.shown_name(p["name"], locale),
            faction=terms.faction(p["faction"], locale),
            class_name=terms.class_name(p["class_id"], locale),
            dead="" if p["alive"] else t("post.roster_dead", locale),
        )
        for p in ended["roster"]
    ]
    add_lines(embed, t("post.scoreboard_roster", locale), roster)
    if seed and seed_sha:
        embed.set_footer(text=t("post.seed", locale, seed=seed, sha=seed_sha)[:2048])
    embed.set_image(url="attachment://scoreboard.png")
    return embed


# A player's news is titled by the phase whose close produced it (the grail at Day, the
# night's results at Dusk, the vote at Morning); news from a moderator's step is not.
PRIVATE_TITLES = {"day": "post.private_title_day", "dusk": "post.private_title_dusk", "morning": "post.private_title_morning"}


def private_embed(
    events: list[Event],
    round_no: int,
    locale: str | None,
    names: dict[int, str],
    phase: str = "",
    *,
    final: bool = False,
    wounded: dict[str, Any] | None = None,
) -> discord.Embed:
    """One player's news from one phase, in one message; ``phase`` is the phase that closed.
    ``final``: the game ended in this step (nothing advises a round to come); ``wounded``:
    the player is wounded after it (what still counts, the coming roll, how to pass)."""
    lines = [line for line in (render_event(e, locale, names, final=final) for e in events) if line]
    if wounded and not final:
        lines += wounded_lines(wounded, locale)
    title = t(PRIVATE_TITLES.get(phase, "post.private_title"), locale, round=round_no)
    return discord.Embed(title=title, description="\n".join(lines)[:4096], colour=0x4B5563)


def wounded_lines(wounded: dict[str, Any], locale: str | None, *, passing: bool = True) -> list[str]:
    """What a wounded player is told with their news and their reminders: what still
    counts, the odds of the coming wound roll (``wounded``: ``recover`` in percent,
    ``dies`` on a failure, ``tonight`` or a later night) and, with ``passing``, how to say
    "nothing tonight" at Dusk."""
    recover = int(wounded.get("recover", 50))
    when = t("wound.tonight" if wounded.get("tonight") else "wound.next_night", locale)
    roll = "wound.roll_dies" if wounded.get("dies") else "wound.roll_stays"
    lines = [t("wound.counts", locale), t(roll, locale, when=when, recover=recover, fail=100 - recover)]
    if passing:
        lines.append(t("wound.pass", locale))
    return lines
