"""The slash commands: one ``commands.Cog`` class per feature, each command parsing its
options, calling one service function and rendering the answer; ``tree.install`` puts
them all on the command tree, ``groups`` holds the groups and decorators they share.

The moderators' commands live in ``/mod`` (a game opened, set, seated, ended) and
``/phase`` (its clock: advance, extend, pause, resume), both registered with
``default_member_permissions`` = Manage Server: Discord itself lists them only to members
with that permission (or to those a server admin lets see them in Server Settings →
Integrations). Discord applies no member permissions in DMs, and an admin may open a
group to anyone, so every one is still checked at run time: each is a command of
``bot.features.moderation.commands`` done by ``service.moderate``, which asks the access
policy with what ``bot.discord.guild.checks`` gathers of the caller.
"""
