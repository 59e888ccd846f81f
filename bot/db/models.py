"""SQLAlchemy 2.0 models: users, games, seats, submissions, the game log and the outbox;
and the records of finished games, the players' standings and their privacy choice.

The schema is shared by SQLite and PostgreSQL. Two invariants are enforced by the
database itself, so that no race between shards can break them:

* one live game per channel: ``games.active_channel_id`` is the channel id while the game
  is in the lobby, running or paused, and NULL afterwards; it is UNIQUE (NULLs repeat);
* one live game per player across all servers: ``game_players.active_user_id`` works the
  same way for a seat holder.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on both databases (SQLite keeps no zone: store naive
    UTC, hand back aware UTC)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: UTCDateTime}  # noqa: RUF012


def table_of(model: type[Base]) -> Table:
    """A model's table, for the statements built on it past the ORM (``__table__`` is
    typed as any FROM clause, which an INSERT or UPDATE does not take)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


class User(Base):
    """A Discord user, by snowflake, as last seen."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    locale: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    # Phase prompts by DM (/settings prompts): NULL while the user has not chosen, and
    # the game's own setting decides.
    prompts: Mapped[bool | None] = mapped_column(Boolean)
    # Their own IANA time zone (/settings timezone; bot.core.time_zones), NULL: not said.
    timezone: Mapped[str | None] = mapped_column(String(64))


class Game(Base):
    """One game in one channel. ``state`` is the engine's GameState as a dict; ``version``
    counts the steps of the game log (start, advances, removals, replacements)."""

    __tablename__ = "games"
    __table_args__ = (
        # A server's finished games, newest first (/game history).
        Index("ix_games_history", "guild_id", "status", "ended_at"),
        # The scheduler's due work and next wake-up: one range of one index per kind of
        # time (the running games by deadline, by reminder; the lobbies by start time and
        # start reminder), never every live game.
        Index("ix_games_status_deadline", "status", "phase_deadline"),
        Index("ix_games_status_reminder", "status", "reminder_due_at"),
        Index("ix_games_status_start", "status", "start_at"),
        Index("ix_games_status_start_reminder", "status", "start_reminder_at"),
        # A moderator's live games (a DM /mod and its autocomplete).
        Index("ix_games_moderator", "moderator_id", "active_channel_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # NULL: a game without a server, a practice game in a person's DM (``channel_id``).
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger, index=True)
    active_channel_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    moderator_id: Mapped[int] = mapped_column(BigInteger)
    settings: Mapped[dict[str, Any]]
    language: Mapped[str] = mapped_column(String(16))
    secret_seed: Mapped[str] = mapped_column(String(128))
    seed_sha256: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    phase: Mapped[str | None] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None]
    version: Mapped[int] = mapped_column(Integer, default=0)
    # Counts the notices outside the game log (pause, reminders...), for their outbox keys.
    notice_seq: Mapped[int] = mapped_column(Integer, default=0)
    phase_started_at: Mapped[datetime | None]
    phase_deadline: Mapped[datetime | None]
    # Seconds left on the clock while paused.
    paused_remaining: Mapped[int | None] = mapped_column(Integer)
    reminder_due_at: Mapped[datetime | None]
    # A lobby's start time (it starts then, or is cancelled short of players) and the
    # reminder to its members before it (NULL once sent).
    start_at: Mapped[datetime | None]
    start_reminder_at: Mapped[datetime | None]
    end_reason: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    ended_at: Mapped[datetime | None]
    # Discord's side (mutes, the dead channel, the lobby post) may lag this game's state:
    # counts the changes since the bot last brought Discord in line, NULL when it has.
    # Set by every flush that changes the game or its players (bot.db.effects).
    effects_due: Mapped[int | None] = mapped_column(Integer, index=True)

    # Every UPDATE of a game carries ``WHERE version = <version read>``; the service bumps
    # the version itself, once per step of the game log.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}  # noqa: RUF012


class GamePlayer(Base):
    """A lobby member or seat holder. A replaced or removed holder keeps its row with
    ``seat`` NULL and ``former_seat`` set, so the log can say who held a seat when."""

    __tablename__ = "game_players"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        UniqueConstraint("game_id", "seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    # NULL: an AI seat (bot.features.ai_seats.ai_seats), held by no Discord user.
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    active_user_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    display_name: Mapped[str] = mapped_column(String(100))
    seat: Mapped[int | None] = mapped_column(Integer)
    former_seat: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))  # lobby, kicked (from the lobby), playing, replaced, removed
    joined_at: Mapped[datetime]
    left_at: Mapped[datetime | None]
    # Phases this seat's holders let close without sending what it asked (bot.features.absence.absence):
    # in a row (back to 0 at the first phase answered) and in all.
    misses_in_row: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    misses_total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Standby(Base):
    """A member waiting to take a seat of a game whose holder goes quiet. Status:
    waiting, asked (an offer is open), passed (let an offer expire), left, seated."""

    __tablename__ = "standbys"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    display_name: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16))
    joined_at: Mapped[datetime]


class Spectator(Base):
    """A server member who watches a game from its gallery (``/game watch``): the dead's
    channel, read beside the departed (``bot.discord.guild.quiet_dead``). ``left_at``: they
    stopped watching (``/game unwatch``) after the start; the row stays, for what they
    saw: they stay muted in the game channel and may take no seat of it until the end."""

    __tablename__ = "spectators"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    joined_at: Mapped[datetime]
    left_at: Mapped[datetime | None]


class Prediction(Base):
    """A gallery member's forecast of the winning faction for one round of a game (the
    latest choice counts: a new one replaces the row). Scored against the game's winners
    when read (``bot.features.gallery.predictions``)."""

    __tablename__ = "predictions"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    faction: Mapped[str] = mapped_column(String(16))
    made_at: Mapped[datetime]


class SeatOffer(Base):
    """A seat offered to one standby until ``expires_at``. Status: open, accepted,
    expired, withdrawn (the standby left the list, or the seat or game is gone).
    ``reason``: absence (the game's policy) or moderator (``/mod replace`` with nobody named)."""

    __tablename__ = "seat_offers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(BigInteger)
    # Who held the seat when it was offered: once someone else holds it, the offer is void.
    holder_id: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime] = mapped_column(index=True)
    closed_at: Mapped[datetime | None]


