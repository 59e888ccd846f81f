"""Discord's permission arithmetic (roles, owner, administrator, overwrites).

The emulator needs real permission resolution for three reasons: interactions
carry ``member.permissions`` / ``app_permissions`` computed per channel, REST
routes must refuse what the bot may not do (403 50001/50013), and commands
with ``default_member_permissions`` are hidden from users lacking them.
The algorithm mirrors Discord's documented one ("Permission Overwrites").
"""

from __future__ import annotations

from .state import Channel, Guild, Member

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_AUDIT_LOG = 1 << 7
PRIORITY_SPEAKER = 1 << 8
STREAM = 1 << 9
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
VIEW_GUILD_INSIGHTS = 1 << 19
CONNECT = 1 << 20
SPEAK = 1 << 21
MUTE_MEMBERS = 1 << 22
DEAFEN_MEMBERS = 1 << 23
MOVE_MEMBERS = 1 << 24
USE_VAD = 1 << 25
CHANGE_NICKNAME = 1 << 26
MANAGE_NICKNAMES = 1 << 27
MANAGE_ROLES = 1 << 28
MANAGE_WEBHOOKS = 1 << 29
MANAGE_GUILD_EXPRESSIONS = 1 << 30
USE_APPLICATION_COMMANDS = 1 << 31
REQUEST_TO_SPEAK = 1 << 32
MANAGE_EVENTS = 1 << 33
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
USE_EXTERNAL_STICKERS = 1 << 37
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_EMBEDDED_ACTIVITIES = 1 << 39
MODERATE_MEMBERS = 1 << 40
VIEW_CREATOR_MONETIZATION_ANALYTICS = 1 << 41
USE_SOUNDBOARD = 1 << 42
CREATE_GUILD_EXPRESSIONS = 1 << 43
CREATE_EVENTS = 1 << 44
USE_EXTERNAL_SOUNDS = 1 << 45
SEND_VOICE_MESSAGES = 1 << 46
SEND_POLLS = 1 << 49
USE_EXTERNAL_APPS = 1 << 50

ALL = (1 << 51) - 1 & ~((1 << 47) | (1 << 48))

# What @everyone gets in a freshly created Discord server.
DEFAULT_EVERYONE = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | STREAM
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | USE_VAD
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
    | USE_EXTERNAL_STICKERS
    | SEND_VOICE_MESSAGES
    | SEND_POLLS
    | USE_EXTERNAL_APPS
)

# A typical invite link for a game bot: enough to run channels but not admin.
DEFAULT_BOT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | MANAGE_CHANNELS
    | MANAGE_ROLES
    | MANAGE_MESSAGES
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)

# Permissions an app has in a bot DM (what Discord reports as app_permissions).
DM_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
)


def base_permissions(guild: Guild, member: Member) -> int:
    """Guild-level permissions: owner and Administrator short-circuit to ALL."""
    if member.user.id == guild.owner_id:
        return ALL
    perms = guild.everyone_role.permissions
    for role_id in member.role_ids:
        role = guild.roles.get(role_id)
        if role is not None:
            perms |= role.permissions
    if perms & ADMINISTRATOR:
        return ALL
    return perms


def channel_permissions(guild: Guild, channel: Channel, member: Member) -> int:
    """Applies @everyone, role and member overwrites in Discord's order."""
    perms = base_permissions(guild, member)
    if perms & ADMINISTRATOR or member.user.id == guild.owner_id:
        return ALL
    overwrites = channel.overwrites
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        perms = (perms & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member.role_ids:
        ow = overwrites.get(role_id)
        if ow is not None and ow.type == 0:
            allow |= ow.allow
            deny |= ow.deny
    perms = (perms & ~deny) | allow
    own = overwrites.get(member.user.id)
    if own is not None and own.type == 1:
        perms = (perms & ~own.deny) | own.allow
    if not perms & VIEW_CHANNEL:
        # Without View Channel every other channel permission is implicitly denied.
        return 0
    return perms


def highest_role_position(guild: Guild, member: Member) -> int:
    positions = [guild.roles[r].position for r in member.role_ids if r in guild.roles]
    return max(positions, default=0)


def has(perms: int, needed: int) -> bool:
    return perms & needed == needed
