"""The bot's Prometheus metrics (prometheus-client): the families an operator watches,
recorded where the work happens and served at ``/metrics`` by the bot process when
``metrics_port`` is set (``bot.discord.metrics_server``; docs/operations.md#metrics).

Off unless a bot enables them: :data:`current` is None and every recording site costs
one attribute read. A bot with ``metrics_port`` calls :func:`enable` as it starts (a
fresh registry, so each run counts from zero) and :func:`disable` as it closes.

The families here are those counted or timed as things happen. The gauges that are read
when Prometheus scrapes (the outbox, live games, shards, the heartbeat, the build) are
the server's collector's (the scheduler's lag among them: read at the scrape, it grows
while the scheduler is stuck, where a figure set by its passes would stand still). No label carries a user, game, channel or message id: a
command is its name, a component its kind (``wh:join``), a REST route discord.py's
template (``POST /channels/{channel_id}/messages``).
"""

from __future__ import annotations

import re
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics

# Interactions are answered within tens of milliseconds; Discord's limit is 3 s.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
UNIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)

OUTCOMES = ("answered", "refused", "failed")

# The bot's components and its one form, by the kind in their custom id (``wh:KIND:…``):
# any other custom id (forged, or an older version's) counts as "other".
COMPONENT_KINDS = frozenset(
    ["amt", "atk", "cancel", "clr", "end", "forget", "grail", "grailmodal", "hist", "idg", "idp", "join", "lb", "leave", "offer", "open", "refresh", "replay", "skill", "skt", "vote"]
)
_KIND = re.compile(r"wh:([a-z]{1,12})(?::|$)")


class Metrics:
    """The counted and timed families, on a registry of their own."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry(auto_describe=True)
        self.interactions = Counter(
            "wolfhowl_interactions",
            "Interactions handled (commands, components, forms) by command and outcome: answered, "
            "refused (a rule or a check said no, with a reply), failed (a bug: apologised for)",
            ["command", "outcome"],
            registry=r,
        )
        self.ack_seconds = Histogram(
            "wolfhowl_interaction_ack_duration_seconds",
            "From the bot receiving an interaction to its first response (the answer or a deferral); Discord allows 3 s",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.answer_seconds = Histogram(
            "wolfhowl_interaction_answer_duration_seconds",
            "From the bot receiving an interaction to its handler having sent the final answer",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.deliveries = Counter(
            "wolfhowl_outbox_deliveries",
            "Outbox delivery attempts by kind (channel: a game's post, dm: a private message) and result "
            "(sent, undeliverable: to the inbox or given up, retry: failed and retried later)",
            ["kind", "result"],
            registry=r,
        )
        self.rest_requests = Counter(
            "wolfhowl_discord_requests",
            "HTTP requests made to Discord's REST API (every attempt, retries too) by route template",
            ["route"],
            registry=r,
        )
        self.rest_429 = Counter(
            "wolfhowl_discord_ratelimited",
            "429 responses from Discord by route template and scope: route (a route's own bucket, shared "
            "ones too) or global (the bot's 50 requests a second)",
            ["route", "scope"],
            registry=r,
        )
        self.scheduler_pass = Gauge(
            "wolfhowl_scheduler_last_pass_timestamp_seconds",
            "When the scheduler last finished a pass (Unix time)",
            registry=r,
        )
        self.unit_seconds = Histogram(
            "wolfhowl_unit_of_work_duration_seconds",
            "A database unit of work from its start to its commit (write) or end (read), queueing for SQLite's writer included",
            ["kind"],
            buckets=UNIT_BUCKETS,
            registry=r,
        )
        # Created here so each labelled child exists from the start (a rate over a
        # series that appears only at its first increment misses that increment).
        for kind in ("write", "read"):
            self.unit_seconds.labels(kind)
        for kind in ("channel", "dm"):
            for result in ("sent", "undeliverable", "retry"):
                self.deliveries.labels(kind, result)


    def known(self, commands: list[str]) -> None:
        """Every command's and component's series, at zero, from the start: a series
        that appears at its first increment hides that increment from ``rate``."""
        for command in [*commands, *(f"wh:{kind}" for kind in sorted(COMPONENT_KINDS)), "other"]:
            for outcome in OUTCOMES:
                self.interactions.labels(command, outcome)


current: Metrics | None = None


def enable() -> Metrics:
    """Record from now on, on a fresh registry (the running bot's)."""
    global current
    disable_created_metrics()  # type: ignore[no-untyped-call]  # no ``_created`` series beside each counter and histogram
    current = Metrics()
    return current


def disable(metrics: Metrics | None = None) -> None:
    """Stop recording (``metrics``: only if it is still the one recording)."""
    global current
    if metrics is None or current is metrics:
        current = None


def component_kind(custom_id: object) -> str:
    """A component's or a form's label: ``wh:KIND`` for the bot's own, else ``other``."""
    match = _KIND.match(custom_id) if isinstance(custom_id, str) else None
    return f"wh:{match[1]}" if match and match[1] in COMPONENT_KINDS else "other"


def observe_unit(kind: str, started: float) -> None:
    """A unit of work of ``kind`` (write, read) begun at ``started`` (perf_counter) ended."""
    m = current
    if m is not None:
        m.unit_seconds.labels(kind).observe(time.perf_counter() - started)
