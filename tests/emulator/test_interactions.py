"""Interactions end to end with the real discord.py client: commands, components, rules."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from discord_emulator import Emulator, InteractionFailed, InvalidInvocation
from discord_emulator.state import FLAG_EPHEMERAL

from .botkit import SandboxBot, tiny_png
from .conftest import World


@pytest.mark.asyncio
async def test_slash_with_user_option_answered_ephemerally(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(world.alice, "greet", {"target": world.bob}, guild=world.guild)
    await result.wait()
    assert result.response_type == 4
    assert result.ephemeral
    assert result.content == "hello bob from alice (zh-CN)"
    payload = result.record.payload
    assert payload["member"]["user"]["id"] == str(world.alice.id)
    assert payload["data"]["resolved"]["users"][str(world.bob.id)]["username"] == "bob"
    assert payload["context"] == 0 and payload["locale"] == "zh-CN"
    # Ephemeral replies are recorded but only visible to the invoker.
    assert result.message is not None and result.message.visible_to == world.alice.id
    assert result.message.flags & FLAG_EPHEMERAL


@pytest.mark.asyncio
async def test_subcommand_group_and_autocomplete(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    choices = await emu.autocomplete(
        world.bob, "act combat attack", focused="target", value="al", guild=world.guild
    )
    assert choices == [{"name": "Alice", "value": "alice"}, {"name": "Albert", "value": "albert"}]
    result = await emu.slash(
        world.bob, "act combat attack", {"target": "alice", "power": 3}, guild=world.guild
    )
    await result.wait()
    assert result.content == "bob attacks alice with 3"
    assert not result.ephemeral
    assert result.record.payload["data"]["options"][0]["name"] == "combat"
    with pytest.raises(InvalidInvocation):
        await emu.slash(
            world.bob, "act combat attack", {"target": "alice", "power": 11}, guild=world.guild
        )
    with pytest.raises(InvalidInvocation):
        await emu.slash(world.bob, "act combat attack", {"power": 2}, guild=world.guild)
    with pytest.raises(InvalidInvocation):
        await emu.slash(world.bob, "act defend", guild=world.guild)


@pytest.mark.asyncio
async def test_autocomplete_over_25_choices_is_rejected(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    task = asyncio.create_task(
        emu.autocomplete(world.bob, "many", focused="pick", value="", guild=world.guild)
    )
    rejected = await emu.wait_for(lambda: emu.interactions and emu.interactions[-1].rejected)
    assert rejected[0].code == 50035 and "choices" in rejected[0].errors["data"]
    emu.clock.advance(5)  # nobody answered validly: the user sees "interaction failed"
    with pytest.raises(InteractionFailed):
        await task


@pytest.mark.asyncio
async def test_deferred_reply_with_png_followup(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(world.alice, "report", guild=world.guild)
    await result.wait()
    assert result.deferred and result.response_type == 5 and result.ephemeral
    message = result.message
    assert message is not None and not message.loading and not message.edited
    attachment = message.attachments[0]
    assert attachment.filename == "chart.png" and attachment.data == tiny_png()
    assert (attachment.width, attachment.height) == (2, 3)
    assert message.embeds[0]["title"] == "Stats"
    assert message.embeds[0]["image"]["url"] == attachment.url
    followups = await result.wait_followups(2)
    assert followups[0] is message  # the first followup filled the "thinking" message
    assert followups[1].content == "and one more thing" and followups[1].ephemeral is False
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == tiny_png()


@pytest.mark.asyncio
async def test_second_response_is_40060(emu: Emulator, world: World, bot: SandboxBot) -> None:
    result = await emu.slash(world.bob, "double", guild=world.guild)
    await result.wait()
    await asyncio.wait_for(bot.error_event.wait(), 5)
    error = bot.errors[0]
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 40060
    assert result.content == "first"
    assert result.rejected[0].code == 40060


@pytest.mark.asyncio
async def test_response_after_deadline_is_unknown_interaction(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(world.bob, "late", guild=world.guild)
    emu.clock.advance(3.5)
    bot.gate.set()
    await asyncio.wait_for(bot.error_event.wait(), 5)
    error = bot.errors[0]
    assert isinstance(error, discord.NotFound) and error.code == 10062
    with pytest.raises(InteractionFailed):
        await result.wait(timeout=1)


@pytest.mark.asyncio
async def test_persistent_view_button_and_select(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    posted = await emu.slash(world.alice, "panel", guild=world.guild)
    await posted.wait()
    panel = await emu.wait_for_message(
        lambda m: m.content.startswith("joined:") and bool(m.components)
    )
    assert set(panel.custom_ids()) == {"panel:join", "panel:class"}

    click = await emu.click(world.bob, panel, "panel:join")
    await click.wait()
    assert click.response_type == 7 and click.message is panel
    assert panel.content == "joined: bob" and panel.edited
    assert panel.revisions[0].content == "joined: nobody"

    pick = await emu.select(world.carol, panel, "panel:class", ["mage"])
    await pick.wait()
    assert pick.ephemeral and pick.content == "you picked mage"
    with pytest.raises(InvalidInvocation):
        await emu.select(world.carol, panel, "panel:class", ["rogue"])
    with pytest.raises(InvalidInvocation):
        await emu.click(world.carol, panel, "panel:leave")


@pytest.mark.asyncio
async def test_modal_round_trip(emu: Emulator, world: World, bot: SandboxBot) -> None:
    opened = await emu.slash(world.alice, "form", guild=world.guild)
    await opened.wait()
    assert (
        opened.response_type == 9
        and opened.modal is not None
        and opened.modal["title"] == "Your name"
    )
    submitted = await emu.submit_modal(world.alice, opened, {"name": "Alice"})
    await submitted.wait()
    assert submitted.content == "welcome Alice" and submitted.ephemeral
    with pytest.raises(InvalidInvocation):
        await emu.submit_modal(world.alice, opened, {"name": "x" * 21})
    # A form left open by someone who has left the server cannot be sent any more.
    reopened = await (await emu.slash(world.alice, "form", guild=world.guild)).wait()
    emu.remove_member(world.guild, world.alice)
    with pytest.raises(InvalidInvocation, match="not a member"):
        await emu.submit_modal(world.alice, reopened, {"name": "Alice"})


@pytest.mark.asyncio
async def test_default_member_permissions_hide_commands(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    with pytest.raises(InvalidInvocation, match="hidden"):
        await emu.slash(world.bob, "room", {"name": "x", "guest": world.alice}, guild=world.guild)


@pytest.mark.asyncio
async def test_commands_in_dms(emu: Emulator, world: World, bot: SandboxBot) -> None:
    result = await emu.slash(world.bob, "dmhelp", dm=True)
    await result.wait()
    assert result.content == "help for bob"
    assert result.record.payload["context"] == 1 and "user" in result.record.payload
    assert emu.dms(world.bob) == [result.message]
    with pytest.raises(InvalidInvocation):
        await emu.slash(world.bob, "greet", {"target": world.alice}, dm=True)


@pytest.mark.asyncio
async def test_interactions_need_a_connected_bot(emu: Emulator, world: World) -> None:
    from discord_emulator import BotNotConnected

    url = f"{emu.api_url}/applications/{emu.application_id}/guilds/{world.guild.id}/commands"
    command = {
        "name": "greet",
        "description": "hi",
        "options": [{"type": 6, "name": "target", "description": "who"}],
    }
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession(headers=headers) as session,
        session.put(url, json=[command]) as response,
    ):
        assert response.status == 200
        stored = await response.json()
    assert stored[0]["id"] and stored[0]["guild_id"] == str(world.guild.id)
    with pytest.raises(BotNotConnected):
        await emu.slash(world.bob, "greet", {"target": world.alice}, guild=world.guild)


@pytest.mark.asyncio
async def test_view_on_interaction_response_with_deferred_update(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    started = await emu.slash(world.alice, "vote", guild=world.guild)
    await started.wait()
    assert started.message is not None and started.message.custom_ids() == ["vote:yes"]
    click = await emu.click(world.bob, started.message, "vote:yes")
    await click.wait()  # final once the deferred update edited the message
    assert click.response_type == 6
    assert started.message.content == "votes: 1"


@pytest.mark.asyncio
async def test_edit_original_fetch_and_followup_edit_delete(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(world.bob, "countdown", guild=world.guild)
    await result.wait()
    await emu.wait_for_message(lambda m: m.content == "temporary" and m.deleted, kinds=("delete",))
    assert result.content == "2" and [r.content for r in result.message.revisions] == ["3"]
    note, extra = result.followups
    assert (
        note.ephemeral
        and note.content == "note edited"
        and note.revisions[0].content == "original says 2"
    )
    assert extra.deleted
    visible = [
        m.content for m in emu.channel_messages(result.message.channel_id, include_ephemeral=False)
    ]
    assert visible == ["2"]


@pytest.mark.asyncio
async def test_followup_after_token_expiry_is_rejected(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(world.bob, "slowjob", guild=world.guild)
    await emu.wait_for(lambda: result.acknowledged)
    emu.clock.advance(15 * 60 + 1)
    bot.gate.set()
    await asyncio.wait_for(bot.error_event.wait(), 5)
    error = bot.errors[0]
    assert isinstance(error, discord.HTTPException) and error.status == 401 and error.code == 50027


@pytest.mark.asyncio
async def test_the_record_keeps_when_an_interaction_was_acknowledged_and_answered(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(world.alice, "slowjob", guild=world.guild)
    await emu.wait_for(lambda: result.acknowledged, 5, "the defer")
    assert result.ack_seconds is not None and 0 <= result.ack_seconds < 3
    assert result.answer_seconds is None  # "thinking…" is no answer yet
    emu.clock.advance(10)
    bot.gate.set()
    await result.wait()
    assert result.answer_seconds is not None and result.answer_seconds >= result.ack_seconds + 10
