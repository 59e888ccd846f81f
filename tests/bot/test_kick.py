"""/game kick as the other players meet it: whoever had voted for, ordered against or
guessed the removed player is told privately, in their language, what became of it."""

from __future__ import annotations

import bot.service as service
from tests.bot.conftest import Table, reply_text
from tests.bot.test_bot_e2e import started_game


async def test_voters_for_a_kicked_player_are_asked_to_vote_again(table: Table):
    game_id = await started_game(table)
    alice, bob, carol = table.players[:3]  # alice reads Chinese
    await table.run(table.mod, "phase advance")
    await table.run(table.mod, "phase advance")  # a quiet night: everyone is alive at Morning
    await table.delivered()
    for voter, choice in ((alice, "erin"), (bob, "erin"), (carol, "alice")):
        await table.run(voter, "vote", {"player": choice}, dm=True)
    await table.delivered()
    before = {u.id: len(table.emu.dms(u)) for u in (alice, bob, carol)}
    await table.run(table.mod, "game kick", {"player": "erin"})
    await table.delivered()

    def news(user):
        return table.texts([m for m in table.emu.dms(user)[before[user.id]:] if m.interaction_id is None])

    assert any("投给其的票不再计数" in t and "/投票" in t for t in news(alice)), news(alice)
    assert any("erin has been removed" in t and "Vote again with `/vote`" in t for t in news(bob)), news(bob)
    assert not any("vote" in t.casefold() for t in news(carol))  # carol voted for someone else
    # bob's vote is taken back; carol's stands.
    assert "vote" not in (await service.player_view(table.db, bob.id)).sent
    assert "vote" in (await service.player_view(table.db, carol.id)).sent
    public = "\n".join(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))
    assert "Vote again" not in public and "taken back" not in public
    # bob votes again, as told.
    assert "erin" not in reply_text(await table.run(bob, "vote", {"player": "carol"}, dm=True))
    assert (await service.player_view(table.db, bob.id)).sent["vote"]["target"] == 3
    assert (await service.get_game(table.db, game_id)).phase == "morning"
