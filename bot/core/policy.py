"""Who may see and do what in a game: one table, decided here for every path (a slash
command, a button or menu, an export), whatever ids arrived from Discord.

Two kinds of fact meet here. What Discord witnesses of the caller — whether they are a
member of the game's server, which of its channels they can see, whether they moderate
there — arrives as a :class:`Standing`, gathered by the Discord layer from the
interaction's own member data or by asking Discord (``bot.discord.guild.standing``), never
from an id a payload carried. What the database knows — the seat a caller holds, held
or waits for in the lobby, and who created the game — is read by the use case. A
standing about another server than the game's counts for nothing: to this game, its
caller is a stranger.

The roles, from those facts (one caller may have several):

* **stranger**: not a member of the game's server (or Discord does not say they are);
* **member**: a member of the game's server;
* **onlooker**: a member who can see the game's channel;
* **seated**: holds a seat of the game now (in its lobby, or alive or dead at its table);
* **former**: held a seat of it once (replaced, removed): they know that seat's secrets;
* **moderator**: Manage Server, Administrator or the configured moderator role in the
  game's server, or the game's creator while still a member of it.

What is asked of a server rather than of one of its games (its board, a game about to be
opened there) is asked of :class:`Server`: a server with no channel and no creator, so
its roles are stranger, member and moderator alone.

What each action asks (✓: any one of the marked roles will do):

============ ======== ====== ======== ====== ====== =========
action       stranger member onlooker seated former moderator
============ ======== ====== ======== ====== ====== =========
join                            ✓
stand_by                        ✓
watch                           ✓
take_seat                       ✓
see_ended                       ✓       ✓      ✓        ✓
see_board             ✓
see_table                       ✓       ✓
moderate                                                ✓
create                                                  ✓
act                                     ✓
============ ======== ====== ======== ====== ====== =========

* join: sit in a lobby (``/game join``, the lobby post's Join button);
* stand_by: join a game's standby list (``/standby join``);
* watch: watch a game from its gallery (``/game watch``; the use case refuses a living
  player, and a practice game has none);
* take_seat: accept a seat offered to a standby, or be named by ``/mod replace``;
* see_ended: a finished game's replay page (its Replay button) and complete log;
* see_board: a server's leaderboard and list of finished games (``/leaderboard``,
  ``/game history`` and their page buttons), asked of the :class:`Server`;
* see_table: the table's public facts (``/table``, the Table button on a phase post);
* moderate: every ``/mod`` and ``/phase`` command on a game and their confirmation
  buttons (``/mod log`` included), asked by ``bot.features.moderation.commands.moderate``;
* create: ``/mod create``, asked of the :class:`Server` the game is to open in (it has
  no creator yet), and the server's seasons (``/mod season start|end``), asked of it;
* act: grail numbers, identifications, orders, votes and the order panel (a
  submission, ``submissions.locked_seat``). It asks no fact of Discord: the caller acts
  through the seat the database says they hold, so no id from Discord can name another
  seat, and a player who left the server (or lost the channel) still plays their seat
  by DM until the game replaces or removes them.

The table says who may *ask*; the use case then says whether the game allows it now
(a lobby still open, a seat still offered, a phase that takes the order), with its own
refusals.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.core.access_errors import (
    CannotSeeChannelError,
    NotModeratorError,
    NotServerMemberError,
    NotYourGameError,
)
from bot.core.errors import NotInGameError


class Role(StrEnum):
    STRANGER = "stranger"
    MEMBER = "member"
    ONLOOKER = "onlooker"
    SEATED = "seated"
    FORMER = "former"
    MODERATOR = "moderator"


class Action(StrEnum):
    JOIN = "join"
    STAND_BY = "stand_by"
    WATCH = "watch"
    TAKE_SEAT = "take_seat"
    SEE_ENDED = "see_ended"
    SEE_BOARD = "see_board"
    SEE_TABLE = "see_table"
    MODERATE = "moderate"
    CREATE = "create"
    ACT = "act"


# The docstring's table, as the code reads it.
ALLOWED: dict[Action, frozenset[Role]] = {
    Action.JOIN: frozenset({Role.ONLOOKER}),
    Action.STAND_BY: frozenset({Role.ONLOOKER}),
    Action.WATCH: frozenset({Role.ONLOOKER}),
    Action.TAKE_SEAT: frozenset({Role.ONLOOKER}),
    Action.SEE_ENDED: frozenset({Role.ONLOOKER, Role.SEATED, Role.FORMER, Role.MODERATOR}),
    Action.SEE_BOARD: frozenset({Role.MEMBER}),
    Action.SEE_TABLE: frozenset({Role.ONLOOKER, Role.SEATED}),
    Action.MODERATE: frozenset({Role.MODERATOR}),
    Action.CREATE: frozenset({Role.MODERATOR}),
    Action.ACT: frozenset({Role.SEATED}),
}


@dataclass(frozen=True)
class Standing:
    """What Discord says of one user in one server: whether they are a member, which of
    the channels asked about they can see, and whether they moderate there (Manage
    Server, Administrator or the configured role). ``guild_id`` None: no server asked."""

    user_id: int
    guild_id: int | None = None
    member: bool = False
    sees: frozenset[int] = frozenset()
    moderator: bool = False

    def of_user(self, user_id: int) -> Standing:
        """This standing if it is ``user_id``'s, else a stranger's: Discord's facts about
        one user are never taken for another's."""
        return self if self.user_id == user_id else Standing.stranger(user_id)

    @classmethod
    def stranger(cls, user_id: int, guild_id: int | None = None) -> Standing:
        return cls(user_id, guild_id)

    @classmethod
    def member_of(cls, user_id: int, guild_id: int, sees: tuple[int, ...] | frozenset[int] = (), *, moderator: bool = False) -> Standing:
        return cls(user_id, guild_id, True, frozenset(sees), moderator)


