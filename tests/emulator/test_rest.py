"""REST behaviour: DMs, limits, permissions, rate limits, retries, channels, auth."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest

from discord_emulator import Emulator
from discord_emulator import permissions as perm

from .botkit import SandboxBot
from .conftest import World

SEND = "POST /channels/{channel_id}/messages"
RATE_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "X-RateLimit-Reset-After",
    "X-RateLimit-Bucket",
    "X-RateLimit-Scope",
)


def general(world: World) -> Any:
    return next(iter(world.guild.channels.values()))


async def _raw(emu: Emulator, method: str, path: str, **kwargs: Any) -> tuple[int, Any, Any]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession(headers=headers) as session,
        session.request(method, emu.api_url + path, **kwargs) as response,
    ):
        body = await response.json() if response.content_type == "application/json" else None
        return response.status, body, response.headers


@pytest.mark.asyncio
async def test_dm_send_is_recorded(emu: Emulator, world: World, bot: SandboxBot) -> None:
    result = await emu.slash(world.alice, "whisper", {"target": world.bob}, guild=world.guild)
    await result.wait()
    assert result.content == "sent"
    dms = emu.dms(world.bob)
    assert [m.content for m in dms] == ["a secret role: werewolf"]
    assert dms[0].author.id == emu.bot_user.id and dms[0].guild_id is None


@pytest.mark.asyncio
async def test_dm_to_closed_user_is_forbidden_50007(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(world.alice, "whisper", {"target": world.carol}, guild=world.guild)
    await result.wait()
    error = bot.errors[0]
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert result.content == "could not DM (50007)"
    assert emu.dms(world.carol) == []


@pytest.mark.asyncio
async def test_content_over_2000_is_50035(emu: Emulator, world: World, bot: SandboxBot) -> None:
    result = await emu.slash(world.alice, "long", guild=world.guild)
    await result.wait()
    error = bot.errors[0]
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 50035
    assert "content" in error.text and "2000" in error.text
    assert result.content == "tried"
    assert not [m for m in emu.channel_messages(general(world)) if m.content.startswith("xxx")]


@pytest.mark.asyncio
async def test_429_is_retried_by_discord_py(emu: Emulator, world: World, bot: SandboxBot) -> None:
    channel = general(world)
    emu.ratelimits.configure(SEND, limit=1, window=0.3)
    emu.ratelimits.exhaust(SEND, channel_id=channel.id)  # as if another process used the bucket
    result = await emu.slash(world.alice, "announce", {"text": "after-429"}, guild=world.guild)
    await result.wait()
    await emu.wait_for_message(lambda m: m.content == "after-429")
    limited = emu.requests_for(SEND, status=429)
    assert len(limited) == 1
    assert limited[0].response["retry_after"] > 0 and limited[0].response["global"] is False
    assert len(emu.requests_for(SEND, status=200)) == 1
    assert [m.content for m in emu.channel_messages(channel)].count("after-429") == 1
    assert bot.errors == []


@pytest.mark.asyncio
async def test_answers_to_interactions_are_outside_the_global_limit(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    # Discord: interaction endpoints are not bound to the global rate limit. With a limit
    # of 0 every request a bot token makes is refused, so only the exemption lets the
    # reply, its edit, the followups and their edit and deletion through.
    emu.ratelimits.global_limit = 0
    result = await emu.slash(world.bob, "countdown", guild=world.guild)
    await result.wait()
    await emu.wait_for_message(lambda m: m.content == "temporary" and m.deleted, kinds=("delete",))
    answers = [r for r in emu.requests if "/interactions/" in r.route or "/webhooks/" in r.route]
    assert len(answers) >= 6 and {r.status for r in answers} <= {200, 204}
    status, body, _ = await _raw(emu, "GET", f"/channels/{result.message.channel_id}")
    assert status == 429 and body["global"] is True


@pytest.mark.asyncio
async def test_rate_limit_headers_let_discord_py_wait_preemptively(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    emu.ratelimits.configure(SEND, limit=2, window=0.3)
    result = await emu.slash(world.alice, "burst", {"count": 5}, guild=world.guild)
    await result.wait()
    assert [r.status for r in emu.requests_for(SEND)] == [200] * 5  # no 429: headers were honoured
    visible = emu.channel_messages(general(world), include_ephemeral=False)
    assert [m.content for m in visible] == [f"burst {i}" for i in range(5)]


@pytest.mark.asyncio
async def test_injected_502_is_retried(emu: Emulator, world: World, bot: SandboxBot) -> None:
    emu.inject_failures(SEND, status=502, count=1)
    result = await emu.slash(world.alice, "announce", {"text": "after-502"}, guild=world.guild)
    await result.wait()
    await emu.wait_for_message(lambda m: m.content == "after-502", timeout=10)
    assert [r.status for r in emu.requests_for(SEND)] == [502, 200]
    assert bot.errors == []


@pytest.mark.asyncio
async def test_missing_send_permission_is_50013(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    locked = emu.create_text_channel(
        world.guild, "locked", overwrites={world.guild.everyone_role: (0, perm.SEND_MESSAGES)}
    )
    await emu.wait_for(lambda: bot.get_channel(locked.id), what="CHANNEL_CREATE in the bot cache")
    result = await emu.slash(world.alice, "announce", {"text": "hi"}, channel=locked)
    await result.wait()
    await asyncio.wait_for(bot.error_event.wait(), 5)
    assert isinstance(bot.errors[0], discord.Forbidden) and bot.errors[0].code == 50013


@pytest.mark.asyncio
async def test_bot_creates_private_channel_with_overwrites(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    result = await emu.slash(
        world.alice, "room", {"name": "Secret Room", "guest": world.bob}, guild=world.guild
    )
    await result.wait()
    channel = next(c for c in world.guild.channels.values() if c.name == "secret-room")
    assert result.content == f"created <#{channel.id}>"
    assert emu.permissions_of(world.bob, channel) & perm.VIEW_CHANNEL
    assert emu.permissions_of(world.alice, channel) & perm.VIEW_CHANNEL
    assert not emu.permissions_of(world.carol, channel) & perm.VIEW_CHANNEL
    assert [m.content for m in emu.channel_messages(channel)] == [f"welcome <@{world.bob.id}>"]
    cached = await emu.wait_for(lambda: bot.get_channel(channel.id), what="channel cache")
    assert isinstance(cached, discord.TextChannel)
    assert cached.overwrites_for(cached.guild.default_role).view_channel is False


@pytest.mark.asyncio
async def test_wrong_token_is_401_login_failure(emu: Emulator) -> None:
    client = discord.Client(intents=discord.Intents.default())
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()
    assert emu.requests[-1].status == 401


@pytest.mark.asyncio
async def test_raw_embed_limits_and_headers(emu: Emulator, world: World) -> None:
    path = f"/channels/{general(world).id}/messages"
    embed = {"title": "t" * 257, "fields": [{"name": "n", "value": "v" * 1025}]}
    status, body, headers = await _raw(emu, "POST", path, json={"embeds": [embed]})
    assert status == 400 and body["code"] == 50035
    assert body["errors"]["embeds"]["0"]["title"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert "value" in body["errors"]["embeds"]["0"]["fields"]["0"]
    assert all(h in headers for h in RATE_HEADERS) and headers["Via"] == "1.1 google"
    big = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    status, body, _ = await _raw(emu, "POST", path, json={"embeds": big})
    assert body["errors"]["embeds"]["_errors"][0]["code"] == "MAX_EMBED_SIZE_EXCEEDED"
    status, body, _ = await _raw(emu, "POST", path, json={"content": ""})
    assert status == 400 and body["code"] == 50006
    status, body, headers = await _raw(emu, "POST", path, json={"content": "fine"})
    assert (
        status == 200
        and body["content"] == "fine"
        and headers["Content-Type"] == "application/json"
    )


@pytest.mark.asyncio
async def test_raw_message_edit_delete_and_history(emu: Emulator, world: World) -> None:
    path = f"/channels/{general(world).id}/messages"
    _, first, _ = await _raw(emu, "POST", path, json={"content": "one"})
    _, edited, _ = await _raw(emu, "PATCH", f"{path}/{first['id']}", json={"content": "uno"})
    assert edited["content"] == "uno" and edited["edited_timestamp"] is not None
    await _raw(emu, "POST", path, json={"content": "two"})
    status, history, _ = await _raw(emu, "GET", path, params={"limit": "10"})
    assert status == 200 and [m["content"] for m in history] == ["two", "uno"]
    status, _, _ = await _raw(emu, "DELETE", f"{path}/{first['id']}")
    assert status == 204
    status, body, _ = await _raw(emu, "GET", f"{path}/{first['id']}")
    assert status == 404 and body["code"] == 10008
    message = emu.channel_messages(general(world), include_deleted=True)[0]
    assert message.deleted and message.revisions[0].content == "one"


@pytest.mark.asyncio
async def test_an_enforced_nonce_returns_the_first_message_and_creates_no_second(
    emu: Emulator, world: World
) -> None:
    """Discord: with ``enforce_nonce``, a nonce the same author used in the last few
    minutes returns that message and creates none; without it, each send is a message."""
    path = f"/channels/{general(world).id}/messages"
    sent = [
        (await _raw(emu, "POST", path, json={"content": text, "nonce": "n-1", "enforce_nonce": True}))[1]
        for text in ("once", "once again")
    ]
    assert sent[0]["id"] == sent[1]["id"] and sent[1]["content"] == "once"
    assert sent[0]["nonce"] == "n-1"
    for _ in range(2):
        await _raw(emu, "POST", path, json={"content": "loose", "nonce": "n-2"})
    contents = [m.content for m in emu.channel_messages(general(world))]
    assert contents.count("once") == 1 and "once again" not in contents
    assert contents.count("loose") == 2


@pytest.mark.asyncio
async def test_raw_invalid_command_registration(emu: Emulator, world: World) -> None:
    path = f"/applications/{emu.application_id}/commands"
    bad = [
        {"name": "Bad Name", "description": "x"},
        {
            "name": "ok",
            "description": "x",
            "options": [
                {
                    "type": 3,
                    "name": "a",
                    "description": "d",
                    "choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)],
                }
            ],
        },
    ]
    status, body, _ = await _raw(emu, "PUT", path, json=bad)
    assert status == 400 and body["code"] == 50035
    assert "name" in body["errors"]["0"]
    assert "choices" in body["errors"]["1"]["options"]["0"]
    assert emu.registered_commands() == []


@pytest.mark.asyncio
async def test_missing_auth_is_401_but_attachments_are_public(emu: Emulator, world: World) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(emu.api_url + "/users/@me") as response,
    ):
        assert response.status == 401 and (await response.json())["message"] == "401: Unauthorized"
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 30
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "file"}', content_type="application/json")
    form.add_field("files[0]", png, filename="a.png", content_type="application/octet-stream")
    status, body, _ = await _raw(emu, "POST", f"/channels/{general(world).id}/messages", data=form)
    assert status == 200 and body["attachments"][0]["filename"] == "a.png"
    assert body["attachments"][0]["content_type"] == "image/png"
    async with (
        aiohttp.ClientSession() as session,
        session.get(body["attachments"][0]["url"]) as response,
    ):
        assert response.status == 200 and await response.read() == png


@pytest.mark.asyncio
async def test_unknown_routes_and_resources(emu: Emulator, world: World) -> None:
    status, body, _ = await _raw(emu, "GET", "/nothing/here")
    assert status == 404 and body == {"message": "404: Not Found", "code": 0}
    status, body, _ = await _raw(emu, "GET", "/channels/123/messages")
    assert status == 404 and body["code"] == 10003
    status, body, _ = await _raw(emu, "POST", "/users/@me/channels", json={"recipient_id": "1"})
    assert status == 404 and body["code"] == 10013
    status, body, _ = await _raw(emu, "POST", "/interactions/1/abc/callback", json={"type": 4})
    assert status == 404 and body["code"] == 10062


def test_a_commands_size_counts_the_longest_version_of_each_localized_field() -> None:
    """Discord's 4,000 characters: a localized name or description counts once, at its
    longest (the default or a localization), not once per version."""
    from discord_emulator.commands import MAX_TOTAL_CHARS, CommandStore
    from discord_emulator.errors import ApiError
    from discord_emulator.state import SnowflakeFactory

    store = CommandStore(1, SnowflakeFactory())

    def command(description: str, localized: str) -> dict[str, Any]:
        def field(name: str, **more: Any) -> dict[str, Any]:
            return {"name": name, "description": description, "description_localizations": {"zh-CN": localized}, **more}

        subs = [field(f"s{i:02d}", type=1, options=[field("o", type=3)]) for i in range(20)]
        return {"name": "game", "type": 1, "description": "d", "options": subs}

    # 20 subcommands of 3 + 97 + 1 + 97 characters, each description also in Chinese:
    # 3,965 counted (counting every version would make it 6,365).
    assert store.bulk_overwrite(None, [command("x" * 97, "字" * 60)])
    with pytest.raises(ApiError) as refused:
        store.bulk_overwrite(None, [command("x" * 60, "字" * 99)])  # the localization is the longest
    assert f"maximum size ({MAX_TOTAL_CHARS})" in str(refused.value.errors)
