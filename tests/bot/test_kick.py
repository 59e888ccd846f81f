"""/mod kick as the other players meet it: whoever had voted for, ordered against or
guessed the removed player is told privately, in their language, what became of it."""

from __future__ import annotations

from bot.core.views import player_view
from bot.features.lobby.games import get_game
from tests.bot.conftest import Table, open_lobby, reply_text, started_game, started_with_closed_dms


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
    await table.run(table.mod, "mod kick", {"player": "erin"})
    await table.delivered()

    def news(user):
        return table.texts([m for m in table.emu.dms(user)[before[user.id]:] if m.interaction_id is None])

    assert any("投给其的票不再计数" in t and "/投票" in t for t in news(alice)), news(alice)
    assert any("erin has been removed" in t and "Vote again with `/vote`" in t for t in news(bob)), news(bob)
    assert not any("vote" in t.casefold() for t in news(carol))  # carol voted for someone else
    # bob's vote is taken back; carol's stands.
    assert "vote" not in (await player_view(table.db, bob.id)).sent
    assert "vote" in (await player_view(table.db, carol.id)).sent
    public = "\n".join(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))
    assert "Vote again" not in public and "taken back" not in public
    # bob votes again, as told.
    assert "erin" not in reply_text(await table.run(bob, "vote", {"player": "carol"}, dm=True))
    assert (await player_view(table.db, bob.id)).sent["vote"]["target"] == 3
    assert (await get_game(table.db, game_id)).phase == "morning"


async def test_the_moderator_learns_that_a_player_left_the_server(table: Table):
    """Without the members intent nobody tells the bot that someone left; their DMs then
    fail as closed DMs do. The bot asks Discord and tells the moderator once, instead of
    pinging in the channel someone who can no longer read it."""
    lobby, join_id = await open_lobby(table)
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    game_id = int(join_id.rsplit(":", 1)[1])
    erin = table.players[4]
    del table.guild.members[erin.id]  # erin leaves the server (no event reaches the bot)
    mod_dms = len(table.emu.dms(table.mod))
    await table.run(table.mod, "mod start")  # everyone's character sheet
    await table.delivered()
    await table.run(table.mod, "phase advance")
    await table.delivered()
    told = [t for t in table.texts(table.emu.dms(table.mod)[mod_dms:]) if "has left the server" in t]
    assert len(told) == 1, told
    assert f"<@{erin.id}> (#5 erin in game #{game_id})" in told[0] and "/mod replace" in told[0]
    public = table.emu.channel_messages(table.channel, include_ephemeral=False)
    assert not any(f"<@{erin.id}>" in (m.content or "") for m in public)


async def test_a_player_removed_after_leaving_the_server_is_neither_reported_nor_pinged(table: Table):
    """The moderator removes someone who left the server: the note to the removed player
    fails, and the bot finds they left; a removed seat needs nothing more from the
    moderator, and a ping in the channel would reach nobody."""
    await started_game(table)
    erin = table.players[4]
    await table.delivered()
    del table.guild.members[erin.id]
    mod_dms = len(table.emu.dms(table.mod))
    await table.run(table.mod, "mod kick", {"player": "erin"})
    await table.delivered()
    assert not any("has left the server" in t for t in table.texts(table.emu.dms(table.mod)[mod_dms:]))
    public = table.emu.channel_messages(table.channel, include_ephemeral=False)
    assert any("erin" in t and "removed" in t for t in table.texts(public)), table.texts(public)[-3:]
    assert not any(f"<@{erin.id}>" in (m.content or "") for m in public)


async def test_closed_dms_of_a_member_are_not_taken_for_leaving(table: Table):
    mod_dms = len(table.emu.dms(table.mod))
    grace = await started_with_closed_dms(table)
    await table.run(table.mod, "phase advance")
    await table.delivered()
    assert not any("has left the server" in t for t in table.texts(table.emu.dms(table.mod)[mod_dms:]))
    public = table.emu.channel_messages(table.channel, include_ephemeral=False)
    assert any(f"<@{grace.id}>" in (m.content or "") for m in public)  # the inbox ping, as before
