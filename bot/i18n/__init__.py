"""Message catalogues (en-US, zh-CN, and zh-TW generated from zh-CN) and the locale rules of the bot."""

from bot.i18n.catalog import LOCALES, has_key, keys, normalize_locale, t
from bot.i18n.refusals import refusal_text

__all__ = ["LOCALES", "has_key", "keys", "normalize_locale", "refusal_text", "t"]
