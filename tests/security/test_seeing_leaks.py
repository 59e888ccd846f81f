"""What a message lets someone see that they should not: a public count that betrays a
death the table has not been told, a moderator who plays told of the others' misses, a
name that formats the bot's own words."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.core.advance import advance_phase
from bot.core.deadlines import run_due
from bot.core.dispatch import Dispatcher, MemorySender
from bot.core.outbox import claim_due_messages
from bot.db import repositories as repo
from bot.db.session import Database
from bot.features.lobby.games import get_game, join_game, start_game
from bot.features.moderation.status import phase_status
from bot.features.play.commands import SendGrail, handle
from engine.events import public
from tests.bot import conftest as bot_tables
from tests.bot.conftest import Table, started_game
from tests.service.helpers import MODERATOR, lobby, play_to_end, sees, started, take_due, user
from tests.service.test_absence import send_all_but

table = bot_tables.table  # the local Discord's table (a fixture)

DAY = 600
LEAD = 120


async def _departed_unannounced(db: Database, game_id: int, seat: int) -> None:
    """``seat`` died in the night just gone, its news held for the Morning (house rule
    ``departures: morning``): dead in the state, still living to the table."""
    async with db.transaction() as s:
        game = await repo.get_game(s, game_id)
        assert game is not None
        state = dict(game.state or {})
        state["players"] = [dict(p, alive=p["seat"] != seat and p["alive"]) for p in state["players"]]
        state["held_news"] = [public("PlayerLeft", seat=seat, round=game.round).to_dict()]
        game.state = state


async def test_the_public_reminder_counts_a_death_held_for_the_morning_as_not_sent(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=DAY, reminder_lead_seconds=LEAD, early_advance=False, departures="morning")
    await advance_phase(db, game_id)  # Day -> Dusk
    await advance_phase(db, game_id)  # Dusk -> Morning
    await Dispatcher(db, MemorySender()).drain()  # (what the phases posted: not this test's)
    await _departed_unannounced(db, game_id, seat=3)
    async with db.transaction() as s:
        game = await repo.get_game(s, game_id)
        assert game is not None and game.phase == "morning"
        game.reminder_due_at = clock.now
        game.phase_deadline = clock.now + timedelta(seconds=LEAD)
    assert (await run_due(db)).reminded == [game_id]
    msgs = await claim_due_messages(db, limit=100)
    reminder = next((m for m in msgs if m.recipient_kind == "channel" and m.payload["type"] == "reminder"), None)
    assert reminder is not None, [(m.recipient_kind, m.payload) for m in msgs]
    # Six seats the table takes for living, none has voted: six, not the five alive.
    assert reminder.payload["missing"] == 6, reminder.payload
    # The dead are not asked for a vote they cannot give.
    assert user(3).id not in {m.recipient_id for m in msgs if m.recipient_kind == "user"}


async def test_the_public_reminder_count_is_unchanged_without_held_news(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=DAY, reminder_lead_seconds=LEAD, early_advance=False)
    await handle(db, SendGrail(50), user(1).id)
    clock.advance(DAY - LEAD)
    assert (await run_due(db)).reminded == [game_id]
    msgs = await claim_due_messages(db, limit=100)
    assert next(m for m in msgs if m.payload["type"] == "reminder" and m.recipient_kind == "channel").payload["missing"] == 5


# -- a name that writes markdown ------------------------------------------------------------
HOSTILE = "[free nitro](https://evil.example) **me**"
ESCAPED = "\\[free nitro](https://evil.example) \\*\\*me\\*\\*"


def _everything_shown(result: Any) -> list[str]:
    """Every text of an interaction's answers as Discord receives it (raw markdown):
    content, and each embed's author, title, description, fields and footer."""
    out = []
    for m in [result.message, *result.followups]:
        if m is None:
            continue
        out.append(m.content or "")
        for e in m.embeds:
            out += [(e.get("author") or {}).get("name") or "", e.get("title") or "", e.get("description") or ""]
            out += [f"{f.get('name')}\n{f.get('value')}" for f in e.get("fields") or []]
            out.append((e.get("footer") or {}).get("text") or "")
    return [x for x in out if x]


def _no_raw_name(texts: list[str]) -> None:
    for text in texts:
        if "free nitro" in text:
            assert ESCAPED in text, text
            assert HOSTILE not in text.replace(ESCAPED, ""), text


async def test_stats_show_a_hostile_display_name_as_the_text_it_is(table: Table) -> None:
    hostile = table.emu.create_user(HOSTILE)
    table.emu.add_member(table.guild, hostile)
    bob = table.players[1]
    # Refused: no finished game yet (to the one who asked, naming the player).
    refusal = await table.run(bob, "stats view", {"player": hostile})
    texts = _everything_shown(refusal)
    assert any("no finished games here yet" in x for x in texts), texts
    _no_raw_name(texts)
    assert any(ESCAPED in x for x in texts), texts

    table.players[0] = hostile  # seated in alice's place
    game_id = await started_game(table)
    await play_to_end(table.db, game_id)
    await table.delivered()
    mine = await table.run(hostile, "stats view", {"public": True})
    texts = _everything_shown(mine)
    assert any("record" in x for x in texts), texts
    _no_raw_name(texts)
    assert any(ESCAPED in x for x in texts), texts
    board = _everything_shown(await table.run(bob, "leaderboard"))
    _no_raw_name(board)

    # Hidden: refused to others, the name escaped there too.
    await table.run(hostile, "stats hide")
    hidden = _everything_shown(await table.run(bob, "stats view", {"player": hostile}))
    assert any("keeps their stats private" in x for x in hidden), hidden
    _no_raw_name(hidden)



