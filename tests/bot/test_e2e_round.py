"""The real bot on the local Discord emulator, a game played by slash commands: a round
with every kind of player argument, the deadline and its reminder, skills' toggles and
/orders clear, a guess outside the class's rule, and the autocomplete."""

from __future__ import annotations

from bot.core.views import player_view
from bot.features.lobby.games import game_in_channel
from bot.features.moderation.status import phase_status
from tests.bot.conftest import Table, reply_text, started_game


async def test_a_round_by_commands_with_every_kind_of_player_argument(table: Table):
    await started_game(table)
    alice, bob, carol, dave, erin, frank = table.players[:6]
    # Day: grail numbers, in a DM and (ephemerally) in the channel.
    out_of_range = await table.run(bob, "grail", {"number": 101}, dm=True)
    assert "1 to 100" in reply_text(out_of_range)
    assert "圣杯数字" in reply_text(await table.run(alice, "grail", {"number": 30}, dm=True))
    in_channel = await table.run(bob, "grail", {"number": 60})
    assert in_channel.ephemeral and "60" in reply_text(in_channel)
    # Wrong phase: a vote during Day.
    assert "only be sent during Morning" in reply_text(await table.run(bob, "vote", {"player": "1"}, dm=True))
    await table.run(table.mod, "phase advance")
    await table.delivered()
    # Dusk: attack by mention, by name, by seat; self-target refused; unknown player.
    # (Everyone attacks frank: no voter below can die tonight, whatever the classes.)
    r = await table.run(bob, "act attack", {"player": f"<@{frank.id}>"}, dm=True)
    assert "frank" in reply_text(r)
    assert "yourself" in reply_text(await table.run(carol, "act attack", {"player": "carol"}, dm=True))
    assert "No player matches" in reply_text(await table.run(carol, "act attack", {"player": "zed"}, dm=True))
    assert "received" in reply_text(await table.run(carol, "act attack", {"player": "#6"}, dm=True))
    # (No class has a skill by this name, whatever erin was dealt.)
    assert "no skill called" in reply_text(await table.run(erin, "act skill", {"skill": "dragon-breath"}, dm=True))
    # Identify with a guess typed in either language.
    # Identify with a guess the autocomplete offers (dave's own class's rule, in Chinese).
    offered = await table.emu.autocomplete(dave, "identify", focused="guess", value="", dm=True)
    assert offered and all("（" in c["name"] for c in offered)
    r = await table.run(dave, "identify", {"player": "bob", "guess": offered[0]["value"]}, dm=True)
    assert "bob" in reply_text(r) and offered[0]["name"].split("（")[0] in reply_text(r)
    # Status for the moderator: who has sent what kind, never the content.
    status = reply_text(await table.run(table.mod, "mod status"))
    assert "✅" in status and "#1 alice" in status
    assert "→" not in status and "Combat" not in status  # kinds only, never what was sent
    await table.run(table.mod, "phase advance")
    await table.delivered()
    # Morning: votes; a stranger from another server cannot vote.
    for voter in (alice, bob, dave):
        assert "erin" in reply_text(await table.run(voter, "vote", {"player": "erin"}, dm=True))
    assert "not in any game" in reply_text(await table.run(table.players[6], "vote", {"player": "erin"}, dm=True))
    await table.run(table.mod, "phase advance")
    await table.delivered()
    public = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))
    announcement = next(t for t in public if "Morning announcement" in t)
    assert "erin **×3**" in announcement
    # The morning post says nothing of who voted for whom.
    assert not any(name in announcement for name in ("alice", "bob", "dave"))


async def test_the_deadline_advances_and_reminds_those_who_have_not_sent(table: Table):
    await started_game(table, reminder="30m")
    alice, bob = table.players[0], table.players[1]
    await table.run(alice, "grail", {"number": 10}, dm=True)
    table.clock.advance(90 * 60)  # 30 minutes before the 2h deadline
    table.bot.wake_scheduler()
    await table.emu.wait_for(lambda: any("Reminder" in t for t in table.texts(table.emu.dms(bob))) or None, timeout=5)
    await table.delivered()
    assert not any("提醒" in t for t in table.texts(table.emu.dms(alice)))  # alice had sent
    table.clock.advance(31 * 60)
    table.bot.wake_scheduler()
    await table.emu.wait_for(
        lambda: any("Dusk 1" in t for t in table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))) or None,
        timeout=5,
    )


