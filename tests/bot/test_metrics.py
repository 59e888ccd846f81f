"""The bot's Prometheus metrics (bot/metrics.py, bot/discord/metrics_server.py), read as a
scraper reads them: /metrics over HTTP from the bot at the table, during a game on the
local Discord, checked by ``promtool check metrics`` and by the figures the game makes."""

from __future__ import annotations

import asyncio
import contextlib
import re
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from discord.http import Route
from prometheus_client.parser import text_string_to_metric_families
from yarl import URL

from bot import metrics
from bot.discord.client import WolfBot
from bot.discord.config import DiscordConfig
from bot.discord.metering import rest_trace, route
from bot.features.lobby.games import get_game
from discord_emulator import Emulator
from discord_emulator.interactions import MESSAGE_COMPONENT
from discord_emulator.ready import start_until_ready
from tests.bot.conftest import Table, reply_text, started_game
from tests.prometheus import PrometheusServer, free_port, promtool

PORT = free_port()

FAMILIES = {
    "wolfhowl_interactions": "counter",
    "wolfhowl_interaction_ack_duration_seconds": "histogram",
    "wolfhowl_interaction_answer_duration_seconds": "histogram",
    "wolfhowl_outbox_deliveries": "counter",
    "wolfhowl_outbox_pending_messages": "gauge",
    "wolfhowl_outbox_oldest_pending_age_seconds": "gauge",
    "wolfhowl_discord_requests": "counter",
    "wolfhowl_discord_ratelimited": "counter",
    "wolfhowl_games_live": "gauge",
    "wolfhowl_scheduler_lag_seconds": "gauge",
    "wolfhowl_scheduler_last_pass_timestamp_seconds": "gauge",
    "wolfhowl_unit_of_work_duration_seconds": "histogram",
    "wolfhowl_discord_gateway_latency_seconds": "gauge",
    "wolfhowl_discord_shard_connected": "gauge",
    "wolfhowl_heartbeat_age_seconds": "gauge",
    "wolfhowl_build_info": "gauge",  # (an info metric: a gauge of 1 in the text format)
    "wolfhowl_process_info": "gauge",
    "wolfhowl_database_up": "gauge",
}


async def scrape(port: int = PORT, accept: str = "") -> tuple[str, str]:
    headers = {"Accept": accept} if accept else {}
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics", headers=headers) as r:
        assert r.status == 200
        return await r.text(), r.headers["Content-Type"]


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the exposition: (name, sorted labels) -> value."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(found: dict[Any, float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_off_unless_a_port_is_set(monkeypatch):
    monkeypatch.delenv("WOLFHOWL_METRICS_PORT", raising=False)
    assert DiscordConfig().metrics_port is None and DiscordConfig().metrics_host == "127.0.0.1"
    monkeypatch.setenv("WOLFHOWL_METRICS_PORT", "9400")
    assert DiscordConfig().metrics_port == 9400
    monkeypatch.setenv("WOLFHOWL_METRICS_PORT", "")
    assert DiscordConfig().metrics_port is None
    monkeypatch.setenv("WOLFHOWL_METRICS_PORT", "0")
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        DiscordConfig()


async def test_a_bot_without_the_setting_records_nothing(table: Table):
    assert table.bot.metrics_server is None and metrics.current is None
    assert table.bot.http.http_trace is None  # not even the requests are traced


def test_routes_are_templates_without_ids():
    assert route("POST", "/api/v10/channels/123456789012345678/messages") == "POST /channels/{id}/messages"
    assert route("post", "/api/v10/interactions/1234567/aW50ZXJhY3Rpb246MTIzNDU2Nzg5/callback") == "POST /interactions/{id}/{token}/callback"
    assert route("PATCH", "/api/v10/webhooks/42/tok.en-x/messages/@original") == "PATCH /webhooks/{id}/{token}/messages/@original"
    assert route("GET", "/api/v10/oauth2/applications/@me") == "GET /oauth2/applications/@me"
    assert route("GET", "/?v=10&encoding=json") is None  # the gateway's connection
    # An emoji, as discord.py asks for a reaction (a Unicode one, a server's own): the URL
    # aiohttp makes of it gives the trace its raw path; its decoded path templates the same.
    # (A "/" in a value splits only the decoded path: why the trace reads the raw one.)
    for emoji in ("🐺", "wolf:123", "🐺/x"):
        url = URL(Route("PUT", "/channels/{c}/messages/{m}/reactions/{emoji}/@me", c=1, m=2, emoji=emoji).url)
        for path in (url.raw_path, url.path) if "/" not in emoji else (url.raw_path,):
            assert route("PUT", path) == "PUT /channels/{id}/messages/{id}/reactions/{value}/@me", (emoji, path)


