"""A real Prometheus for the tests: Debian's ``prometheus`` package (the server and its
``promtool``). ``python3 dev.py test`` installs it when it is missing and it runs as root
on Debian; elsewhere :func:`promtool_or_skip` and :func:`prometheus_or_skip` skip with
the reason, except in CI (``CI=true``), where a missing one fails the test.

:class:`PrometheusServer` runs one on 127.0.0.1 (a free port, a configuration and a data
folder of its own under a temporary folder) and asks its HTTP API, without blocking the
event loop: the bot under test serves its scrapes from the same loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

REASON = "Debian's `prometheus` package is not installed (it brings `prometheus` and `promtool`); `python3 dev.py test` as root on Debian installs it"


def find_promtool() -> str | None:
    return os.environ.get("WOLFHOWL_PROMTOOL") or shutil.which("promtool")


def find_prometheus() -> str | None:
    return os.environ.get("WOLFHOWL_PROMETHEUS") or shutil.which("prometheus")


def _or_skip(found: str | None, what: str) -> str:
    import pytest  # (not at the top: dev.py, outside the venv, uses the finders)

    if found:
        return found
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI needs {what}: {REASON}")
    pytest.skip(f"no {what}: {REASON}")


def promtool_or_skip() -> str:
    return _or_skip(find_promtool(), "promtool")


def prometheus_or_skip() -> str:
    return _or_skip(find_prometheus(), "Prometheus server")


def promtool(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``promtool ARGS``, its output kept (the caller asserts on the return code)."""
    return subprocess.run(
        [promtool_or_skip(), *args], input=stdin.decode() if stdin is not None else None, capture_output=True, text=True, timeout=120, cwd=cwd
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrometheusServer:
    """A Prometheus scraping ``targets`` (host:port) every ``interval``, with the rule
    files ``rules`` evaluated as often; stopped (and its folder removed) on exit."""

    def __init__(self, folder: Path, targets: list[str], *, interval: str = "500ms", rules: list[Path] | None = None) -> None:
        self.folder = folder
        self.targets = targets
        self.interval = interval
        self.rules = rules or []
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def _config(self) -> str:
        rule_files = "".join(f"  - {json.dumps(str(p))}\n" for p in self.rules)
        targets = ", ".join(json.dumps(t) for t in self.targets)
        return (
            f"global:\n  scrape_interval: {self.interval}\n  scrape_timeout: {self.interval}\n  evaluation_interval: {self.interval}\n"
            + (f"rule_files:\n{rule_files}" if rule_files else "")
            + f"scrape_configs:\n  - job_name: wolfhowl\n    static_configs:\n      - targets: [{targets}]\n"
        )

    async def __aenter__(self) -> PrometheusServer:
        binary = prometheus_or_skip()
        config = self.folder / "prometheus.yml"
        config.write_text(self._config())
        (self.folder / "data").mkdir(exist_ok=True)
        self.log = (self.folder / "prometheus.log").open("wb")
        self.proc = subprocess.Popen(
            [
                binary, f"--config.file={config}", f"--storage.tsdb.path={self.folder / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}", "--storage.tsdb.retention.time=1h",
            ],
            stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            await self.wait_for(self._ready, 60, "Prometheus to be ready")
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                await asyncio.to_thread(self.proc.wait, 20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                await asyncio.to_thread(self.proc.wait, 20)
            self.proc = None
        with contextlib.suppress(Exception):
            self.log.close()

    def output(self) -> str:
        return (self.folder / "prometheus.log").read_text(errors="replace")[-3000:]

    async def get(self, path: str, **params: str) -> Any:
        """The ``data`` of an API answer (``path`` such as ``/api/v1/query``)."""
        import aiohttp

        async with aiohttp.ClientSession() as session, session.get(self.url + path, params=params, timeout=aiohttp.ClientTimeout(total=10)) as r:
            body = await r.json()
        assert body.get("status") == "success", body
        return body["data"]

    async def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"Prometheus exited ({self.proc.returncode}):\n{self.output()}")
        import aiohttp

        try:
            async with aiohttp.ClientSession() as session, session.get(self.url + "/-/ready", timeout=aiohttp.ClientTimeout(total=2)) as r:
                return r.status == 200
        except (aiohttp.ClientError, TimeoutError):
            return False

    async def query(self, expr: str) -> list[dict[str, Any]]:
        """The result vector of an instant query now."""
        data = await self.get("/api/v1/query", query=expr)
        return list(data["result"])

    async def value(self, expr: str) -> float | None:
        """The single value of ``expr`` now (None: no series)."""
        result = await self.query(expr)
        assert len(result) <= 1, result
        return float(result[0]["value"][1]) if result else None

    async def wait_for(self, check: Any, timeout: float, what: str, every: float = 0.2) -> Any:
        """Poll ``check`` (async, no arguments) until it returns something true, for at
        most ``timeout`` seconds (a bound, not a timing claim): its last answer."""
        until = time.monotonic() + timeout
        last: Any = None
        while True:
            last = await check()
            if last:
                return last
            if time.monotonic() > until:
                raise AssertionError(f"timed out waiting for {what} (last: {last!r})\n{self.output() if self.proc else ''}")
            await asyncio.sleep(every)
