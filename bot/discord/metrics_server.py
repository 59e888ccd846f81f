"""``/metrics``: the bot process's Prometheus exposition, served on ``metrics_host``:
``metrics_port`` when that is set (docs/operations.md#metrics). Off when unset.

Served from the bot's own event loop (aiohttp's server, which discord.py already
brings), the text written by prometheus-client (``choose_encoder``: the classic text
format, or OpenMetrics when the scraper asks for it). Besides the families recorded as
things happen (``bot.metrics``), a scrape reads:

* from the database, in one reading unit of work of three statements, each a range of
  an index (``bot.features.ops.gauges``): the outbox's pending messages and the oldest one's
  age, the live games by status and phase, the scheduler's lag behind the earliest due
  deadline. They are the database's, the same in every
  process: aggregate them across processes with ``max``, not ``sum``. When the database
  does not answer within ``DB_TIMEOUT`` they are left out and
  ``wolfhowl_database_up`` is 0;
* from the process: each shard's gateway latency and whether it is connected, the age
  of the last heartbeat recorded, the build and the database's revision.

A scrape is the event loop's work like any other: a loop too busy to answer one in
Prometheus's timeout shows as the target down (``up == 0``), which is worth an alert in
its own right.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Iterator
from importlib import metadata
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.registry import Collector

from bot import metrics
from bot.features.ops.gauges import Gauges, read_gauges

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.metrics")

DB_TIMEOUT = 5.0  # seconds a scrape waits for the database's figures


def build_version() -> str:
    try:
        return metadata.version("wolfhowl")
    except metadata.PackageNotFoundError:
        return "unknown"


class BotCollector(Collector):
    """The gauges read at scrape time (see the module docstring). ``gauges`` is what the
    last database read found (None: it failed), set by :meth:`MetricsServer.scrape`
    just before the exposition is written."""

    def __init__(self, bot: WolfBot) -> None:
        self.bot = bot
        self.gauges: Gauges | None = None
        self.db_revision = ""
        self.version = build_version()

    def describe(self) -> list[Metric]:
        return []  # (unchecked: the names are unique by construction)

    def collect(self) -> Iterator[Metric]:
        bot = self.bot
        yield from self._database()
        latency = GaugeMetricFamily(
            "wolfhowl_discord_gateway_latency_seconds",
            "Each shard's gateway latency: the time between its last heartbeat to Discord and the acknowledgement (NaN before the first)",
            labels=["shard"],
        )
        connected = GaugeMetricFamily(
            "wolfhowl_discord_shard_connected", "1 while a shard of this process is connected to Discord's gateway, else 0", labels=["shard"]
        )
        for shard, seconds, up in shard_states(bot):
            latency.add_metric([str(shard)], seconds)
            connected.add_metric([str(shard)], 1.0 if up else 0.0)
        yield latency
        yield connected
        yield GaugeMetricFamily(
            "wolfhowl_heartbeat_age_seconds",
            "Seconds since this process last recorded its heartbeat in the database (beats every 10 s; others take its leases past 30 s)",
            value=max(0.0, time.monotonic() - bot.heartbeat.last_beat),
        )
        info = InfoMetricFamily("wolfhowl_build", "The running build's version and the database's schema revision")
        info.add_metric([], {"version": self.version, "db_revision": self.db_revision or "unknown"})
        yield info
        process = InfoMetricFamily("wolfhowl_process", "This process: its name in the database and the shards it runs (empty: unsharded)")
        process.add_metric([], {"process": bot.process_name(), "shards": bot.config.shards_label()})
        yield process

    def _database(self) -> Iterator[Metric]:
        gauges = self.gauges
        yield GaugeMetricFamily(
            "wolfhowl_database_up", "1 when this scrape read the database's figures (outbox, live games) in time, else 0",
            value=0.0 if gauges is None else 1.0,
        )  # fmt: skip
        if gauges is None:
            return
        yield GaugeMetricFamily(
            "wolfhowl_outbox_pending_messages", "Outbox messages waiting for delivery (the whole database's)", value=gauges.outbox_pending
        )
        yield GaugeMetricFamily(
            "wolfhowl_outbox_oldest_pending_age_seconds",
            "How long ago the oldest message still waiting for delivery was written (0: none waits)",
            value=gauges.oldest_pending_age,
        )
        yield GaugeMetricFamily(
            "wolfhowl_scheduler_lag_seconds",
            "How long ago the earliest deadline, reminder or lobby start still to be done fell due (0: nothing overdue); "
            "the scheduler takes each up within a second",
            value=gauges.scheduler_lag,
        )
        live = GaugeMetricFamily(
            "wolfhowl_games_live", "Games not over, by status (lobby, running, paused) and phase (none: a lobby)", labels=["status", "phase"]
        )
        for (status, phase), n in sorted(gauges.live_games.items()):
            live.add_metric([status, phase], n)
        yield live


def shard_states(bot: WolfBot) -> list[tuple[int, float, bool]]:
    """Each shard this process runs: its id, gateway latency (seconds, NaN when not
    known) and whether it is connected. Unsharded: shard 0."""
    shards = getattr(bot, "shards", None)
    if not isinstance(shards, dict):  # unsharded
        return [(0, _seconds(bot.latency), bot.gateway_open())]
    ready = bot.is_ready() and not bot.is_closed()
    wanted = list(bot.config.shard_ids) or list(shards) or list(range(bot.shard_count or 0))
    out = []
    for shard_id in sorted(set(wanted) | set(shards)):
        info = shards.get(shard_id)
        if info is None:
            out.append((shard_id, math.nan, False))
        else:
            out.append((shard_id, _seconds(info.latency), ready and not info.is_closed()))
    return out


def _seconds(value: float) -> float:
    return value if math.isfinite(value) else math.nan


class MetricsServer:
    """The ``/metrics`` endpoint of one bot, on its event loop."""

    def __init__(self, bot: WolfBot, recording: metrics.Metrics, host: str, port: int) -> None:
        self.bot = bot
        self.recording = recording
        self.host = host
        self.port = port
        self.collector = BotCollector(bot)
        recording.registry.register(self.collector)
        self._runner: web.AppRunner | None = None
        self._lock = asyncio.Lock()  # one database read at a time, however many scrapers

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self.scrape)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        log.info("metrics served at http://%s:%s/metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def scrape(self, request: web.Request) -> web.Response:
        async with self._lock:
            try:
                held = self.bot.scheduler.backoff.held(self.bot.db.now())
                self.collector.gauges = await asyncio.wait_for(read_gauges(self.bot.db, held), DB_TIMEOUT)
            except Exception:
                log.warning("a metrics scrape could not read the database", exc_info=True)
                self.collector.gauges = None
            encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
            body = encoder(self.recording.registry)
        return web.Response(body=body, headers={"Content-Type": content_type})
