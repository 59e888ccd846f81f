"""Sending a command of ``bot.features.play.commands`` from a slash command or a panel
component, and its refusals worded for Discord.

A night's orders and a Dusk's identifications are each one submission, but players send
them a piece at a time (``/act attack``, then ``/act skill``). The service adds each piece
to what is stored, under the game's lock, so two pieces sent at once are both kept, and
the engine accepts or refuses the whole: no rule is decided here, and nothing typed is
resolved here either (the service resolves names, skills and guesses from the caller's
view in the same unit of work). A panel's command is pinned to the phase the panel was
drawn for (``round_no``), so one that arrives after the phase closed is refused rather
than carried into the next one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.errors import GameNotStartedError, GuessRefusedError, SwitchNotToggleError
from bot.core.types import PlayerView, Receipt
from bot.core.views import player_view
from bot.discord.errors import ReplyError
from bot.features.play.commands import Sending, Withdraw, handle
from bot.features.play.look import skill_label
from bot.render import words
from bot.render.sheet import identify_rule

if TYPE_CHECKING:
    from bot.discord.client import WolfBot


async def view_of(bot: WolfBot, user_id: int, game_id: int) -> PlayerView:
    return await player_view(bot.db, user_id, game_id)


def refused_guess(exc: GuessRefusedError, locale: str) -> Exception:
    """A guess outside the class's rule is refused with the rule itself, in ``locale``
    (when the caller's sheet is known); any other refusal as it is."""
    if exc.sheet is None:
        return exc
    rule = words.clauses(identify_rule(exc.sheet, locale).splitlines(), locale)
    return ReplyError("reply.error.identify_rule", rule=rule)


async def send(
    bot: WolfBot,
    command: Sending,
    user_id: int,
    *,
    channel_id: int | None = None,
    game_id: int | None = None,
    round_no: int | None = None,
    locale: str = "en-US",
) -> Receipt:
    """``service.handle`` of ``command``: the game ``game_id`` names (a panel's), else
    the game of ``channel_id`` (a server channel; None in a DM) or the caller's one live
    game (a slash command's, whose player is told a game has not started rather than
    how to start it). The receipt carries the caller's view after it."""
    try:
        receipt: Receipt = await handle(bot.db, command, user_id, channel_id, game_id=game_id, round_no=round_no)
    except GuessRefusedError as exc:
        raise refused_guess(exc, locale) from None
    except SwitchNotToggleError as exc:
        raise ReplyError("reply.error.switch_not_toggle", skill=skill_label(exc.params["class_id"], exc.params["skill"], locale)) from None
    except GameNotStartedError:
        if game_id is not None:
            raise
        raise ReplyError("reply.error.not_started") from None
    return receipt


async def withdraw(bot: WolfBot, user_id: int, kind: str, *, game_id: int, round_no: int | None) -> bool:
    """Withdraw what was sent of ``kind`` this phase: it is deleted, and no longer
    counts as sent. False when there was nothing to withdraw."""
    return await handle(bot.db, Withdraw(kind), user_id, game_id=game_id, round_no=round_no)
