"""The one error handler: every refusal becomes an ephemeral reply in the reader's
language, everything unexpected is logged with its context and answered with a short
apology (never a traceback).

Refusals come from three places, each with a message key and parameters:
:class:`engine.RuleViolation` (worded by ``bot.i18n.refusal_text``), :class:`bot.core.errors.ServiceError`
(``.key``/``.params``, worded by ``bot.render.refusals`` from the ``[svc]`` table of our
catalogues, with the names escaped and a setting named as its option here) and
:class:`ReplyError`, raised by the Discord layer itself (wrong place, a bad duration); a
name, skill or guess that resolves to nothing, a caller who is not a moderator and a
moderator's command the game refuses now are the service's
:class:`~bot.core.errors.WordedError`, worded from the same ``reply.error`` keys.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import RuleRefusedError, ServiceError, WordedError, catalogue_key
from bot.discord import answering, first_response, metering
from bot.discord.guild.permissions import permission_names
from bot.i18n import has_key, normalize_locale, refusal_text, t
from bot.render import words
from bot.render.refusals import service_refusal, worded_params
from engine import RuleViolation
from engine.classes import skill_names

log = logging.getLogger("wolfhowl.discord.errors")

ERROR_COLOUR = 0xB91C1C


class ReplyError(app_commands.AppCommandError):
    """A refusal decided by the Discord layer; ``key`` is a catalogue key. A list or
    tuple parameter is shown as a list in the reader's language."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en-US"))

    def text(self, locale: str) -> str:
        return t(self.key, locale, **worded_params(escaped_names(self.params), locale))


# Settings fields whose /mod settings option has another name.
SETTING_OPTIONS = {"vote_tie_rule": "vote_tie"}


# The parameters of a refusal that carry a name a user chose (a newcomer's, a player
# whose stats were asked for), the service's and the Discord layer's alike: escaped like
# every name the bot shows, so the one who raises the refusal cannot forget to.
NAME_PARAMS = ("name",)


