"""How practice reads: a practice game's first Day, Dusk and Morning explained."""

from __future__ import annotations

import discord

from bot.core.messages import PhaseExplained
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.i18n import t
from bot.render.outgoing import NEUTRAL, RENDERERS, Rendered
from bot.render.posts import PHASE_COLOUR


def _phase_explained(m: PhaseExplained, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """A practice game's first Day, Dusk or Morning: what it is for, the rule that matters."""
    title = t("practice.explain_title", loc, phase=t(f"phase.{m.phase}", loc))
    embed = discord.Embed(title=title, description=t(f"practice.explain_{m.phase}", loc), colour=PHASE_COLOUR.get(m.phase, NEUTRAL))
    return Rendered(embeds=[embed])


RENDERERS.add(PhaseExplained, _phase_explained)
