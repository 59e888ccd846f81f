"""How a phase's prompt reads: what to send, by when (on the reader's own clock too), a
wounded player's odds, a first game's tip; its controls are the order panel's (the play
feature's components), drawn while its phase is still open."""

from __future__ import annotations

from datetime import datetime

from bot.core.messages import PhasePrompt
from bot.core.outbox import OutgoingMessage
from bot.core.time_zones import local
from bot.core.types import GameInfo
from bot.i18n import t
from bot.render.outgoing import NEUTRAL, RENDERERS, Rendered, iso_ts
from bot.render.posts import PHASE_COLOUR, wounded_lines
from bot.render.replies import notice_embed


def still_open(game: GameInfo | None, round_no: int, phase: str) -> bool:
    """Whether the phase a prompt opened (``phase`` of ``round_no``) is the game's still,
    running or paused: a prompt delivered after it closed carries no controls."""
    return game is not None and (game.round, game.phase) == (round_no, phase) and game.status in ("running", "paused")


def _prompt(m: PhasePrompt, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """A phase's prompt: what to send, by when (its controls, the order panel of the
    phase drawn from the seat's sheet, are the play feature's). A wounded player is told
    what still counts and the odds of the coming roll; at Dusk they get no night orders
    to give."""
    deadline = f"<t:{iso_ts(m.deadline)}:R>" if m.deadline else t("post.no_deadline", loc)
    if m.deadline and m.zone:  # the hour on the reader's own clock, in words
        deadline = t("tz.deadline", loc, deadline=deadline, time=f"{local(datetime.fromisoformat(m.deadline), m.zone):%H:%M}", zone=m.zone)
    key = "prompt.dusk_wounded" if m.phase == "dusk" and m.wounded else f"prompt.{m.phase}"
    lines = [t(key, loc, round=m.round, deadline=deadline)]
    if isinstance(m.wounded, dict):
        lines += wounded_lines(m.wounded, loc, passing=False)
    if m.tip:
        lines.append(t(f"prompt.tip_{m.phase}", loc))
    if not still_open(info, m.round, m.phase):
        lines.append(t("prompt.closed", loc))
    embed = notice_embed("\n".join(lines), PHASE_COLOUR.get(m.phase, NEUTRAL))
    if info is None or info.guild_id is not None:  # (a practice game prompts its person always)
        embed.set_footer(text=t("prompt.turn_off", loc))
    return Rendered(embeds=[embed])


RENDERERS.add(PhasePrompt, _prompt)