def escaped_names(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with each name a user chose escaped (``words.player_name``)."""
    return {k: words.player_name(v) if k in NAME_PARAMS and isinstance(v, str) else v for k, v in params.items()}


def service_text(error: ServiceError, locale: str) -> str:
    if isinstance(error, RuleRefusedError):  # worded as the engine's refusals
        return service_refusal(error, locale)
    params = escaped_names(error.params)
    field = params.get("field")
    option = SETTING_OPTIONS.get(field, field) if isinstance(field, str) else None
    if not isinstance(error, WordedError) and has_key(catalogue_key(error.key)) and option is not None and has_key(f"cmd.name.{option}"):
        params["field"] = t(f"cmd.name.{option}", locale)  # a setting: shown as its command option
    return service_refusal(error, locale, params=params)


def unwrap(error: BaseException) -> BaseException:
    """The exception a command raised, out of discord.py's wrapper."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


# Refusals that say what to do next: start a whole night's orders or identifications
# over; a wounded player, who cannot act, can still say they are done for the night (so
# that an early close does not wait for them, which would tell the table someone is hurt).
HINTS = {"error.actions": "reply.hint_clear_orders", "error.identify": "reply.hint_clear_identify", "error.wounded": "reply.hint_pass"}
# The same by the refusal's reason: a toggle that forbids attacking, with an attack in
# the orders, says how to keep either one (``{skill}``: the toggle's name); a skill sent
# without its targets or points names the options of /act skill that carry them.
REASON_HINTS = {
    "reason.no_attack_tonight": "reply.hint_toggle",
    "reason.single_target": "reply.hint_targets",
    "reason.target_exact": "reply.hint_targets",
    "reason.target_count": "reply.hint_targets",
    "reason.amount_needed": "reply.hint_amount",
}


def _hint(error: BaseException, loc: str) -> str | None:
    params = getattr(error, "params", None)
    if not isinstance(params, dict):  # not a refusal of ours (a database error's SQL parameters)
        params = {}
    key = HINTS.get(getattr(error, "key", None) or "") or REASON_HINTS.get(str(params.get("reason", "")))
    if key is None:
        return None
    skill = params.get("skill")
    names = skill_names().get(skill) if isinstance(skill, str) else None
    return t(key, loc, skill=names[loc] if names else skill)  # type: ignore[index]


def error_text(error: BaseException, locale: str | None) -> str | None:
    """The localized text for a refusal, or None when ``error`` is a bug."""
    loc = normalize_locale(locale)
    text = _error_text(unwrap(error), loc)
    hint = _hint(unwrap(error), loc)
    if text is not None and hint is not None:
        text += "\n" + hint
    return text


def _error_text(error: BaseException, loc: str) -> str | None:
    if isinstance(error, ReplyError):
        return error.text(loc)
    if isinstance(error, ServiceError):
        return service_text(error, loc)
    if isinstance(error, RuleViolation):
        return refusal_text(error, loc)
    if isinstance(error, app_commands.TransformerError):
        return t("reply.error.bad_value", loc, value=str(error.value)[:100])
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("reply.error.guild_only", loc)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("reply.error.cooldown", loc, seconds=round(error.retry_after, 1))
    if isinstance(error, app_commands.BotMissingPermissions):
        return t("reply.error.bot_missing", loc, permissions=permission_names(error.missing_permissions, loc))
    if isinstance(error, app_commands.CheckFailure):
        return t("reply.error.not_allowed", loc)
    return None


def error_embed(text: str) -> discord.Embed:
    return discord.Embed(description=f"⚠️ {text}"[:4096], colour=ERROR_COLOUR)


def describe(interaction: discord.Interaction) -> str:
    """Who did what where, for the log (ids only: no message content, no tokens)."""
    what = interaction.command.qualified_name if interaction.command else None
    if what is None and isinstance(interaction.data, dict):
        found = interaction.data.get("custom_id") or interaction.data.get("name")
        what = str(found) if found else None
    return (
        f"interaction={interaction.id} type={interaction.type.name} what={what!r} "
        f"user={interaction.user.id} guild={interaction.guild_id} channel={interaction.channel_id}"
    )


async def send_ephemeral(interaction: discord.Interaction, embed: discord.Embed) -> None:
    try:
        await first_response.reply(interaction, embed=embed, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply (%s)", describe(interaction), exc_info=True)


def answered_elsewhere(interaction: discord.Interaction, error: BaseException) -> bool:
    """Our first response was refused as already given: another process connected with
    the same token (a deploy's overlap, when the old and the new bot both receive every
    interaction) acknowledged it first and answers it. Not a bug of ours: a second
    response from this process would have ``is_done()`` true."""
    original = unwrap(error)
    return (
        isinstance(original, discord.HTTPException)
        and original.code == first_response.ALREADY_ACKNOWLEDGED
        and not interaction.response.is_done()
    )


async def handle_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` with the refusal, or log the bug and apologise; nothing
    when another bot process answers it."""
    if answered_elsewhere(interaction, error):
        log.debug("answered by another process (%s)", describe(interaction))
        return
    locale = str(interaction.locale)
    text = error_text(error, locale)
    outcome = "refused"
    if text is None:
        original = unwrap(error)
        log.error("unexpected error (%s)", describe(interaction), exc_info=(type(original), original, original.__traceback__))
        text = t("reply.error.unexpected", normalize_locale(locale))
        outcome = "failed"
    await send_ephemeral(interaction, error_embed(text))
    metering.finished(interaction, outcome)


async def guarded(interaction: discord.Interaction, action: Callable[[], Awaitable[None]]) -> None:
    """Run a component's or modal's handler with the same error handling as commands
    (discord.py only logs what a dynamic item raises), counted as in hand until answered."""
    answering.hold(interaction)
    try:
        await action()
    except Exception as exc:
        await handle_error(interaction, exc)
    else:
        metering.finished(interaction, "answered")
