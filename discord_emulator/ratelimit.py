"""Per-route rate-limit buckets, the optional global limit, and fault injection.

discord.py's HTTP client is driven entirely by response headers: it learns a
route's bucket hash from ``X-RateLimit-Bucket`` and pre-emptively sleeps when
``X-RateLimit-Remaining`` hits 0.  So the emulator must send complete headers
on every response, and a 429 must look exactly like Discord's (JSON body with
``retry_after``, ``Retry-After`` and ``Via`` headers) or discord.py treats it
as a Cloudflare ban.  Buckets are fixed windows keyed by (bucket, major
parameters), like Discord's; several routes may share one bucket.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_ROUTE = "*"


@dataclass
class LimitRule:
    limit: int
    window: float
    bucket: str


@dataclass
class _Window:
    start: float
    count: int = 0


@dataclass
class Decision:
    """Outcome of a rate-limit check; ``headers`` go on the response either way."""

    allowed: bool
    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float = 0.0
    is_global: bool = False


@dataclass
class _Fault:
    route: str
    status: int
    remaining: int


def major_key(params: Mapping[str, str]) -> str:
    """The major parameters in discord.py's order (channel, guild, webhook, token)."""
    keys = ("channel_id", "guild_id", "webhook_id", "webhook_token")
    return "+".join(str(params[k]) for k in keys if params.get(k) is not None)


def bucket_hash(name: str) -> str:
    return hashlib.sha1(name.encode()).hexdigest()[:32]


class RateLimiter:
    """Fixed-window buckets per (bucket, major params) plus a global window.

    ``configure`` sets a route's limit (optionally sharing a named bucket with
    other routes); ``exhaust`` simulates another client having used a bucket
    up, which is how real bots meet 429s despite discord.py's pre-emptive
    waiting.  Real wall-clock time is used because discord.py really sleeps
    ``retry_after`` seconds.
    """

    def __init__(self, default_limit: int = 50, default_window: float = 1.0) -> None:
        self._rules: dict[str, LimitRule] = {
            DEFAULT_ROUTE: LimitRule(default_limit, default_window, DEFAULT_ROUTE)
        }
        self._windows: dict[tuple[str, str], _Window] = {}
        self._faults: list[_Fault] = []
        self.global_limit: int | None = None
        self._global_window = _Window(start=time.monotonic())

    # -- configuration -------------------------------------------------
    def configure(
        self, route: str, limit: int, window: float, *, bucket: str | None = None
    ) -> None:
        """Sets ``route`` (e.g. ``"POST /channels/{channel_id}/messages"``) to ``limit`` per ``window`` s."""
        self._rules[route] = LimitRule(limit, window, bucket or route)
        self._windows = {k: v for k, v in self._windows.items() if k[0] != (bucket or route)}

    def apply_realistic_preset(self) -> None:
        """Limits close to what Discord reports for common bot routes."""
        self.configure("POST /channels/{channel_id}/messages", 5, 5.0)
        self.configure("PATCH /channels/{channel_id}/messages/{message_id}", 5, 5.0)
        self.configure("DELETE /channels/{channel_id}/messages/{message_id}", 5, 1.0)
        self.configure("POST /guilds/{guild_id}/channels", 5, 10.0)
        self.configure("PUT /channels/{channel_id}/permissions/{overwrite_id}", 5, 5.0)
        self.configure("POST /users/@me/channels", 5, 5.0)
        self.configure("POST /webhooks/{webhook_id}/{webhook_token}", 5, 2.0)
        self.global_limit = 50

    def exhaust(self, route: str, **major: str | int) -> None:
        """Uses up the current window of ``route`` for the given major parameters."""
        rule, name = self._rule(route)
        window = self._window(
            name, rule, major_key({k: str(v) for k, v in major.items()}), time.monotonic()
        )
        window.count = max(window.count, rule.limit)

    def inject_failures(self, route: str, status: int = 502, count: int = 1) -> None:
        """Makes the next ``count`` requests on ``route`` fail with ``status``."""
        self._faults.append(_Fault(route, status, count))

    def take_fault(self, route: str) -> int | None:
        for fault in self._faults:
            if fault.remaining > 0 and fault.route in (route, DEFAULT_ROUTE):
                fault.remaining -= 1
                return fault.status
        return None

    # -- checking ------------------------------------------------------
    def _rule(self, route: str) -> tuple[LimitRule, str]:
        """The rule for ``route`` and its bucket name (the default rule is per route)."""
        rule = self._rules.get(route) or self._rules[DEFAULT_ROUTE]
        return rule, route if rule.bucket == DEFAULT_ROUTE else rule.bucket

    def _window(self, name: str, rule: LimitRule, major: str, now: float) -> _Window:
        window = self._windows.get((name, major))
        if window is None or now >= window.start + rule.window:
            window = self._windows[(name, major)] = _Window(start=now)
        return window

    def check(
        self, route: str, params: Mapping[str, str], *, count_global: bool = True
    ) -> Decision:
        """Counts one request against its bucket and reports whether it may proceed."""
        now = time.monotonic()
        if count_global and self.global_limit is not None:
            if now >= self._global_window.start + 1.0:
                self._global_window = _Window(start=now)
            self._global_window.count += 1
            if self._global_window.count > self.global_limit:
                retry = max(self._global_window.start + 1.0 - now, 0.001)
                headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
                return Decision(False, self._retry_headers(headers, retry), retry, is_global=True)
        rule, name = self._rule(route)
        window = self._window(name, rule, major_key(params), now)
        reset_after = max(window.start + rule.window - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Bucket": bucket_hash(name),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Scope": "user",
        }
        if window.count >= rule.limit:
            headers["X-RateLimit-Remaining"] = "0"
            retry = max(reset_after, 0.001)
            return Decision(False, self._retry_headers(headers, retry), retry)
        window.count += 1
        headers["X-RateLimit-Remaining"] = str(rule.limit - window.count)
        return Decision(True, headers)

    @staticmethod
    def _retry_headers(headers: dict[str, str], retry_after: float) -> dict[str, str]:
        headers = dict(headers)
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
        return headers
