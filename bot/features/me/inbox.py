"""A user's side of the bot's private messages: the inbox, where a DM that could not
reach them waits (closed DMs; see ``mark_undeliverable`` in :mod:`bot.core.outbox`)
until ``/inbox`` shows it.

``read_inbox`` lists a user's undeliverable DMs (unread first), ``mark_inbox_read``
marks the ones shown.
"""

from __future__ import annotations

from bot.core.errors import BadArgumentError
from bot.core.outbox import OutgoingMessage
from bot.core.types import check_id
from bot.db.repos import inbox as inbox_repo
from bot.db.session import Database


async def read_inbox(
    db: Database, user_id: int, *, unread_only: bool = False, mark_read: bool = True
) -> list[OutgoingMessage]:
    """The messages that could not reach this user by DM: the unread ones first, then
    (unless ``unread_only``) those already read, each group oldest first. Each carries
    its ``read_at`` as it was before this call. With ``mark_read`` every one listed is
    marked read; a caller that shows only some of them passes ``mark_read=False`` and
    then calls :func:`mark_inbox_read` with the keys it showed."""
    check_id(user_id, "user")
    unit = db.transaction() if mark_read else db.read()
    async with unit as s:
        rows = await inbox_repo.inbox_messages(s, user_id, unread_only=unread_only)
        messages = [OutgoingMessage.of(r) for r in rows]
        if mark_read:
            now = db.now()
            for row in rows:
                if row.read_at is None:
                    row.read_at = now
        return messages


async def mark_inbox_read(db: Database, user_id: int, keys: list[str]) -> int:
    """Mark these messages of ``user_id``'s inbox read (those shown to them); returns how
    many were unread. Keys of other users' messages are ignored."""
    check_id(user_id, "user")
    if not isinstance(keys, list | tuple) or not all(isinstance(k, str) for k in keys):
        raise BadArgumentError(field="keys", reason="idempotency keys")
    if not keys:
        return 0
    async with db.transaction() as s:
        return await inbox_repo.mark_read(s, user_id, keys, db.now())
