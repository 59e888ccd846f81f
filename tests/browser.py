"""A real headless Chromium, driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: no port, no extra package), to load a page and report what a
reader would meet: the text it shows, every error (an exception thrown, a console
error, a resource refused or not found) and every request it tried to make, plus a
screenshot.

``python3 dev.py test`` installs Debian's ``chromium`` when none is found and it runs as
root on Debian; elsewhere :func:`browser_or_skip` skips with the reason, except in CI
(``CI=true``), where a missing browser fails the test."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser() -> str | None:
    """``WOLFHOWL_BROWSER``, else the first Chromium on the PATH."""
    given = os.environ.get("WOLFHOWL_BROWSER")
    if given:
        return given
    return next((p for p in map(shutil.which, NAMES) if p), None)


def browser_or_skip() -> str:
    import pytest  # (not at the top: dev.py, outside the venv, uses find_browser)

    found = find_browser()
    if found:
        return found
    reason = "no Chromium found (install Debian's `chromium`, or set WOLFHOWL_BROWSER); `python3 dev.py test` as root on Debian installs it"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI needs a headless browser: {reason}")
    pytest.skip(reason)


@dataclass
class PageReport:
    text: str = ""  # what shows (innerText: not the inside of a closed <details>)
    content: str = ""  # all the text of the page (textContent)
    title: str = ""
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    screenshot: bytes = b""
    scroll_width: int = 0  # the document's width: more than the viewport's is a page-wide scroll
    values: list[Any] = field(default_factory=list)  # what each of ``scripts`` returned, in order


class _Pipe:
    """The browser's end of the protocol: JSON messages each ended by a NUL byte."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd, self.read_fd = write_fd, read_fd
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> int:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.write_fd, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed the pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)  # type: ignore[no-any-return]

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None, timeout: float = 30) -> dict[str, Any]:
        want = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            msg = self._read(deadline)
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})  # type: ignore[no-any-return]
            self.events.append(msg)

    def wait_event(self, method: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for i, msg in enumerate(self.events):
            if msg.get("method") == method:
                return self.events.pop(i)
        while True:
            msg = self._read(deadline)
            if msg.get("method") == method:
                return msg
            self.events.append(msg)


def load_page(browser: str, path: Path, *, width: int = 1000, height: int = 1400, timeout: float = 60, scripts: tuple[str, ...] = ()) -> PageReport:
    """Open ``path`` (a local file) in a fresh headless browser and report on it;
    ``scripts`` are evaluated in the page after it loads, in order (a reader's clicks),
    their values in ``values``."""
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()

    def wire() -> None:  # in the child: the protocol's fds 3 (in) and 4 (out), kept open by exec
        src_in, src_out = os.dup(to_browser_r), os.dup(from_browser_w)  # out of the way of 3 and 4
        os.dup2(src_in, 3)
        os.dup2(src_out, 4)

    with tempfile.TemporaryDirectory(prefix="wolfhowl-browser-") as profile:
        args = [
            browser, "--headless", "--remote-debugging-pipe", "--disable-gpu", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-dev-shm-usage",
            f"--user-data-dir={profile}", f"--window-size={width},{height}", "about:blank",
        ]  # fmt: skip
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root otherwise
        proc = subprocess.Popen(args, preexec_fn=wire, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        pipe = _Pipe(to_browser_w, from_browser_r)
        try:
            return _inspect(pipe, path, width, height, timeout, scripts)
        finally:
            with contextlib.suppress(OSError):
                pipe.send("Browser.close")
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            os.close(to_browser_w)
            os.close(from_browser_r)


def _inspect(pipe: _Pipe, path: Path, width: int, height: int, timeout: float, scripts: tuple[str, ...] = ()) -> PageReport:
    target = pipe.call("Target.createTarget", {"url": "about:blank"}, timeout=timeout)["targetId"]
    session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        pipe.call(f"{domain}.enable", session=session)
    pipe.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
    pipe.call("Page.navigate", {"url": path.resolve().as_uri()}, session=session)
    pipe.wait_event("Page.loadEventFired", timeout)
    report = PageReport()
    report.title = pipe.call("Runtime.evaluate", {"expression": "document.title", "returnByValue": True}, session=session)["result"]["value"]
    text = pipe.call("Runtime.evaluate", {"expression": "document.body.innerText", "returnByValue": True}, session=session)
    report.text = text["result"]["value"]
    content = pipe.call("Runtime.evaluate", {"expression": "document.body.textContent", "returnByValue": True}, session=session)
    report.content = content["result"]["value"]
    wide = pipe.call("Runtime.evaluate", {"expression": "document.documentElement.scrollWidth", "returnByValue": True}, session=session)
    report.scroll_width = int(wide["result"]["value"])
    for script in scripts:
        got = pipe.call("Runtime.evaluate", {"expression": script, "returnByValue": True}, session=session)
        if "exceptionDetails" in got:
            report.errors.append(f"script: {got['exceptionDetails'].get('exception', {}).get('description')}")
        report.values.append(got["result"].get("value"))
    shot = pipe.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False}, session=session)
    report.screenshot = base64.b64decode(shot["data"])
    for msg in pipe.events:
        method, params = msg.get("method"), msg.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            report.errors.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            report.errors.append(f"console: {[a.get('value', a.get('description')) for a in params.get('args', [])]}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            report.errors.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}".strip())
        elif method == "Network.requestWillBeSent":
            report.requests.append(params.get("request", {}).get("url", ""))
        elif method == "Network.loadingFailed":
            report.errors.append(f"request failed: {params.get('errorText')}")
    return report