async def test_skills_toggles_and_orders_clear_by_command(table: Table):
    await started_game(table)
    await table.run(table.mod, "phase advance")
    from engine.classes import class_spec

    info = await game_in_channel(table.db, table.channel.id)
    views = {p.user_id: await player_view(table.db, p.user_id, info.id) for p in info.players}
    users = {u.id: u for u in table.players}
    # Someone with a toggle switches it on, then off, by name in their own language.
    toggler = next(uid for uid, v in views.items() if any(s.mode == "toggle" for s in class_spec(v.sheet["class_id"]).skills))
    toggle = next(s for s in class_spec(views[toggler].sheet["class_id"]).skills if s.mode == "toggle")
    loc = users[toggler].locale
    on = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.name[loc]}, dm=True))
    assert toggle.name[loc] in on and ("🔁" in on)
    off = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.id}, dm=True))
    assert "🔁" not in off
    # With `switch`, sending it twice (a retry after a lost answer) keeps it as asked.
    for _ in range(2):
        kept = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.id, "switch": True}, dm=True))
        assert "🔁" in kept
    off = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.id, "switch": False}, dm=True))
    assert "🔁" not in off
    # `switch` on a skill that is no toggle: refused, in the player's language, nothing sent.
    plain = next(s for s in class_spec(views[toggler].sheet["class_id"]).skills if s.mode == "active")
    before = (await player_view(table.db, toggler, info.id)).sent
    refused = await table.run(users[toggler], "act skill", {"skill": plain.id, "switch": True}, dm=True)
    assert ("`switch`" if loc == "en-US" else "`开关`") in reply_text(refused), reply_text(refused)
    assert (await player_view(table.db, toggler, info.id)).sent == before
    # Someone attacks, then clears the night's orders with /orders clear: withdrawn,
    # so nothing of that kind counts as sent any more.
    attacker = table.players[1]
    await table.run(attacker, "act attack", {"player": "#1"}, dm=True)
    assert "orders" in (await phase_status(table.db, info.id)).sent.get(2, ())
    cleared = reply_text(await table.run(attacker, "orders", {"clear": "orders"}, dm=True))
    assert "Night orders: withdrawn" in cleared and "Night orders: nothing yet" in cleared
    assert "orders" not in (await phase_status(table.db, info.id)).sent.get(2, ())
    again = reply_text(await table.run(attacker, "orders", {"clear": "orders"}, dm=True))
    assert "there was nothing to withdraw" in again
    # "Nothing tonight" sends empty orders instead: they count as sent.
    passed = reply_text(await table.run(attacker, "orders", {"clear": "pass"}, dm=True))
    assert "Nothing tonight (counts as sent)" in passed
    assert "orders" in (await phase_status(table.db, info.id)).sent.get(2, ())


async def test_a_guess_outside_the_class_rule_is_refused_with_the_rule(table: Table):
    """Naming more players than the class may, each night, is refused with what the class
    may name, in the player's language; the guesses already sent stay."""
    from bot.core.views import player_view
    from bot.render.sheet import identify_rule

    game_id = await started_game(table)
    await table.run(table.mod, "phase advance")
    await table.delivered()
    bob = table.players[1]
    sheet = (await player_view(table.db, bob.id, game_id)).sheet
    slot = sheet["identify"][0]
    value = slot["values"][0] if slot["values"] else {"trait": "combat", "class": "warrior", "faction": "lawful"}[slot["what"]]
    answers = []
    for seat in (1, 3, 4, 5, 6):
        answers.append(reply_text(await table.run(bob, "identify", {"player": str(seat), "guess": f"{slot['what']}:{value}"}, dm=True)))
    refused = [a for a in answers if "does not fit" in a]
    assert refused, answers
    rule_lines = identify_rule(sheet, "en-US").splitlines()
    assert all(line in refused[0] for line in rule_lines) and "/orders clear:" in refused[0]
    assert "Identifications: " in reply_text(await table.run(bob, "orders", dm=True))


async def test_autocomplete_in_a_dm_lists_living_players_but_not_me(table: Table):
    await started_game(table)
    alice, bob = table.players[0], table.players[1]
    await table.run(table.mod, "mod kick", {"player": "3"})
    choices = await table.emu.autocomplete(alice, "vote", focused="player", value="", dm=True)
    assert [c["value"] for c in choices] == ["2", "4", "5", "6"]
    choices = await table.emu.autocomplete(bob, "act attack", focused="player", value="fr", dm=True)
    assert choices == [{"name": "#6 frank", "value": "6"}]
