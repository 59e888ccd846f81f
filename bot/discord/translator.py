"""Command names, descriptions, option names and choices in both languages.

Every user-facing string of the command tree is a ``locale_str`` made by :func:`L`: its
message is the en-US text of a catalogue key (the default Discord shows) and its
``key`` extra names the entry; :class:`CatalogueTranslator` answers Discord's other
locales from the same catalogues, so commands and replies can never drift apart.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.catalog import catalogue

# Discord's locales we answer, mapped to our catalogues; the rest see the default.
LOCALE_MAP = {
    discord.Locale.american_english: "en-US",
    discord.Locale.british_english: "en-US",
    discord.Locale.chinese: "zh-CN",
    discord.Locale.taiwan_chinese: "zh-TW",
}


def L(key: str) -> app_commands.locale_str:
    """A translatable command string: the en-US text of ``key``, tagged with the key."""
    text = catalogue("en-US").get(key)
    if text is None:
        raise KeyError(f"no en-US text for command string {key!r}")
    return app_commands.locale_str(text, key=key)


def key_of(string: app_commands.locale_str | str) -> str | None:
    return string.extras.get("key") if isinstance(string, app_commands.locale_str) else None


class CatalogueTranslator(app_commands.Translator):
    """Translates the tree's ``locale_str`` values from the bot's catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = key_of(string)
        ours = LOCALE_MAP.get(locale)
        if key is None or ours is None:
            return None
        return catalogue(ours).get(key)
