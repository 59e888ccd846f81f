"""A player's command that sends something, in one unit of work.

A command (``/grail 42``, ``/identify Bob knight``, ``/act skill …``) names players and
skills that only the caller's view of their game resolves (the seats, their class). The
game is locked first, the caller's view is read from what the submission reads anyway
(the game with their unread count, every player row, the open phase's submissions), the
command turns its arguments into what to send against that view (``ask``), and the
submission is validated and stored: one transaction, and no second read of the game.
Whatever ``ask`` raises (an unknown player, a skill the class lacks) refuses the command
and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable

import engine
from bot.db.session import Database
from bot.service.common import check_id, state_of
from bot.service.errors import BadArgumentError
from bot.service.pieces import Piece
from bot.service.submissions import SUBMISSION_TYPES, locked_seat, validated
from bot.service.types import Receipt
from bot.service.views import PlayerView

# What a command sends: a whole submission, or one piece of a Dusk's.
Asked = engine.Submission | Piece


async def submit_here(db: Database, user_id: int, channel_id: int | None, ask: Callable[[PlayerView], Asked]) -> Receipt:
    """Lock the game a command is about (the live game of ``channel_id``, a server
    channel, when it has one, else the caller's one live game), give ``ask`` the caller's
    view of it and store what it returns for the open phase. The receipt carries the view
    just after (``Receipt.view``)."""
    check_id(user_id, "user")
    if channel_id is not None:
        check_id(channel_id, "channel")
    now = db.now()
    async with db.transaction() as s:
        turn = await locked_seat(s, user_id, None, None, None, channel_id=channel_id)
        rows = await turn.phase_rows(s)
        state = state_of(turn.game)
        asked = ask(await turn.view(s, state, rows))
        if isinstance(asked, Piece):
            whole = asked.whole(rows, turn.seat)
        elif isinstance(asked, SUBMISSION_TYPES):
            whole = asked
        else:
            raise BadArgumentError(field="submission", reason="not a submission")
        normal = validated(state, turn.game, turn.seat, whole)
        return await turn.store(s, normal, now, state, rows)