class Submission(Base):
    """The latest submission of one kind by one seat in one phase; a resubmission
    replaces ``payload`` and bumps ``revision``."""

    __tablename__ = "submissions"
    __table_args__ = (UniqueConstraint("game_id", "round", "phase", "seat", "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int] = mapped_column(BigInteger)
    payload: Mapped[dict[str, Any]]
    revision: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class GameStep(Base):
    """Append-only game log: each state change with what produced it (the submissions
    of an advance, the seat of a removal) and what came out (events, rolls, new state)."""

    __tablename__ = "game_steps"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))  # start, advance, remove, replace, end
    round: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16))
    inputs: Mapped[dict[str, Any]]
    events: Mapped[list[Any]]
    rolls: Mapped[list[Any]]
    state: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


class OutboxMessage(Base):
    """One outgoing message, written in the transaction that caused it. ``payload`` is
    data (events, a template key), never rendered text: the Discord layer renders it.
    Status: pending -> sent, or -> inbox when a DM cannot reach the player, or -> failed
    for a channel that stays unreachable. ``discord_message_id``: the Discord message it
    became, recorded with the "sent" mark (NULL for older rows and senders that give
    none). ``read_at``: when the recipient was shown it by ``/inbox``."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_due", "status", "next_attempt_at"),
        Index("ix_outbox_recipient", "recipient_kind", "recipient_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    recipient_kind: Mapped[str] = mapped_column(String(16))  # channel, user, gallery (the game channel's dead room), seat (an AI seat's: status "ai", never sent)
    recipient_id: Mapped[int] = mapped_column(BigInteger)
    locale: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(16))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime]
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
    read_at: Mapped[datetime | None]
    discord_message_id: Mapped[int | None] = mapped_column(BigInteger)
    # The process (``processes.id``) a pending row is leased to; NULL when none is.
    leased_by: Mapped[int | None] = mapped_column(Integer)
    # The idempotency key of the message this one is delivered after (a phase's prompts
    # follow its public post, whatever their destinations); NULL for most.
    follows: Mapped[str | None] = mapped_column(String(200))


class Process(Base):
    """A bot process, one row per run: whether it is alive, since when, with what
    shards, and whether it is connected to Discord. Two readers: the outbox's lease
    reclaim (a lease whose holder stopped, was replaced or is silent is free at once,
    bot.core.processes) and ``wolfhowl health`` (this host's last beat while
    connected, bot.features.ops.health).

    ``name``: the host and the shards it serves unless configured; one live process per
    name. ``heartbeat_at``: its last beat, every 10 s while it runs (connected or not:
    delivery needs no gateway). ``connected_since`` / ``connected_at``: the start of
    its current (or last) gateway connection and its last beat while connected (a
    sharded process: all its shards), NULL until it first connects. ``stopped_at``: it
    closed, or a process of the same name started after it; kept a day after that."""

    __tablename__ = "processes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    host: Mapped[str] = mapped_column(String(255), server_default="")  # the machine's (container's) hostname
    shards: Mapped[str] = mapped_column(String(255), server_default="")  # "0-1/4"; "" unsharded
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime]
    heartbeat_at: Mapped[datetime]
    connected_since: Mapped[datetime | None]
    connected_at: Mapped[datetime | None]
    stopped_at: Mapped[datetime | None]


class AiTurn(Base):
    """One AI seat's turn in one phase: when its submission is due (drawn from the
    game's seed), when it was played and what came of it (``outcome``), and ``memory``,
    the AI's notes of its own choices after it (see bot.features.ai_seats.play)."""

    __tablename__ = "ai_turns"
    __table_args__ = (
        UniqueConstraint("game_id", "round", "phase", "seat"),
        Index("ix_ai_turns_due", "played_at", "due_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16))
    due_at: Mapped[datetime]
    played_at: Mapped[datetime | None]
    outcome: Mapped[str | None] = mapped_column(String(64))
    memory: Mapped[dict[str, Any] | None]


class GameRecord(Base):
    """A finished game as the community remembers it, written once, in the transaction
    that ends the game (never for a lobby cancelled before the start). What a history
    list shows: the number (the game's id), when, how many players, the winners, the
    rounds. Stats, ratings and leaderboards read only these records, never live games."""

    __tablename__ = "game_records"
    __table_args__ = (Index("ix_game_records_guild_ended", "guild_id", "ended_at"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    language: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    winners: Mapped[list[Any]]
    scores: Mapped[dict[str, Any]]
    end_reason: Mapped[str] = mapped_column(String(32))
    seed: Mapped[str] = mapped_column(String(128))
    # How many seats the AI held at some time (bot.features.ai_seats.ai_seats): a human's record
    # reads beside it how many of the table were people.
    ai_seats: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime]


class SeatRecord(Base):
    """One player's part in a finished game: one per user who held a seat (a replaced
    holder keeps a record saying so, with what happened while they held it).
    ``user_id`` and ``name`` are NULL once the user asked to be forgotten: the game
    keeps the seat, without them. ``ai``: a seat played by the bot (none yet)."""

    __tablename__ = "seat_records"
    __table_args__ = (
        Index("ix_seat_records_user", "user_id", "guild_id", "ended_at"),
        Index("ix_seat_records_game", "game_id", "seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game_records.game_id", ondelete="CASCADE"))
    guild_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    name: Mapped[str | None] = mapped_column(String(100))
    ai: Mapped[bool] = mapped_column(Boolean, default=False)
    seat: Mapped[int] = mapped_column(Integer)
    class_id: Mapped[str] = mapped_column(String(32))
    faction: Mapped[str] = mapped_column(String(16))
    result: Mapped[str] = mapped_column(String(8))  # win, shared (a shared win), loss
    fate: Mapped[str] = mapped_column(String(16))  # survived, killed, voted_out, removed, replaced
    kills: Mapped[int] = mapped_column(Integer)
    teamkills: Mapped[int] = mapped_column(Integer)
    steals: Mapped[int] = mapped_column(Integer)
    grails: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    faction_score: Mapped[int] = mapped_column(Integer)
    ended_at: Mapped[datetime]
    # Reliability (bot.features.records.reliability): the phases this holder was asked to send
    # (a required submission of a living seat), those they sent, and the phases the game
    # went through after the seat was taken from them for absence. NULL: not known (an
    # AI seat, or a game that ended before misses were counted).
    phases_asked: Mapped[int | None] = mapped_column(Integer)
    phases_sent: Mapped[int | None] = mapped_column(Integer)
    phases_abandoned: Mapped[int | None] = mapped_column(Integer)
    # Identifications (R6): the guesses this holder sent and those confirmed. NULL: not
    # known (a record written before they were kept, until ``wolfhowl db backfill``).
    guesses: Mapped[int | None] = mapped_column(Integer)
    guesses_right: Mapped[int | None] = mapped_column(Integer)


class StandingFigures:
    """What a standing holds, all-time (:class:`PlayerStanding`) or in a season
    (:class:`SeasonStanding`): games and wins counted, and the OpenSkill rating (``mu``,
    ``sigma``; ``rating`` = mu - 3 sigma, what is shown and ranked)."""

    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    win_rate: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    last_game_id: Mapped[int] = mapped_column(Integer)


class PlayerStanding(StandingFigures, Base):
    """A player's standing in one server, derived from the records (rebuilt by
    ``wolfhowl db ratings --rebuild``): games and wins counted, and the OpenSkill rating
    (``mu``, ``sigma``; ``rating`` = mu - 3 sigma, what is shown and ranked)."""

    __tablename__ = "player_standings"
    __table_args__ = (
        Index("ix_player_standings_rating", "guild_id", "rating"),
        Index("ix_player_standings_wins", "guild_id", "wins"),
        Index("ix_player_standings_games", "guild_id", "games"),
        Index("ix_player_standings_win_rate", "guild_id", "win_rate"),
    )

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)


class Season(Base):
    """A server's season (``/mod season start|end``; ``bot.features.seasons.seasons``): numbered
    from 1 in each server, named or not. ``open_guild_id`` is the server's id while the
    season is open and NULL once ended: unique, so a server has one open season at most.
    ``summary``: the awards and the top of the board, computed once at the end."""

    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("guild_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(100))
    language: Mapped[str] = mapped_column(String(16))
    open_guild_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    started_at: Mapped[datetime]
    started_by: Mapped[int] = mapped_column(BigInteger)
    ended_at: Mapped[datetime | None]
    ended_by: Mapped[int | None] = mapped_column(BigInteger)
    summary: Mapped[dict[str, Any] | None]


class SeasonGame(Base):
    """A finished game counted in a season: the season open when the game's record was
    written (its end). Stats read a season's games through these rows only."""

    __tablename__ = "season_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("game_records.game_id", ondelete="CASCADE"), primary_key=True, autoincrement=False)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), index=True)


class SeasonStanding(StandingFigures, Base):
    """A player's standing in one season, as :class:`PlayerStanding` is in the server:
    moved only by the season's games' ends, rebuilt from the records with the rest."""

    __tablename__ = "season_standings"
    __table_args__ = (Index("ix_season_standings_rating", "season_id", "rating"),)

    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(BigInteger)


class PlayerProfile(Base):
    """A user's choice about their stats: ``hidden`` keeps them from others' view and
    off the leaderboards."""

    __tablename__ = "player_profiles"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime]


class DmChannel(Base):
    """A user's DM channel with the bot, remembered from the first time it was opened:
    a DM is then one request (the message), not three (the user, the channel, the
    message). Discord keeps a user's DM channel with a bot for good."""

    __tablename__ = "dm_channels"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime]


class DeadChannel(Base):
    """The channel for the dead of a game channel, recorded when the bot creates it: the
    only channel the bot trusts as that room (``bot.discord.guild.quiet_dead``). A topic says
    which game channel a room is for, but anyone who manages a channel can write a topic;
    a channel's id, once recorded here, cannot be forged."""

    __tablename__ = "dead_channels"

    game_channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    dead_channel_id: Mapped[int] = mapped_column(BigInteger, unique=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime]


class LineupOdds(Base):
    """The estimated win rate of each faction for one line-up at one table size under
    one set of rules: ``wins`` (faction -> games won, a shared win counting for each
    sharer) out of ``games`` played by the baseline AI (bot.ai.odds). Written once per
    ``key`` (bot.core.lineup_odds.odds_key) and read by every lobby that asks."""

    __tablename__ = "lineup_odds"

    key: Mapped[str] = mapped_column(String(400), primary_key=True)
    players: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[dict[str, Any]]
    median_rounds: Mapped[float] = mapped_column(Float)
    computed_at: Mapped[datetime]
