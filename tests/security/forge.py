"""Payloads Discord's own client would not send, but a forged request (or a bug in
Discord's checks) can: a button press whose custom id was never on the message it names.
discord.py looks a pressed id up on the payload's copy of the message, so the forgery
puts it there too. Built by the local Discord as Discord would deliver it — the member
data and permissions are Discord's, only the ids are the attacker's."""

from __future__ import annotations

import dataclasses

from discord_emulator import Channel, Emulator, Message, User
from discord_emulator.interactions import InteractionResult

MESSAGE_COMPONENT = 3
BUTTON = 2


def press(emu: Emulator, user: User, message: Message, custom_id: str) -> InteractionResult:
    """``user`` presses a button with ``custom_id`` on ``message`` (whatever its real
    buttons are), in the message's channel."""
    channel: Channel = emu.ctx.world.channels[message.channel_id]
    data = {"custom_id": custom_id, "component_type": BUTTON}
    button = {"type": BUTTON, "style": 2, "label": "?", "custom_id": custom_id}
    claimed = dataclasses.replace(message, components=[{"type": 1, "components": [button]}])
    return emu.ctx.interactions.create(MESSAGE_COMPONENT, user, channel, data, locale=user.locale, source_message=claimed)
