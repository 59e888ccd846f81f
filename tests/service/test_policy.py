"""The access policy's table: the one in its docstring, which people read, is the one
the code decides by (``ALLOWED``); and what is asked of a server rather than a game."""

from __future__ import annotations

import pytest

from bot.core import policy
from bot.core.access_errors import NotModeratorError, NotServerMemberError
from bot.core.errors import NotInGameError
from bot.core.policy import ALLOWED, Action, Role, Server, Standing


def docstring_table() -> dict[str, set[str]]:
    """The docstring's table (a reStructuredText simple table), read by its columns:
    each mark counts for the column whose border it stands under."""
    doc = policy.__doc__ or ""
    lines = doc.splitlines()
    borders = [i for i, line in enumerate(lines) if line.startswith("====")]
    assert len(borders) == 3, "the table's three border lines"
    border = lines[borders[0]]
    spans, start = [], 0
    for part in border.split(" "):
        spans.append((start, start + len(part)))
        start += len(part) + 1
    header = [lines[borders[0] + 1][a:b].strip() for a, b in spans]
    assert header[0] == "action"
    table: dict[str, set[str]] = {}
    for line in lines[borders[1] + 1 : borders[2]]:
        action = line[: spans[0][1]].strip()
        marks = {i for i, ch in enumerate(line) if ch == "✓"}
        roles = set()
        for at in marks:
            column = next(j for j, (a, b) in enumerate(spans) if a <= at < b)
            assert column > 0, line
            roles.add(header[column])
        table[action] = roles
    return table


def test_the_code_decides_by_the_docstrings_table() -> None:
    written = docstring_table()
    assert set(written) == {a.value for a in Action}, "a row for every action, and an action for every row"
    assert {a.value: {r.value for r in roles} for a, roles in ALLOWED.items()} == written


def test_every_action_has_its_one_line_in_the_docstring() -> None:
    doc = policy.__doc__ or ""
    for action in Action:
        assert f"\n* {action.value}:" in doc, action


def test_a_server_is_asked_for_its_board_and_for_creating_a_game() -> None:
    here = Server(10)
    policy.require(Action.SEE_BOARD, Standing.member_of(1, 10), here)
    policy.require(Action.CREATE, Standing.member_of(1, 10, moderator=True), here)
    with pytest.raises(NotServerMemberError):
        policy.require(Action.SEE_BOARD, Standing.member_of(1, 11), here)  # another server's member
    with pytest.raises(NotServerMemberError):
        policy.require(Action.SEE_BOARD, Standing.stranger(1, 10), here)
    with pytest.raises(NotModeratorError):
        policy.require(Action.CREATE, Standing.member_of(1, 10), here)  # a member, not a moderator
    with pytest.raises(NotModeratorError):
        policy.require(Action.CREATE, Standing.member_of(1, 11, moderator=True), here)  # another server's
    with pytest.raises(NotModeratorError):
        policy.require(Action.CREATE, Standing.member_of(1, 10, moderator=True), Server(None))  # no server: a DM
    # Nobody is a server's onlooker or its creator.
    assert policy.roles_of(Standing.member_of(1, 10, (0,), moderator=False), here) == {Role.MEMBER}


def test_act_is_the_seat_the_database_says_the_caller_holds() -> None:
    class Row:
        def __init__(self, seat: int | None, former: int | None = None, status: str = "playing") -> None:
            self.seat, self.former_seat, self.status = seat, former, status

    game = Server(10, id=5, channel_id=20, moderator_id=2)  # (any GameLike)
    policy.require(Action.ACT, Standing.stranger(1), game, Row(3))  # no fact of Discord's asked
    for row in (None, Row(None, former=3, status="replaced")):
        with pytest.raises(NotInGameError):
            policy.require(Action.ACT, Standing.member_of(1, 10, (20,), moderator=True), game, row)
