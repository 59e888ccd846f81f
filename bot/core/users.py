"""What the bot remembers of a Discord user beyond their games: the language their client
uses, for the messages it sends them (DMs are written in it when they are queued)."""

from __future__ import annotations

from bot.core.errors import BadArgumentError
from bot.core.types import check_id
from bot.db import repositories as repo
from bot.db.session import Database


async def locale_of(db: Database, user_id: int) -> str | None:
    """The language a user last used with the bot (None: never seen), for a message the
    bot sends them directly rather than through the outbox (a warning to a moderator)."""
    async with db.read() as s:
        return await repo.user_locale(s, user_id)


async def note_locale(db: Database, user_id: int, locale: str) -> bool:
    """A known user's client language, as their latest interaction shows it: from now on
    their DMs are written in it (a player who switched Discord's language; a newcomer
    seated by /mod replace, whose language the bot could not know). Someone the bot has
    never recorded is not recorded by this (False then)."""
    check_id(user_id, "user")
    if not isinstance(locale, str) or not 2 <= len(locale) <= 16:
        raise BadArgumentError(field="locale", reason="a locale such as en-US")
    # Read first: most calls change nothing, and a write would queue behind the games'.
    async with db.read() as s:
        known, recorded = await repo.recorded_locale(s, user_id)
    if known and recorded != locale:
        async with db.transaction() as s:
            await repo.set_user_locale(s, user_id, locale, db.now())
    return known