async def test_the_trace_counts_a_reaction_by_its_template():
    """The REST trace as discord.py's session calls it for a reaction with an emoji: one
    series, the route's template, whatever the emoji."""
    recording = metrics.enable()
    try:
        on_request_end = rest_trace().on_request_end[0]
        for emoji in ("🐺", "🌕", "wolf:123", "🐺/x"):
            url = URL(Route("PUT", "/channels/{c}/messages/{m}/reactions/{emoji}/@me", c=1, m=2, emoji=emoji).url)
            response = SimpleNamespace(status=204, headers={})
            await on_request_end(None, None, SimpleNamespace(method="PUT", url=url, headers={}, response=response))
        labels = [s.labels for family in recording.rest_requests.collect() for s in family.samples if s.name.endswith("_total")]
        assert labels == [{"route": "PUT /channels/{id}/messages/{id}/reactions/{value}/@me"}]
    finally:
        metrics.disable(recording)


def test_a_component_is_counted_by_its_kind_only():
    assert metrics.component_kind("wh:join:123") == "wh:join"
    assert metrics.component_kind("wh:grailmodal:1:2:3") == "wh:grailmodal"
    assert metrics.component_kind("wh:zzz:1") == "other"  # forged: not a label of its own
    assert metrics.component_kind("x" * 100) == "other" and metrics.component_kind(None) == "other"


