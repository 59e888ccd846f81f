"""Sending a submission from a command or a panel component.

A night's orders and a Dusk's identifications are each one submission, but players send
them a piece at a time (``/act attack``, then ``/act skill``). Here a piece is added to
what the player has already sent this phase and the whole is submitted again; the
engine (through the service) accepts or refuses the whole, so no rule is decided here.
Every call pins the phase it was meant for, so a piece that arrives after the phase
closed is refused rather than carried into the next one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import bot.service as service
from bot.service.types import Receipt
from bot.service.views import PlayerView

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

EMPTY_ORDERS: dict[str, Any] = {"kind": "orders", "actions": [], "toggles": []}
EMPTY_IDENTIFY: dict[str, Any] = {"kind": "identify", "guesses": []}


async def view_of(bot: WolfBot, user_id: int, game_id: int) -> PlayerView:
    return await service.player_view(bot.db, user_id, game_id)


async def _submit(
    bot: WolfBot, user_id: int, game_id: int, payload: dict[str, Any], round_no: int | None, phase: str
) -> Receipt:
    """``round_no`` pins the phase (a panel knows which one it was drawn for); a command
    pins nothing, so sending in the wrong phase gets the engine's "wrong phase" reply."""
    pin: dict[str, Any] = {} if round_no is None else {"expected_round": round_no, "expected_phase": phase}
    receipt = await service.submit_payload(bot.db, user_id, payload, game_id=game_id, **pin)
    if receipt.all_sent:
        bot.wake_scheduler()
    return receipt


def _dusk_pin(view: PlayerView, round_no: int | None) -> int | None:
    """Pieces are added to what was read in ``view``: pin them to that Dusk, so they can
    never land in another phase (outside Dusk, no pin: the engine says when to send)."""
    if round_no is not None:
        return round_no
    return view.game.round if view.game.phase == "dusk" else None


async def send_grail(bot: WolfBot, user_id: int, game_id: int, number: int, round_no: int | None = None) -> Receipt:
    return await _submit(bot, user_id, game_id, {"kind": "grail", "number": number}, round_no, "day")


async def send_vote(bot: WolfBot, user_id: int, game_id: int, seat: int, round_no: int | None = None) -> Receipt:
    return await _submit(bot, user_id, game_id, {"kind": "vote", "target": seat}, round_no, "morning")


async def add_guess(
    bot: WolfBot, view: PlayerView, user_id: int, target: int, what: str, value: str, round_no: int | None = None
) -> Receipt:
    """Add "seat ``target`` is ``value``" to this Dusk's identification."""
    current = view.sent.get("identify") or EMPTY_IDENTIFY
    guesses = [g for g in current.get("guesses", []) if not (g["target"] == target and g["what"] == what)]
    guesses.append({"target": target, "what": what, "value": value})
    return await _submit(bot, user_id, view.game.id, {"kind": "identify", "guesses": guesses}, _dusk_pin(view, round_no), "dusk")


async def add_action(
    bot: WolfBot,
    view: PlayerView,
    user_id: int,
    skill: str,
    targets: list[int],
    amount: int | None = None,
    round_no: int | None = None,
) -> Receipt:
    """Add one action to tonight's orders; ordering the same action again replaces it."""
    current = view.sent.get("orders") or EMPTY_ORDERS
    action: dict[str, Any] = {"skill": skill, "targets": targets}
    if amount is not None:
        action["amount"] = amount
    actions = [a for a in current.get("actions", []) if a["skill"] != skill] + [action]
    payload = {"kind": "orders", "actions": actions, "toggles": list(current.get("toggles", []))}
    return await _submit(bot, user_id, view.game.id, payload, _dusk_pin(view, round_no), "dusk")


async def flip_toggle(bot: WolfBot, view: PlayerView, user_id: int, skill: str, round_no: int | None = None) -> Receipt:
    """Switch a toggle skill on for tonight, or off if it was on."""
    current = view.sent.get("orders") or EMPTY_ORDERS
    toggles = set(current.get("toggles", []))
    toggles ^= {skill}
    payload = {"kind": "orders", "actions": list(current.get("actions", [])), "toggles": sorted(toggles)}
    return await _submit(bot, user_id, view.game.id, payload, _dusk_pin(view, round_no), "dusk")


async def clear(bot: WolfBot, view: PlayerView, user_id: int, kind: str, round_no: int | None = None) -> Receipt:
    """Withdraw tonight's orders or identifications (an empty one replaces them)."""
    payload = dict(EMPTY_ORDERS if kind == "orders" else EMPTY_IDENTIFY)
    return await _submit(bot, user_id, view.game.id, payload, _dusk_pin(view, round_no), "dusk")


def remove_action(view: PlayerView, skill: str) -> dict[str, Any]:
    current = view.sent.get("orders") or EMPTY_ORDERS
    return {
        "kind": "orders",
        "actions": [a for a in current.get("actions", []) if a["skill"] != skill],
        "toggles": [x for x in current.get("toggles", []) if x != skill],
    }
