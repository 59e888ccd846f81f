"""Each player's own ending (issue 34): one per person at the table, by DM, with won or
lost, their points, their rating's move and the Replay button; the step that ended the
game is marked final in every player's news."""

from __future__ import annotations

from bot.db import repositories as repo
from bot.db.models import PlayerStanding
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.render.outgoing import render_outgoing
from engine.values import FACTIONS
from tests.bot.test_outbound import text_of
from tests.service.helpers import GUILD, current_state, play_to_end, started, take_due, user


async def ending_messages(db: Database, game_id: int) -> dict[int, object]:
    mail: list = []
    while batch := await take_due(db):
        mail += batch
    endings = [m for m in mail if m.payload.get("type") == "ending"]
    by_user = {m.recipient_id: m for m in endings}
    assert len(by_user) == len(endings), "one ending per player"
    final = [m for m in mail if m.payload.get("type") == "events" and m.recipient_kind == "user" and m.payload.get("final")]
    last_seq = max(int(m.key.split(":")[1]) for m in mail if m.payload.get("type") == "events")
    # Every private report of the step that ended the game is marked final.
    assert all(m.payload.get("final") for m in mail if m.payload.get("type") == "events" and m.recipient_kind == "user" and int(m.key.split(":")[1]) == last_seq)
    assert all(int(m.key.split(":")[1]) == last_seq for m in final)
    return by_user


async def test_every_player_gets_their_ending_with_result_points_and_rating(db: Database) -> None:
    rated: dict[int, float] = {}
    for n, seed in enumerate(("ending-seed-1", "ending-seed-2")):
        game_id = await started(db, 7, seed=seed)
        await take_due(db)
        await play_to_end(db, game_id)
        state = await current_state(db, game_id)
        by_user = await ending_messages(db, game_id)
        assert sorted(by_user) == [user(i).id for i in range(1, 8)]
        info = await get_game(db, game_id)
        async with db.read() as s:
            steps = await repo.steps(s, game_id)
            standings = {r.user_id: r for r in (await s.execute(PlayerStanding.__table__.select().where(PlayerStanding.guild_id == GUILD))).all()}
        teamkill_points = {f.value: 0 for f in FACTIONS}
        head_starts: dict[str, int] = {}
        for step in steps:
            for e in step.events:
                if e["kind"] == "ScoreChanged" and e["data"]["reason"] == "teamkill":
                    teamkill_points[e["data"]["faction"]] += e["data"]["points"]
                if e["kind"] == "ScoreChanged" and e["data"]["reason"] == "head_start":
                    assert step.kind == "start"
                    head_starts[e["data"]["faction"]] = e["data"]["points"]
        # 7 players: the two factions dealt a seat fewer start with 5 points, Neutral with 4
        # (uneven_tables, E19)
        assert len(head_starts) == 2 and all(n == (4 if f == "neutral" else 5) for f, n in head_starts.items())
        totals = {f.value: 0 for f in FACTIONS}
        for i in range(1, 8):
            m = by_user[user(i).id]
            p = m.payload
            me = state.player(p["seat"])
            assert p["faction"] == me.faction.value and p["alive"] == me.alive
            won = me.faction.value in state.winners
            assert p["result"] == ("loss" if not won else "shared" if len(state.winners) > 1 else "win")
            assert p["points"].get("survivors", 0) == (2 if me.alive else 0)
            totals[p["faction"]] += p["points"]["total"]
            # The rating's move is the standing's: from the last game's to this one's.
            after = standings[user(i).id].rating
            assert p["rating"]["after"] == after
            assert p["rating"]["before"] == (None if n == 0 else rated[user(i).id])
            rated[user(i).id] = after
            for loc in ("en-US", "zh-CN"):
                r = render_outgoing(m, info, locale=loc)
                text = text_of(r)
                if i == 1:
                    print(text)
                title = {"win": ("You won", "你赢了"), "shared": ("shared win", "共同获胜"), "loss": ("You lost", "你输了")}[p["result"]]
                assert title[0 if loc == "en-US" else 1] in text
                assert f"{abs(after):.1f}" in text
                assert r.view is not None and [c.custom_id for c in r.view.children] == [f"wh:replay:{game_id}"]  # type: ignore[attr-defined]
        # What the players scored themselves, with the others' teamkills and the head
        # start, is the faction's score; every ending names the head starts.
        assert {f: totals[f] + teamkill_points[f] + head_starts.get(f, 0) for f in totals} == state.scores
        assert all(m.payload.get("head_starts") == head_starts for m in by_user.values())