@pytest.mark.bot_config(metrics_port=PORT)
async def test_the_exposition_during_a_game(table: Table):
    """A game opened, joined and started by commands and buttons, a refusal, a forged
    button, a 429 on a route and global ones: /metrics says each as it happened, passes
    promtool, and carries no id in any label."""
    emu = table.emu
    limiter = emu.ctx.limiter
    limiter.global_limit = 8  # the start's sheets, all at once, meet Discord's global limit
    game_id = await started_game(table)
    limiter.global_limit = None
    # Refused: a player not in the game sends a number.
    outsider = table.players[6]
    refused = await table.run(outsider, "grail", {"number": 50})
    assert refused.message is not None and reply_text(refused)
    # A forged button no item takes: refused, counted as "other".
    forged = emu.ctx.interactions.create(MESSAGE_COMPONENT, table.players[0], table.channel, {"custom_id": "wh:forged:" + "9" * 20, "component_type": 2}, locale="en-US")
    await forged.wait(10)
    # A post meets its route's limit once: discord.py waits it out and sends it.
    limiter.exhaust("POST /channels/{channel_id}/messages", channel_id=table.channel.id)
    await table.run(table.mod, "phase extend", {"duration": "1h"})
    await table.delivered()

    text, content_type = await scrape()
    assert content_type.startswith("text/plain")
    checked = promtool("check", "metrics", stdin=text.encode())
    assert checked.returncode == 0, checked.stdout + checked.stderr

    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name, kind in FAMILIES.items():
        assert name in families, name
        assert families[name].type == kind and families[name].documentation, name
    found = samples(text)
    answered = {
        "mod create": 1, "mod start": 1, "wh:join": 6, "phase extend": 1,
    }  # fmt: skip
    for command, n in answered.items():
        assert value(found, "wolfhowl_interactions_total", command=command, outcome="answered") == n, command
    assert value(found, "wolfhowl_interactions_total", command="grail", outcome="refused") == 1
    assert value(found, "wolfhowl_interactions_total", command="other", outcome="refused") == 1
    assert sum(v for (name, labels), v in found.items() if name == "wolfhowl_interactions_total" and ("outcome", "failed") in labels) == 0
    # Every command's series is there from the start, at zero (a rate sees its first increment).
    assert ("wolfhowl_interactions_total", (("command", "phase advance"), ("outcome", "answered"))) in found
    handled = sum(v for (name, _), v in found.items() if name == "wolfhowl_interactions_total")
    assert handled == sum(answered.values()) + 2
    # Each interaction answered once and acknowledged once.
    assert value(found, "wolfhowl_interaction_answer_duration_seconds_count") == handled
    assert value(found, "wolfhowl_interaction_ack_duration_seconds_count") == handled
    assert value(found, "wolfhowl_interaction_ack_duration_seconds_bucket", le="3.0") == handled  # within Discord's 3 s

    # The start's sheets went by DM, the posts to the channel; nothing waits.
    assert value(found, "wolfhowl_outbox_deliveries_total", kind="dm", result="sent") >= 6
    assert value(found, "wolfhowl_outbox_deliveries_total", kind="channel", result="sent") >= 3
    assert value(found, "wolfhowl_outbox_pending_messages") == 0
    assert value(found, "wolfhowl_outbox_oldest_pending_age_seconds") == 0
    live = {(dict(labels)["status"], dict(labels)["phase"]): v for (name, labels), v in found.items() if name == "wolfhowl_games_live"}
    assert live == {("running", await _phase(table, game_id)): 1}
    assert value(found, "wolfhowl_scheduler_lag_seconds") == 0

    # Requests by route template; the route's 429 and the global ones apart.
    assert value(found, "wolfhowl_discord_requests_total", route="POST /channels/{id}/messages") >= 3
    assert value(found, "wolfhowl_discord_requests_total", route="POST /interactions/{id}/{token}/callback") >= handled - 1
    assert value(found, "wolfhowl_discord_ratelimited_total", route="POST /channels/{id}/messages", scope="route") >= 1
    assert sum(v for (name, labels), v in found.items() if name == "wolfhowl_discord_ratelimited_total" and ("scope", "global") in labels) >= 1

    assert value(found, "wolfhowl_unit_of_work_duration_seconds_count", kind="write") > 0
    assert value(found, "wolfhowl_unit_of_work_duration_seconds_count", kind="read") > 0
    assert value(found, "wolfhowl_discord_shard_connected", shard="0") == 1
    assert 0 <= value(found, "wolfhowl_discord_gateway_latency_seconds", shard="0") < 5
    assert 0 <= value(found, "wolfhowl_heartbeat_age_seconds") < 30
    assert value(found, "wolfhowl_database_up") == 1
    build = next(dict(labels) for (name, labels) in found if name == "wolfhowl_build_info")
    from bot.db.migrate import head_revision

    assert build["db_revision"] == head_revision() and build["version"] not in ("", "unknown")

    # No label grows with users, games, channels or messages: no id anywhere.
    for name, labels in found:
        for key, label in labels:
            assert not re.search(r"[0-9]{5,}", label), (name, key, label)
    assert str(game_id) not in {label for _, labels in found for _, label in labels}

    # OpenMetrics, when the scraper asks for it, passes too.
    om, om_type = await scrape(accept="application/openmetrics-text; version=1.0.0")
    assert om_type.startswith("application/openmetrics-text") and om.rstrip().endswith("# EOF")


async def _phase(table: Table, game_id: int) -> str:
    info = await get_game(table.db, game_id)
    return str(info.phase)


