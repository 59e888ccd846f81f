"""Sending a submission from a command or a panel component.

A night's orders and a Dusk's identifications are each one submission, but players send
them a piece at a time (``/act attack``, then ``/act skill``). The service adds each piece
to what is stored, under the game's lock (``service.add_action``, ``add_guess``,
``toggle_skill``; a command's ``service.action_piece`` and the like), so two pieces sent
at once are both kept, and the engine accepts or refuses the whole: no rule is decided
here. A panel's piece is pinned to the Dusk the panel was drawn for, so one that arrives
after the phase closed is refused rather than carried into the next one; a command reads
the caller's view and sends in one unit of work (:func:`command`), so what it resolved
its arguments against is the phase it sends in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import bot.service as service
import engine
from bot.discord.errors import ReplyError
from bot.render import words
from bot.render.sheet import identify_rule
from bot.service.errors import GameNotStartedError, RuleRefusedError
from bot.service.types import Receipt
from bot.service.views import PlayerView

if TYPE_CHECKING:
    from bot.discord.client import WolfBot


async def view_of(bot: WolfBot, user_id: int, game_id: int) -> PlayerView:
    return await service.player_view(bot.db, user_id, game_id)


async def _submit(
    bot: WolfBot, user_id: int, game_id: int, payload: dict[str, Any], round_no: int | None, phase: str
) -> Receipt:
    """``round_no`` pins the phase (a panel knows which one it was drawn for); a command
    pins nothing, so sending in the wrong phase gets the engine's "wrong phase" reply."""
    pin: dict[str, Any] = {} if round_no is None else {"expected_round": round_no, "expected_phase": phase}
    return await service.submit_payload(bot.db, user_id, payload, game_id=game_id, **pin)


def _game_id(view: PlayerView | int) -> int:
    return view if isinstance(view, int) else view.game.id


def _dusk_pin(view: PlayerView | int, round_no: int | None) -> int | None:
    """The Dusk a piece is meant for: the panel's, or the one the player was looking at
    in ``view`` (outside Dusk, no pin: the engine says when to send). A panel, whose
    ``round_no`` pins the Dusk, may pass the game's id for ``view``: nothing more is read."""
    if round_no is not None:
        return round_no
    assert not isinstance(view, int), "a piece without a pin needs the player's view"
    return view.game.round if view.game.phase == "dusk" else None


async def send_grail(bot: WolfBot, user_id: int, game_id: int, number: int, round_no: int | None = None) -> Receipt:
    return await _submit(bot, user_id, game_id, {"kind": "grail", "number": number}, round_no, "day")


async def send_vote(bot: WolfBot, user_id: int, game_id: int, seat: int, round_no: int | None = None) -> Receipt:
    return await _submit(bot, user_id, game_id, {"kind": "vote", "target": seat}, round_no, "morning")


def refused_guess(exc: RuleRefusedError, sheet: dict[str, Any] | None, locale: str) -> Exception:
    """A guess outside the class's rule is refused with the rule itself, in ``locale``
    (when the caller's ``sheet`` is known); any other refusal as it is."""
    if exc.params.get("reason") != "reason.identify_rule" or sheet is None:
        return exc
    rule = words.clauses(identify_rule(sheet, locale).splitlines(), locale)
    return ReplyError("reply.error.identify_rule", rule=rule)


async def command(
    bot: WolfBot, user_id: int, channel_id: int | None, ask: Callable[[PlayerView], service.Asked], *, locale: str
) -> Receipt:
    """A command's submission in one unit of work (``service.submit_here``): the game of
    ``channel_id`` (a server channel; None in a DM) or the caller's one live game,
    locked; ``ask`` turns the command's arguments into what to send against the caller's
    view (a ReplyError from it refuses the command and nothing is stored). The receipt
    carries the view after it."""
    seen: list[PlayerView] = []

    def asking(pv: PlayerView) -> service.Asked:
        seen.append(pv)
        return ask(pv)

    try:
        receipt = await service.submit_here(bot.db, user_id, channel_id, asking)
    except RuleRefusedError as exc:
        raise refused_guess(exc, seen[-1].sheet if seen else None, locale) from None
    except GameNotStartedError:  # a player is told it has not started, not how to start it
        raise ReplyError("reply.error.not_started") from None
    return receipt


async def add_guess(
    bot: WolfBot,
    view: PlayerView | int,
    user_id: int,
    target: int,
    what: str,
    value: str,
    round_no: int | None = None,
    *,
    locale: str = "en-US",
) -> Receipt:
    """Add "seat ``target`` is ``value``" to this Dusk's identification. A guess outside
    the class's rule is refused with the rule itself, in ``locale``."""
    guess = engine.Guess(target, what, value)  # type: ignore[arg-type]  # the engine checks ``what``
    try:
        receipt = await service.add_guess(bot.db, user_id, guess, game_id=_game_id(view), expected_round=_dusk_pin(view, round_no))
    except RuleRefusedError as exc:
        if exc.params.get("reason") != "reason.identify_rule":
            raise
        if isinstance(view, int):  # the sheet, for the rule, only when it is needed
            view = await view_of(bot, user_id, view)
        raise refused_guess(exc, view.sheet, locale) from None
    return receipt


async def add_action(
    bot: WolfBot,
    view: PlayerView | int,
    user_id: int,
    skill: str,
    targets: list[int],
    amount: int | None = None,
    round_no: int | None = None,
) -> Receipt:
    """Add one action to tonight's orders; ordering the same action again replaces it."""
    action = engine.Action(skill, tuple(targets), amount)
    receipt = await service.add_action(bot.db, user_id, action, game_id=_game_id(view), expected_round=_dusk_pin(view, round_no))
    return receipt


async def flip_toggle(
    bot: WolfBot, view: PlayerView | int, user_id: int, skill: str, round_no: int | None = None, *, on: bool | None = None
) -> Receipt:
    """Switch a toggle skill on for tonight (``on=True``), off (``on=False``), or the other
    way than it is (``on=None``: a repeated command flips it back)."""
    receipt = await service.toggle_skill(bot.db, user_id, skill, on=on, game_id=_game_id(view), expected_round=_dusk_pin(view, round_no))
    return receipt


async def clear(bot: WolfBot, view: PlayerView | int, user_id: int, kind: str, round_no: int | None = None) -> bool:
    """Withdraw tonight's orders or identifications: they are deleted, and no longer
    count as sent. False when there was nothing to withdraw."""
    pin = _dusk_pin(view, round_no)
    where: dict[str, Any] = {} if pin is None else {"expected_round": pin, "expected_phase": "dusk"}
    return await service.withdraw_submission(bot.db, user_id, kind, game_id=_game_id(view), **where)


async def pass_night(bot: WolfBot, view: PlayerView, user_id: int, round_no: int | None = None) -> Receipt:
    """Do nothing tonight: empty orders replace any sent, and count as sent (a wounded
    player, who can order nothing else, passes this way)."""
    return await _submit(bot, user_id, view.game.id, {"kind": "orders", "actions": [], "toggles": []}, _dusk_pin(view, round_no), "dusk")