class GameLike(Protocol):
    """A game as the policy reads it: a stored row or the public :class:`GameInfo`."""

    @property
    def id(self) -> int: ...
    @property
    def guild_id(self) -> int | None: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def moderator_id(self) -> int: ...


@dataclass(frozen=True)
class Server:
    """A server as the policy reads it, for what is asked of the server rather than of
    one of its games (see_board, create): no game, channel or creator (ids 0, nobody's),
    so nobody is an onlooker or its creator. ``guild_id`` None: no server (a DM), where
    everyone is a stranger."""

    guild_id: int | None
    id: int = 0
    channel_id: int = 0
    moderator_id: int = 0


class SeatLike(Protocol):
    """The caller's row in a game, as the policy reads it (``GamePlayer``)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def former_seat(self) -> int | None: ...
    @property
    def status(self) -> str: ...


def roles_of(standing: Standing, game: GameLike, row: SeatLike | None = None) -> frozenset[Role]:
    """The caller's roles in ``game``: Discord's facts count only for the game's own
    server and channel; ``row`` is the caller's row in the game, if any."""
    roles: set[Role] = set()
    if game.guild_id is None:
        # A practice game has no server: its channel is the DM of the one person who
        # opened it (its moderator), who alone sees and runs it. (A Server without
        # one has no creator: nobody is here.)
        here = standing.user_id == game.moderator_id != 0
    else:
        here = standing.member and standing.guild_id == game.guild_id
    if not here:
        roles.add(Role.STRANGER)
    else:
        roles.add(Role.MEMBER)
        if (game.channel_id and game.channel_id in standing.sees) or game.guild_id is None:
            roles.add(Role.ONLOOKER)
        if standing.moderator or standing.user_id == game.moderator_id:
            roles.add(Role.MODERATOR)
    if row is not None:
        if row.seat is not None or row.status == "lobby":
            roles.add(Role.SEATED)
        if row.former_seat is not None:
            roles.add(Role.FORMER)
    return frozenset(roles)


def allows(action: Action, roles: frozenset[Role]) -> bool:
    return bool(ALLOWED[action] & roles)


def require(action: Action, standing: Standing, game: GameLike, row: SeatLike | None = None, *, newcomer: str | None = None) -> None:
    """Raise the refusal that says what the caller lacks for ``action`` in ``game``,
    unless the table allows it. ``newcomer``: the mention of the one the standing is of,
    when someone else asked for them (a moderator naming a newcomer): the refusal then
    speaks of them, to the moderator."""
    roles = roles_of(standing, game, row)
    if allows(action, roles):
        return
    if action in (Action.MODERATE, Action.CREATE):
        raise NotModeratorError(game_id=game.id)
    if action is Action.SEE_ENDED:
        raise NotYourGameError(game_id=game.id)
    if action is Action.SEE_BOARD:
        raise NotServerMemberError("error.board_not_member")
    if action is Action.ACT:
        raise NotInGameError(game_id=game.id)
    stranger = Role.STRANGER in roles
    channel = f"<#{game.channel_id}>"
    if newcomer is not None:
        key = "error.newcomer_not_member" if stranger else "error.newcomer_cannot_see"
        raise (NotServerMemberError if stranger else CannotSeeChannelError)(key, game_id=game.id, user=newcomer, channel=channel)
    if stranger:
        raise NotServerMemberError(game_id=game.id)
    raise CannotSeeChannelError(game_id=game.id, channel=channel)

