"""How a player's ending reads: won or lost and why, the scores, their points, their
rating's move (``endings`` writes it; the Replay button is the replay's components')."""

from __future__ import annotations

import discord

from bot.core.messages import Ending
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.i18n import t, terms
from bot.render import words
from bot.render.outgoing import NEUTRAL, RENDERERS, Rendered
from bot.render.posts import PHASE_COLOUR
from bot.render.replies import names_of
from engine.values import FACTIONS

ENDING_TITLES = {"win": "ending.title_win", "shared": "ending.title_shared", "loss": "ending.title_loss"}
ENDING_COLOUR = {"win": PHASE_COLOUR["over"], "shared": PHASE_COLOUR["over"], "loss": NEUTRAL}


def _ending(m: Ending, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """A player's own ending: won or lost and why, the scores, their points, their rating's
    move, and the Replay button."""

    faction = terms.faction(m.faction, loc)
    winners = [terms.faction(w, loc) for w in m.winners]
    why = "ending.why_single" if len(winners) == 1 else "ending.why_shared"
    reason = t(f"end_reason.{m.reason or 'stopped'}", loc)
    lines = [t(why, loc, winners=words.listing(winners, loc), round=m.round, reason=reason)]
    fate = t("ending.fate_alive" if m.alive else "ending.fate_departed", loc)
    player = words.seat_label(m.seat, names_of(info, loc) if info else {})
    lines.append(t("ending.you", loc, player=player, faction=faction, class_name=terms.class_name(m.class_id, loc), fate=fate))
    scores = sorted(dict(m.scores or {}).items(), key=lambda kv: -kv[1])
    shown = [f"{terms.faction(f, loc)} **{v}**" if f == m.faction else f"{terms.faction(f, loc)} {v}" for f, v in scores]
    lines.append(t("ending.scores", loc, scores=" · ".join(shown)))
    if m.head_starts:
        given = [f"{terms.faction(f.value, loc)} +{m.head_starts[f.value]}" for f in FACTIONS if f.value in m.head_starts]
        lines.append(t("ending.head_starts", loc, starts=words.listing(given, loc)))
    points = dict(m.points or {})
    parts = [t(f"ending.points_{k}", loc, points=points[k]) for k in ("allocation", "steal", "kill", "survivors") if points.get(k)]
    if parts:
        lines.append(t("ending.points", loc, faction=faction, total=points.get("total", 0), parts=words.listing(parts, loc)))
    else:
        lines.append(t("ending.points_none", loc, faction=faction))
    if points.get("teamkills"):
        lines.append(t("ending.teamkills", loc, count=points["teamkills"]))
    rating = m.rating
    if isinstance(rating, dict):
        after = float(rating["after"] or 0)
        if rating.get("before") is None:
            lines.append(t("ending.rating_first", loc, after=_signed(after, plus="")))
        else:
            before = float(rating["before"] or 0)
            lines.append(t("ending.rating", loc, before=_signed(before, plus=""), after=_signed(after, plus=""), delta=_signed(after - before)))
    lines.append(t("ending.replay", loc))
    title = t(ENDING_TITLES.get(m.result, "ending.title_loss"), loc, game=msg.game_id or 0)
    embed = discord.Embed(title=title, description="\n".join(lines)[:4096], colour=ENDING_COLOUR.get(m.result, NEUTRAL))
    return Rendered(embeds=[embed])


def _signed(x: float, plus: str = "+") -> str:
    """A rating to one decimal, with a true minus sign (and ``plus`` before the others)."""
    return f"{plus if x >= 0 else '−'}{abs(x):.1f}"


RENDERERS.add(Ending, _ending)
