"""A local Discord API emulator that the unmodified discord.py client can use.

It imports nothing of the game. Typical use (README.md has a whole example, and
``tests/emulator`` complete scenarios)::

    async with Emulator(heartbeat_interval=1.0) as emu:
        guild = emu.create_guild("Tavern")
        alice = emu.create_user("alice", locale="zh-CN")
        emu.add_member(guild, alice)
        with emu.patch_discord():
            async with running(bot, emu.token):
                result = await emu.slash(alice, "roll", {"sides": 6}, guild=guild)
                await result.wait()
"""

from . import permissions
from .context import SandboxConfig
from .errors import ApiError
from .interactions import BotNotConnected, InteractionFailed, InteractionResult
from .options import InvalidInvocation
from .recorder import RequestRecord
from .server import Emulator
from .state import Attachment, Channel, Guild, Member, Message, Role, User

__all__ = [
    "ApiError",
    "Attachment",
    "BotNotConnected",
    "Channel",
    "Emulator",
    "Guild",
    "InteractionFailed",
    "InteractionResult",
    "InvalidInvocation",
    "Member",
    "Message",
    "RequestRecord",
    "Role",
    "SandboxConfig",
    "User",
    "permissions",
]
