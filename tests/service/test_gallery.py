"""The gallery's use cases: who may watch a game and who is refused, the seats a
spectator may not take, what is stored when they stop watching, and the truth rows each
setting writes (none for chat)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo, UserRef
from bot.db.models import OutboxMessage, Spectator
from bot.db.session import Database
from bot.features.gallery import errors as G
from bot.features.gallery.gallery import Gallery, gallery_of, unwatch_game, watch_game
from bot.features.lobby.games import get_game, join_game
from bot.features.moderation.moderation import remove_player, replace_player
from bot.features.standbys.standbys import join_standby
from bot.features.stats.errors import ForgetWhilePlayingError
from bot.features.stats.privacy import forget
from bot.i18n import LOCALES
from bot.render.outgoing import render_outgoing
from tests.service.helpers import lobby, play_to_end, sees, started, user

SAM = UserRef(700, "Sam")
NEWCOMER = UserRef(555, "Newcomer")
STANDBY = UserRef(556, "Standby")


def seat_of(info: GameInfo, user_id: int) -> int:
    return next(p.seat for p in info.players if p.user_id == user_id and p.seat is not None)


async def test_who_may_watch_a_started_game_and_who_is_refused(db: Database) -> None:
    game_id = await started(db)
    info = await get_game(db, game_id)
    with pytest.raises(G.WatchAliveError):
        await watch_game(db, game_id, user(1), await sees(db, game_id, user(1)))
    await remove_player(db, game_id, seat_of(info, user(2).id))
    departed = await watch_game(db, game_id, user(2), await sees(db, game_id, user(2)))
    assert departed.status == "departed"
    await replace_player(db, game_id, seat_of(info, user(3).id), NEWCOMER, await sees(db, game_id, NEWCOMER))
    with pytest.raises(G.WatchFormerSeatError):
        await watch_game(db, game_id, user(3), await sees(db, game_id, user(3)))
    await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    with pytest.raises(G.WatchStandbyError):
        await watch_game(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    assert await gallery_of(db, game_id) == Gallery()  # nobody stored so far

    assert (await watch_game(db, game_id, SAM, await sees(db, game_id, SAM))).status == "new"
    assert (await watch_game(db, game_id, SAM, await sees(db, game_id, SAM))).status == "again"
    assert (await gallery_of(db, game_id)).watching == {SAM.id}
    # A spectator takes no seat: neither the standby list nor a moderator's replacement.
    with pytest.raises(G.WatchedGameSeatError):
        await join_standby(db, game_id, SAM, await sees(db, game_id, SAM))
    with pytest.raises(G.NewcomerWatchedError):
        await replace_player(db, game_id, seat_of(info, user(4).id), SAM, await sees(db, game_id, SAM))
    # Leaving after the start: out of the gallery, still muted, still refused a seat.
    await unwatch_game(db, game_id, SAM.id)
    after = await gallery_of(db, game_id)
    assert after.watching == set() and after.seen == {SAM.id}
    with pytest.raises(G.WatchedGameSeatError):
        await join_standby(db, game_id, SAM, await sees(db, game_id, SAM))
    with pytest.raises(G.NotWatchingError):
        await unwatch_game(db, game_id, SAM.id)
    # Watching again is allowed.
    assert (await watch_game(db, game_id, SAM, await sees(db, game_id, SAM))).status == "new"


async def test_a_lobby_spectator_leaves_no_trace_and_may_then_join(db: Database) -> None:
    game_id = await lobby(db, 5)
    await watch_game(db, game_id, SAM, await sees(db, game_id, SAM))
    assert await gallery_of(db, game_id) == Gallery()  # nothing to open before the start
    with pytest.raises(G.JoinWhileWatchingError):
        await join_game(db, game_id, SAM, await sees(db, game_id, SAM))
    await unwatch_game(db, game_id, SAM.id)
    info = await join_game(db, game_id, SAM, await sees(db, game_id, SAM))
    assert SAM.id in {p.user_id for p in info.players}
    with pytest.raises(G.WatchLobbyError):
        await watch_game(db, game_id, SAM, await sees(db, game_id, SAM))


async def _truth_rows(db: Database, game_id: int) -> list[OutboxMessage]:
    async with db.read() as s:
        stmt = select(OutboxMessage).where(OutboxMessage.game_id == game_id, OutboxMessage.payload["type"].as_string() == "gallery_truth")
        return list((await s.execute(stmt)).scalars())


@pytest.mark.parametrize("setting", ["chat", "late", "open"])
async def test_each_setting_writes_its_truth_to_the_gallery_only(db: Database, setting: str) -> None:
    game_id = await started(db, gallery=setting)
    await play_to_end(db, game_id)
    rows = await _truth_rows(db, game_id)
    assert all(r.recipient_kind == "gallery" for r in rows)
    if setting == "chat":
        assert rows == []
        return
    assert rows and rows[0].payload["step"] == "start" and rows[0].payload["deal"]
    for r in rows:
        _, _, at_round, at_phase = r.idempotency_key.split(":")[:4]
        written = (int(at_round.removeprefix("r")), at_phase)
        if setting == "open":
            assert written == (r.payload["round"], r.payload["phase"])
        else:
            assert written == (r.payload["round"] + 1, "morning") and r.payload["late"] is True


async def test_late_truth_is_never_written_before_its_round_is_a_whole_round_old(db: Database) -> None:
    """Over many seeded games of every size: each round's truth under ``late`` is written
    in the Morning that closes the next round, never earlier, and every round but the
    last ones before the end gets its post."""
    for i in range(10):
        players = 6 + i
        game_id = await started(db, players, seed=f"late-many-{i:04d}", gallery="late", channel=9000 + i, first=100 * i + 1)
        await play_to_end(db, game_id)
        rows = await _truth_rows(db, game_id)
        info = await get_game(db, game_id)
        told = set()
        for r in rows:
            _, _, at_round, at_phase = r.idempotency_key.split(":")[:4]
            written = (int(at_round.removeprefix("r")), at_phase)
            assert written == (r.payload["round"] + 1, "morning"), (i, r.idempotency_key)
            told.add(r.payload["round"])
        # the deal (round 0) and every round r whose round r + 1 closed its Morning before
        # the game ended in round info.round
        assert set(range(info.round - 1)) <= told, (i, sorted(told), info.round)


async def test_forgetting_a_spectator_waits_for_the_end_and_then_takes_their_rows(db: Database) -> None:
    game_id = await started(db)
    await watch_game(db, game_id, SAM, await sees(db, game_id, SAM))
    with pytest.raises(ForgetWhilePlayingError):
        await forget(db, SAM.id)
    await play_to_end(db, game_id)
    await forget(db, SAM.id)
    async with db.read() as s:
        assert (await s.execute(select(Spectator).where(Spectator.user_id == SAM.id))).first() is None


async def test_every_truth_post_of_a_full_table_fits_one_discord_message(db: Database) -> None:
    """A 15-seat table's nights are the longest stories: each post fits Discord's limits
    (4,096 characters an embed's description, 6,000 a message's embeds), in each language."""
    game_id = await started(db, 15, gallery="open")
    await play_to_end(db, game_id)
    info = await get_game(db, game_id)
    rows = await _truth_rows(db, game_id)
    assert len(rows) > 3
    for row in rows:
        for loc in LOCALES:
            rendered = render_outgoing(OutgoingMessage.of(row), info, locale=loc)
            assert 1 <= len(rendered.embeds) <= 10
            sizes = [len(e.title or "") + len(e.description or "") + len(e.footer.text or "") for e in rendered.embeds]
            assert all(len(e.description or "") <= 4096 for e in rendered.embeds) and sum(sizes) <= 6000, sizes
            assert rendered.embeds[0].title and rendered.embeds[-1].footer.text
