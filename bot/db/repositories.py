"""Queries the service needs, in one place (no SQL in the use cases).

Every function takes the unit of work's session; none commits. ``lock_game`` is the
concurrency rule of the whole service: any unit of work that changes a game starts by
locking its row (``SELECT … FOR UPDATE`` on PostgreSQL; on SQLite the ``BEGIN
IMMEDIATE`` of the transaction already holds the database's write lock).

The queries of a player's every interaction are built once, at import, with named
parameters (``_P``): building a statement costs more Python than running it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, Literal, Protocol, cast, overload

from sqlalchemy import bindparam, case, delete, func, insert, literal, select, union_all, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import core
from bot.db.models import (
    Game,
    GamePlayer,
    GameStep,
    OutboxMessage,
    PlayerProfile,
    SeatRecord,
    Submission,
    User,
    table_of,
)

LIVE_STATUSES = ("lobby", "running", "paused")
MAX_ROW_ID = 2**31 - 1  # the tables' Integer primary keys


def _p(name: str) -> Any:
    """A named parameter of a prebuilt statement (given at execution)."""
    return bindparam(name)


# How many of a user's messages wait unread in their inbox, as a scalar subquery.
_UNREAD = (
    select(func.count())
    .where(
        OutboxMessage.recipient_kind == "user",
        OutboxMessage.recipient_id == _p("user_id"),
        OutboxMessage.status == "inbox",
        OutboxMessage.read_at.is_(None),
    )
    .scalar_subquery()
)
_LOCK_GAME = select(Game).where(Game.id == _p("game_id")).with_for_update().execution_options(populate_existing=True)
_LOCK_GAME_WITH_UNREAD = (
    select(Game, _UNREAD).where(Game.id == _p("game_id")).with_for_update(of=Game).execution_options(populate_existing=True)
)
_LOCK_GAME_IN_CHANNEL_WITH_UNREAD = (
    select(Game, _UNREAD)
    .where(Game.active_channel_id == _p("channel_id"))
    .with_for_update(of=Game)
    .execution_options(populate_existing=True)
)
_LOCK_GAME_OF_USER_WITH_UNREAD = (
    select(Game, _UNREAD)
    .join(GamePlayer, GamePlayer.game_id == Game.id)
    .where(GamePlayer.active_user_id == _p("user_id"))
    .with_for_update(of=Game)
    .execution_options(populate_existing=True)
)
_GAME_IN_CHANNEL = select(Game).where(Game.active_channel_id == _p("channel_id"))
# Reads that change nothing may take rows instead of entities: a row of a table read
# through Core has the entity's attribute names (every mapped attribute is its column's
# name) and costs a fraction of an entity (no identity map, no per-row bookkeeping), the
# more so run on the connection (``bot.db.core``). The hot reads of a player's interaction
# use them; what a unit of work changes is an entity.
_GAMES, _PLAYERS, _SUBMISSIONS = table_of(Game), table_of(GamePlayer), table_of(Submission)
_GAME_WITH_UNREAD = select(_GAMES, _UNREAD.label("unread")).where(_GAMES.c.id == _p("game_id"))
_GAME_IN_CHANNEL_WITH_UNREAD = select(_GAMES, _UNREAD.label("unread")).where(_GAMES.c.active_channel_id == _p("channel_id"))
_GAME_OF_USER_WITH_UNREAD = (
    select(_GAMES, _UNREAD.label("unread"))
    .join(_PLAYERS, _PLAYERS.c.game_id == _GAMES.c.id)
    .where(_PLAYERS.c.active_user_id == _p("user_id"))
)
_GAME_ROW = select(_GAMES).where(_GAMES.c.id == _p("game_id"))
_GAME_ROW_IN_CHANNEL = select(_GAMES).where(_GAMES.c.active_channel_id == _p("channel_id"))
_PLAYER_ROWS = select(_PLAYERS).where(_PLAYERS.c.game_id == _p("game_id")).order_by(_PLAYERS.c.id)
_IN_PHASE_ROWS = (
    _SUBMISSIONS.c.game_id == _p("game_id"),
    _SUBMISSIONS.c.round == _p("round"),
    _SUBMISSIONS.c.phase == _p("phase"),
)
_PHASE_SUBMISSION_ROWS = select(_SUBMISSIONS).where(*_IN_PHASE_ROWS).order_by(_SUBMISSIONS.c.seat, _SUBMISSIONS.c.kind)
_SEAT_SUBMISSION_ROWS = (
    select(_SUBMISSIONS).where(*_IN_PHASE_ROWS, _SUBMISSIONS.c.seat == _p("seat")).order_by(_SUBMISSIONS.c.kind)
)
_GAME_PLAYERS = select(GamePlayer).where(GamePlayer.game_id == _p("game_id")).order_by(GamePlayer.id)
_MEMBERSHIP = select(GamePlayer).where(GamePlayer.active_user_id == _p("user_id"))
_MEMBER = select(GamePlayer).where(GamePlayer.game_id == _p("game_id"), GamePlayer.user_id == _p("user_id"))
_IN_PHASE = (Submission.game_id == _p("game_id"), Submission.round == _p("round"), Submission.phase == _p("phase"))
_PHASE_SUBMISSIONS = select(Submission).where(*_IN_PHASE).order_by(Submission.seat, Submission.kind)
_SEAT_SUBMISSIONS = select(Submission).where(*_IN_PHASE, Submission.seat == _p("seat")).order_by(Submission.kind)
_SUBMISSION = select(Submission).where(*_IN_PHASE, Submission.seat == _p("seat"), Submission.kind == _p("kind"))
_SEATS_AND_KINDS = select(Submission.seat, Submission.kind).where(*_IN_PHASE)
_PHASE_AND_PLACE = (
    select(Game.id, Game.status, Game.round, Game.phase, GamePlayer.status.label("place"))
    .outerjoin(GamePlayer, (GamePlayer.game_id == Game.id) & (GamePlayer.user_id == _p("user_id")))
    .where(Game.id == _p("game_id"))
)
_RECORDED_LOCALE = select(User.locale).where(User.id == _p("user_id"))


# The finders of the game a request is about (``find_game``), each with the caller's
# unread inbox count: by its id, by the server channel it is played in, by the user who
# plays it; locked (an entity) for a writing unit, else a read-only row.
_FIND_LOCKED = {
    "game_id": select(Game, _UNREAD).where(Game.id == _p("key")),
    "channel_id": select(Game, _UNREAD).where(Game.active_channel_id == _p("key")),
    "user_id": select(Game, _UNREAD).join(GamePlayer, GamePlayer.game_id == Game.id).where(GamePlayer.active_user_id == _p("key")),
}
_FIND_LOCKED = {by: stmt.with_for_update(of=Game).execution_options(populate_existing=True) for by, stmt in _FIND_LOCKED.items()}
_FIND_READ = {
    "game_id": select(_GAMES, _UNREAD.label("unread")).where(_GAMES.c.id == _p("key")),
    "channel_id": select(_GAMES, _UNREAD.label("unread")).where(_GAMES.c.active_channel_id == _p("key")),
    "user_id": select(_GAMES, _UNREAD.label("unread"))
    .join(_PLAYERS, _PLAYERS.c.game_id == _GAMES.c.id)
    .where(_PLAYERS.c.active_user_id == _p("key")),
}


async def find_game(
    session: AsyncSession,
    *,
    game_id: int | None = None,
    channel_id: int | None = None,
    user_id: int | None = None,
    unread_of: int = 0,
    lock: bool = False,
) -> tuple[Any, int] | None:
    """The game with ``game_id``, or the live game of the server channel ``channel_id``,
    or the live game ``user_id`` holds a place in (exactly one of them), with
    ``unread_of``'s unread inbox count, in one statement: locked for the rest of the
    transaction and freshly read (an entity) with ``lock``, else a read-only row. None
    when there is none (also for an id no game can have, beyond the column's 32 bits)."""
    (by, key), = ((b, k) for b, k in (("game_id", game_id), ("channel_id", channel_id), ("user_id", user_id)) if k is not None)
    if by == "game_id" and not 0 < key <= MAX_ROW_ID:
        return None
    params = {"key": key, "user_id": unread_of}
    if lock:
        row = (await session.execute(_FIND_LOCKED[by], params)).first()
        return None if row is None else (row[0], int(row[1]))
    found = (await core.execute(session, _FIND_READ[by], params)).first()
    return None if found is None else (found, int(found.unread))


async def lock_game(session: AsyncSession, game_id: int) -> Game | None:
    """The game row, locked for the rest of the transaction, freshly read."""
    return (await session.execute(_LOCK_GAME, {"game_id": game_id})).scalar_one_or_none()


async def get_game(session: AsyncSession, game_id: int) -> Game | None:
    """None also for an id no game can have: beyond the column's 32 bits (PostgreSQL
    refuses to compare those; a moderator can type any number)."""
    if not 0 < game_id <= MAX_ROW_ID:
        return None
    return await session.get(Game, game_id)


async def live_game_in_channel(session: AsyncSession, channel_id: int) -> Game | None:
    return (await session.execute(_GAME_IN_CHANNEL, {"channel_id": channel_id})).scalar_one_or_none()


async def latest_game_in_channel(session: AsyncSession, channel_id: int, *, finished_first: bool = False) -> Game | None:
    """The channel's most recent game, live or finished; ``finished_first``: the most
    recent finished one, when there is one."""
    stmt = select(Game).where(Game.channel_id == channel_id)
    if finished_first:
        stmt = stmt.order_by(case((Game.status.in_(("over", "cancelled")), 0), else_=1))
    stmt = stmt.order_by(Game.id.desc()).limit(1)
    return (await session.execute(stmt)).scalar_one_or_none()


async def live_games(session: AsyncSession, moderator_id: int | None = None) -> list[Game]:
    """Every live game (lobby, running, paused), oldest first; only those of one
    moderator when ``moderator_id`` is given."""
    stmt = select(Game).where(Game.active_channel_id.is_not(None))
    if moderator_id is not None:
        stmt = stmt.where(Game.moderator_id == moderator_id)
    return list((await session.execute(stmt.order_by(Game.id))).scalars())


async def live_places_moderated_by(session: AsyncSession, user_id: int) -> list[tuple[int, int]]:
    """(id, channel) of every live game ``user_id`` created, oldest first."""
    stmt = select(Game.id, Game.channel_id).where(Game.active_channel_id.is_not(None), Game.moderator_id == user_id).order_by(Game.id)
    return [(int(i), int(c)) for i, c in (await session.execute(stmt)).all()]


async def phase_and_place(session: AsyncSession, game_id: int, user_id: int) -> Any:
    """A game's status, round and phase with ``place``, the status of the user's row in it
    (None when they have none), in one statement; None when there is no such game."""
    if not 0 < game_id <= MAX_ROW_ID:
        return None
    return (await core.execute(session, _PHASE_AND_PLACE, {"game_id": game_id, "user_id": user_id})).first()


class PlayerRow(Protocol):
    """A game's player as read: the entity, or a read-only row of its columns (what the
    use cases read of either)."""

    @property
    def id(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def display_name(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def former_seat(self) -> int | None: ...
    @property
    def status(self) -> str: ...
    @property
    def joined_at(self) -> datetime: ...
    @property
    def misses_in_row(self) -> int: ...
    @property
    def misses_total(self) -> int: ...


@overload
async def game_players(session: AsyncSession, game_id: int, *, rows: Literal[False] = False) -> list[GamePlayer]: ...
@overload
async def game_players(session: AsyncSession, game_id: int, *, rows: Literal[True]) -> list[PlayerRow]: ...
async def game_players(session: AsyncSession, game_id: int, *, rows: bool = False) -> list[GamePlayer] | list[PlayerRow]:
    """Every player row of a game (lobby, seated, replaced, removed…), in id order: the
    entities, or with ``rows`` read-only rows (see ``_GAMES`` above)."""
    if rows:
        # (a row of the players table has each column as an attribute: a PlayerRow)
        return cast(list[PlayerRow], list((await core.execute(session, _PLAYER_ROWS, {"game_id": game_id})).all()))
    return list((await session.execute(_GAME_PLAYERS, {"game_id": game_id})).scalars())


async def live_membership(session: AsyncSession, user_id: int) -> GamePlayer | None:
    """The lobby place or seat the user holds in a live game, if any."""
    return (await session.execute(_MEMBERSHIP, {"user_id": user_id})).scalar_one_or_none()


async def live_game_place(session: AsyncSession, user_id: int) -> dict[str, Any] | None:
    """Where the user plays now, for a refusal to name it: ``game_id`` and ``channel``
    (a mention, which Discord shows as a link to it)."""
    stmt = (
        select(Game.id, Game.channel_id)
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.active_user_id == user_id)
    )
    row = (await session.execute(stmt)).first()
    return None if row is None else {"game_id": row.id, "channel": f"<#{row.channel_id}>"}


async def upsert_user(
    session: AsyncSession, user_id: int, name: str, locale: str | None, now: datetime
) -> None:
    """Insert or refresh a user; concurrent calls for one user cannot collide."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    stmt = insert(User).values(id=user_id, display_name=name, locale=locale, created_at=now, updated_at=now)
    changes: dict[str, Any] = {"display_name": stmt.excluded.display_name, "updated_at": stmt.excluded.updated_at}
    if locale is not None:
        changes["locale"] = stmt.excluded.locale
    await session.execute(stmt.on_conflict_do_update(index_elements=[User.id], set_=changes))


async def recorded_locale(session: AsyncSession, user_id: int) -> tuple[bool, str | None]:
    """Whether the user is recorded, and the language recorded for them (may be None)."""
    row = (await core.execute(session, _RECORDED_LOCALE, {"user_id": user_id})).first()
    return (row is not None, row.locale if row is not None else None)


async def set_user_locale(session: AsyncSession, user_id: int, locale: str, now: datetime) -> None:
    await session.execute(update(User).where(User.id == user_id).values(locale=locale, updated_at=now))


async def user_locale(session: AsyncSession, user_id: int) -> str | None:
    return (await session.execute(select(User.locale).where(User.id == user_id))).scalar_one_or_none()


async def user_locales(session: AsyncSession, user_ids: Sequence[int]) -> dict[int, str | None]:
    rows = await session.execute(select(User.id, User.locale).where(User.id.in_(list(user_ids))))
    return {uid: loc for uid, loc in rows.all()}


async def hidden_users(session: AsyncSession, user_ids: Collection[int]) -> set[int]:
    """Those of ``user_ids`` who hide their stats (``/stats hide``): off every board and award."""
    if not user_ids:
        return set()
    q = select(PlayerProfile.user_id).where(PlayerProfile.user_id.in_(list(user_ids)), PlayerProfile.hidden.is_(True))
    return {int(u) for u in (await session.execute(q)).scalars()}


async def display_names(session: AsyncSession, user_ids: Collection[int]) -> dict[int, str]:
    """The users' names as last seen, for those the bot knows."""
    if not user_ids:
        return {}
    return {int(u): n for u, n in (await session.execute(select(User.id, User.display_name).where(User.id.in_(list(user_ids))))).all()}


async def user_prompts(session: AsyncSession, user_ids: Sequence[int]) -> dict[int, bool]:
    """The users' own choice of phase prompts, for those who made one."""
    rows = await session.execute(select(User.id, User.prompts).where(User.id.in_(list(user_ids)), User.prompts.is_not(None)))
    return {uid: bool(on) for uid, on in rows.all()}


async def newcomers(session: AsyncSession, user_ids: Sequence[int]) -> set[int]:
    """Those of ``user_ids`` with no game played to its end (no seat record): in their
    first game with the bot."""
    ids = list(user_ids)
    played = await session.execute(select(SeatRecord.user_id).where(SeatRecord.user_id.in_(ids)).distinct())
    return set(ids) - {int(u) for u in played.scalars() if u is not None}


async def set_user_prompts(session: AsyncSession, user_id: int, on: bool, now: datetime) -> None:
    await session.execute(update(User).where(User.id == user_id).values(prompts=on, updated_at=now))


async def lobby(session: AsyncSession, game_id: int) -> list[GamePlayer]:
    """Lobby members in the order they joined (which becomes the seat order)."""
    stmt = (
        select(GamePlayer)
        .where(GamePlayer.game_id == game_id, GamePlayer.status == "lobby")
        .order_by(GamePlayer.joined_at, GamePlayer.id)
    )
    return list((await session.execute(stmt)).scalars())


async def seat_holders(session: AsyncSession, game_id: int) -> dict[int, GamePlayer]:
    """Seat -> the player holding it now."""
    stmt = select(GamePlayer).where(GamePlayer.game_id == game_id, GamePlayer.seat.is_not(None))
    return {p.seat: p for p in (await session.execute(stmt)).scalars() if p.seat is not None}


async def removed(session: AsyncSession, game_id: int) -> list[GamePlayer]:
    """The players a moderator removed from the game (they hold no seat any more)."""
    stmt = select(GamePlayer).where(GamePlayer.game_id == game_id, GamePlayer.status == "removed").order_by(GamePlayer.id)
    return list((await session.execute(stmt)).scalars())


async def member(session: AsyncSession, game_id: int, user_id: int) -> GamePlayer | None:
    return (await session.execute(_MEMBER, {"game_id": game_id, "user_id": user_id})).scalar_one_or_none()


async def free_players(session: AsyncSession, game_id: int) -> None:
    """The game is finished: its players may join other games."""
    await session.execute(
        update(GamePlayer).where(GamePlayer.game_id == game_id).values(active_user_id=None)
    )


async def phase_submissions(
    session: AsyncSession, game_id: int, round_no: int, phase: str, seat: int | None = None, *, rows: bool = False
) -> list[Any]:
    """The stored submissions of one phase (of one ``seat``), in seat then kind order: the
    entities, or with ``rows`` read-only rows (see ``_GAMES`` above)."""
    params: dict[str, Any] = {"game_id": game_id, "round": round_no, "phase": phase}
    if seat is None:
        stmt = _PHASE_SUBMISSION_ROWS if rows else _PHASE_SUBMISSIONS
    else:
        stmt, params = (_SEAT_SUBMISSION_ROWS if rows else _SEAT_SUBMISSIONS), params | {"seat": seat}
    if rows:
        return list((await core.execute(session, stmt, params)).all())
    return list((await session.execute(stmt, params)).scalars())


async def delete_submission(
    session: AsyncSession, game_id: int, round_no: int, phase: str, seat: int, kind: str
) -> bool:
    """Delete one stored submission; False when there was none."""
    res = await session.execute(
        delete(Submission).where(
            Submission.game_id == game_id,
            Submission.round == round_no,
            Submission.phase == phase,
            Submission.seat == seat,
            Submission.kind == kind,
        )
    )
    return bool(getattr(res, "rowcount", 0))


# A submission's first and later versions, on the table (built once: building a
# statement costs more than running it; nothing in a unit of work holds a submission as
# an entity, so the ORM's unit of work has nothing to track).
_INSERT_SUBMISSION = insert(_SUBMISSIONS)
_REPLACE_SUBMISSION = (
    update(_SUBMISSIONS)
    .where(_SUBMISSIONS.c.id == _p("row_id"))
    .values(
        payload=_p("new_payload"),
        user_id=_p("new_user_id"),
        revision=_p("new_revision"),
        updated_at=_p("new_updated_at"),
    )
)


async def insert_submission(
    session: AsyncSession,
    game_id: int,
    round_no: int,
    phase: str,
    seat: int,
    kind: str,
    user_id: int,
    payload: dict[str, Any],
    revision: int,
    now: datetime,
) -> None:
    """Store a seat's first submission of ``kind`` in a phase, sent by ``user_id`` at ``now``."""
    await core.execute(
        session,
        _INSERT_SUBMISSION,
        {
            "game_id": game_id,
            "round": round_no,
            "phase": phase,
            "seat": seat,
            "kind": kind,
            "user_id": user_id,
            "payload": payload,
            "revision": revision,
            "created_at": now,
            "updated_at": now,
        },
    )


async def replace_submission(
    session: AsyncSession, row_id: int, user_id: int, payload: dict[str, Any], revision: int, now: datetime
) -> None:
    """The stored submission ``row_id`` replaced by a later version, sent by ``user_id`` at ``now``."""
    await core.execute(
        session,
        _REPLACE_SUBMISSION,
        {"row_id": row_id, "new_payload": payload, "new_user_id": user_id, "new_revision": revision, "new_updated_at": now},
    )


async def last_sent_round(session: AsyncSession, game_id: int, user_id: int) -> int | None:
    """The latest round in which ``user_id`` sent something of the game (None: nothing)."""
    stmt = select(func.max(Submission.round)).where(Submission.game_id == game_id, Submission.user_id == user_id)
    found = (await session.execute(stmt)).scalar_one_or_none()
    return None if found is None else int(found)


async def steps(session: AsyncSession, game_id: int) -> list[GameStep]:
    stmt = select(GameStep).where(GameStep.game_id == game_id).order_by(GameStep.seq)
    return list((await session.execute(stmt)).scalars())


def earliest(column: Any, status: str, held: Collection[int] = ()) -> Any:
    """The earliest ``column`` of the games in ``status`` (``held`` left out), as a
    subquery: one step along the index on (status, column), however many games are live."""
    stmt = select(column).where(Game.status == status, column.is_not(None))
    if held:
        stmt = stmt.where(Game.id.not_in(list(held)))
    return stmt.order_by(column).limit(1).scalar_subquery()


def next_times_statement(held: Collection[int] = ()) -> Any:
    """The earliest deadline and reminder (the games in ``held``, waiting to retry a
    failure, left out) in one statement; the scheduler's sleep reads them with the other
    next times (``bot.core.deadlines.wakeup_statement``). The outbox's retries are not
    among them: the dispatcher polls for its own."""
    return select(earliest(Game.phase_deadline, "running", held), earliest(Game.reminder_due_at, "running", held))


# The running games whose deadline has passed and those whose reminder is due: two
# ranges of the (status, time) indexes, in one statement, asked at every scheduler tick.
_DUE = union_all(
    select(Game.id, Game.phase_deadline.label("at"), literal("deadline").label("kind")).where(
        Game.status == "running", Game.phase_deadline <= _p("now")
    ),
    select(Game.id, Game.reminder_due_at.label("at"), literal("reminder").label("kind")).where(
        Game.status == "running", Game.reminder_due_at <= _p("now")
    ),
)


def due_statement(now: datetime) -> Any:
    """The statement :func:`due_work` runs, with ``now`` bound (to explain it)."""
    return _DUE.params(now=now)


async def due_work(session: AsyncSession, now: datetime) -> tuple[list[int], list[int]]:
    """The running games whose deadline has passed and those whose reminder is due, each
    earliest first."""
    rows = (await core.execute(session, _DUE, {"now": now})).all()
    due = sorted((r.at, r.id) for r in rows if r.kind == "deadline")
    remind = sorted((r.at, r.id) for r in rows if r.kind == "reminder")
    return [i for _, i in due], [i for _, i in remind]


async def score_history(session: AsyncSession, game_id: int) -> tuple[list[dict[str, Any]], int | None]:
    """Each round's closing scores by faction, from the game log (``[{"round", "scores"}]``
    in order), and the game's winning score: what the end-of-game chart draws."""
    rows = (await session.execute(select(GameStep.round, GameStep.state).where(GameStep.game_id == game_id).order_by(GameStep.seq))).all()
    by_round: dict[int, dict[str, int]] = {}
    win_score: int | None = None
    for round_no, state in rows:
        if state and "scores" in state:
            by_round[int(round_no)] = {str(k): int(v) for k, v in state["scores"].items()}
            win_score = int(state.get("settings", {}).get("win_score", win_score or 0)) or win_score
    return [{"round": r, "scores": s} for r, s in sorted(by_round.items())], win_score