async def until(check: Any, what: str, timeout: float = 30) -> None:
    """Poll ``check`` (async) until true, for at most ``timeout`` seconds (a bound)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while not await check():
        assert loop.time() < give_up, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


@pytest.mark.bot_config(metrics_port=PORT, reminder_lead_seconds=0)
async def test_a_real_prometheus_scrapes_the_bot_during_a_game(table: Table, tmp_path):
    """Prometheus (Debian's, on 127.0.0.1) scrapes the bot every half second, with the
    shipped alerting rules, while a game is played at the table; its HTTP API then
    answers with the game's figures: the interactions answered (their count and rate),
    the outbox's age while the dispatcher is held, the scheduler's lag while it is, and
    the outbox alert pending."""
    rules = Path(__file__).resolve().parents[2] / "deploy" / "prometheus" / "alerts.yml"
    async with PrometheusServer(tmp_path, [f"127.0.0.1:{PORT}"], rules=[rules]) as prom:
        await prom.wait_for(lambda: prom.value('up{job="wolfhowl"}'), 30, "the first scrape")
        game_id = await started_game(table)
        players = table.players[:6]
        for p in players:  # each living player sends a number
            await table.run(p, "grail", {"number": 10})
        answered = 1 + 6 + 1 + 6  # mod create, six joins, mod start, six numbers

        async def all_answered() -> bool:
            return await prom.value('sum(wolfhowl_interactions_total{outcome="answered"})') == answered

        await prom.wait_for(all_answered, 30, f"{answered} answered interactions in Prometheus")
        assert await prom.value('wolfhowl_interactions_total{command="grail", outcome="answered"}') == 6
        rate = await prom.value('sum(rate(wolfhowl_interactions_total{outcome="answered"}[1m]))')
        assert rate is not None and rate > 0
        assert await prom.value('sum(wolfhowl_games_live{status="running"})') == 1

        # The outbox held: what the phase's close writes waits, and ages with the clock.
        # Everything written before (the numbers' receipts) is delivered first, so the
        # oldest waiting message is the close's own (on a loaded machine a receipt could
        # still be waiting, 2 h 10 min old by then).
        await table.delivered()
        await table.stop_dispatcher()
        table.clock.advance(2 * 3600)  # past the phase's deadline (2 h at most): the scheduler closes it

        async def written() -> bool:
            return await table.sendable() > 0

        await until(written, "the phase's close to write its posts")
        table.clock.advance(600)
        await prom.wait_for(lambda: prom.value("wolfhowl_outbox_oldest_pending_age_seconds == 600"), 30, "the outbox 600 s old")
        assert (await prom.value("wolfhowl_outbox_pending_messages") or 0) >= 1

        async def outbox_alert() -> list[Any]:
            alerts = (await prom.get("/api/v1/alerts"))["alerts"]
            return [a for a in alerts if a["labels"]["alertname"] == "WolfhowlOutboxStuck"]

        (alert,) = await prom.wait_for(outbox_alert, 30, "the outbox alert")
        assert alert["state"] in ("pending", "firing") and alert["labels"]["severity"] == "critical"

        # The scheduler held: the phase's deadline passes, unclosed, 90 s ago.
        table.bot.scheduler.stop()
        await next(t for t in asyncio.all_tasks() if t.get_name() == "wolfhowl-scheduler")
        info = await get_game(table.db, game_id)
        assert info.deadline is not None and info.deadline > table.clock.now
        table.clock.now = info.deadline + timedelta(seconds=90)
        await prom.wait_for(lambda: prom.value("wolfhowl_scheduler_lag_seconds == 90"), 30, "the scheduler 90 s behind")
        assert await prom.value("wolfhowl_heartbeat_age_seconds < 30") is not None
        assert await prom.value('wolfhowl_discord_shard_connected{shard="0"}') == 1


async def test_a_sharded_process_exposes_its_own_shards(sqlite_url: str):
    """Shards 1 and 3 of 4 in one process: its exposition has a latency and a connected
    state for each of them and for no other, says which shards it runs in its process
    info, and passes promtool."""
    port = free_port()
    async with Emulator(heartbeat_interval=0.5) as emu:
        with emu.patch_discord():
            owner = emu.create_user("owner")
            emu.create_guild("on shard 1", owner=owner, shard=(1, 4))
            emu.create_guild("on shard 3", owner=owner, shard=(3, 4))
            config = DiscordConfig(database_url=sqlite_url, token=emu.token, shard_count=4, shard_ids=[1, 3], sync_commands=False, metrics_port=port)
            bot = WolfBot(config, run_tasks=False)
            task = await start_until_ready(bot, emu.token, timeout=15)
            try:
                text, _ = await scrape(port)
            finally:
                await bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
            assert emu.server_errors == []
    checked = promtool("check", "metrics", stdin=text.encode())
    assert checked.returncode == 0, checked.stdout + checked.stderr
    found = samples(text)

    def by_shard(name: str) -> dict[str, float]:
        return {dict(labels)["shard"]: v for (n, labels), v in found.items() if n == name}

    assert by_shard("wolfhowl_discord_shard_connected") == {"1": 1.0, "3": 1.0}
    latency = by_shard("wolfhowl_discord_gateway_latency_seconds")
    assert sorted(latency) == ["1", "3"] and all(0 <= v < 5 for v in latency.values())
    info = [(dict(labels), v) for (n, labels), v in found.items() if n == "wolfhowl_process_info"]
    assert len(info) == 1 and info[0][0]["shards"] == "1,3/4" and info[0][0]["process"].endswith(":1,3/4") and info[0][1] == 1.0