async def test_a_hostile_name_in_a_refusal_of_a_server_without_the_bot(table: Table) -> None:
    """The app on one's own account, in a server the bot is not in: ``/stats view`` of a
    player with no finished game anywhere is refused by the Discord layer itself (not the
    service), naming the player, and that name is escaped like every other."""
    hostile = table.emu.create_user(HOSTILE, locale="en-US")
    bo = table.emu.create_user("bo", locale="en-US")
    elsewhere = table.emu.create_guild("Elsewhere", owner=bo, add_bot=False)
    general = next(c for c in elsewhere.channels.values() if c.name == "general")
    table.emu.add_member(elsewhere, hostile)
    table.emu.install_app(hostile)
    mine = _everything_shown(await table.run(hostile, "stats view", channel=general))
    assert any("no finished games in any server yet" in x for x in mine), mine
    _no_raw_name(mine)
    assert any(ESCAPED in x for x in mine), mine
    # Asked by someone else for the hostile player: the same refusal, escaped.
    table.emu.add_member(elsewhere, table.mod)
    table.emu.install_app(table.mod)
    theirs = _everything_shown(await table.run(table.mod, "stats view", {"player": hostile}, channel=general))
    assert any("no finished games in any server yet" in x for x in theirs), theirs
    _no_raw_name(theirs)


# -- a moderator who plays ------------------------------------------------------------------
async def _moderator_seated(db: Database, **settings: object) -> int:
    """A game of six whose moderator holds the sixth seat."""
    game_id = await lobby(db, 5, **settings)
    await join_game(db, game_id, MODERATOR, await sees(db, game_id, MODERATOR))
    await start_game(db, game_id)
    await take_due(db)
    return game_id


async def _missed(db: Database, game_id: int, quiet: int) -> list[Any]:
    """Everyone but seat ``quiet`` sends; the phase closes at its deadline; what went out."""
    await send_all_but(db, game_id, {quiet})
    deadline = (await get_game(db, game_id)).deadline
    assert deadline is not None
    db.clock.advance(max(0.0, (deadline - db.now()).total_seconds()))  # type: ignore[attr-defined]
    assert [r.game_id for r in (await run_due(db)).advanced] == [game_id]
    return await take_due(db)


def _to_moderator(msgs: list[Any]) -> list[Any]:
    return [m for m in msgs if m.recipient_kind == "user" and m.recipient_id == MODERATOR.id and m.payload.get("type") != "sheet"]


async def test_a_moderator_who_plays_is_not_told_of_the_others_misses(db: Database) -> None:
    game_id = await _moderator_seated(db, absence_action="notify", absence_misses=2)
    quiet = next(p.seat for p in (await get_game(db, game_id)).players if p.user_id == user(1).id)
    assert quiet is not None
    first, second = await _missed(db, game_id, quiet), await _missed(db, game_id, quiet)
    for msgs in (first, second):
        assert not [m for m in _to_moderator(msgs) if m.payload.get("type", "").startswith(("absence", "offers"))], msgs
    # The one who missed is warned, without "the moderator is told": nobody is.
    warned = [m for m in second if m.payload.get("type") == "absence_warning"]
    assert [(m.recipient_id, m.payload["in_row"], m.payload["left"]) for m in warned] == [(user(1).id, 2, None)]
    # As /mod status shows them no misses (they play).
    assert (await phase_status(db, game_id, MODERATOR.id)).viewer_played


async def test_the_policy_still_acts_for_a_moderator_who_plays_but_tells_them_nothing(db: Database) -> None:
    game_id = await _moderator_seated(db, absence_action="remove", absence_misses=1)
    quiet = next(p.seat for p in (await get_game(db, game_id)).players if p.user_id == user(2).id)
    msgs = await _missed(db, game_id, quiet)
    assert not next(p for p in (await get_game(db, game_id)).players if p.seat == quiet).alive  # removed, publicly
    assert not [m for m in _to_moderator(msgs) if m.payload.get("type") == "absence_moderator"], msgs


async def test_a_moderator_who_does_not_play_is_still_told(db: Database) -> None:
    game_id = await started(db, 6, absence_action="notify", absence_misses=1)
    await take_due(db)
    msgs = await _missed(db, game_id, 1)
    told = [m for m in _to_moderator(msgs) if m.payload.get("type") == "absence_moderator"]
    assert [(m.payload["seat"], m.payload["action"]) for m in told] == [(1, "notify")]
