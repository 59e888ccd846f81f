"""The event loop of ``wolfhowl run`` and the demo (``bot.event_loop``): uvloop's where
it is installed (a dependency on Linux and macOS), asyncio's on request or without it."""

from __future__ import annotations

import argparse
import asyncio
import sys

import pytest
import uvloop

from bot import event_loop
from bot.cli.run import add_arguments, run
from bot.config import ConfigError
from bot.discord.config import config_for_command


async def _loop_type() -> type:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop())


def test_auto_runs_on_uvloop_where_it_is_installed() -> None:
    assert event_loop.run(_loop_type()) is uvloop.Loop


def test_asyncio_asked_for_runs_on_asyncios_own_loop() -> None:
    kind = event_loop.run(_loop_type(), "asyncio")
    assert kind is type(asyncio.new_event_loop()) and kind is not uvloop.Loop


def test_without_uvloop_auto_falls_back_and_uvloop_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop: ImportError
    assert event_loop.run(_loop_type(), "auto") is not uvloop.Loop
    main = _loop_type()
    with pytest.raises(event_loop.EventLoopUnavailable, match="uvloop is not installed"):
        event_loop.run(main, "uvloop")
    assert main.cr_frame is None  # closed, never run: no "was never awaited" warning


def test_an_unknown_event_loop_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WOLFHOWL_EVENT_LOOP", "tokio")
    with pytest.raises(ConfigError, match=r"WOLFHOWL_EVENT_LOOP=.tokio.*auto, uvloop, asyncio"):
        config_for_command(None)


def test_run_without_the_loop_it_is_told_to_use_stops_with_a_clear_error(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    monkeypatch.setenv("WOLFHOWL_TOKEN", "a-token")
    monkeypatch.setenv("WOLFHOWL_DATABASE_URL", f"sqlite:///{tmp_path}/bot.sqlite3")
    monkeypatch.setenv("WOLFHOWL_EVENT_LOOP", "uvloop")
    monkeypatch.setitem(sys.modules, "uvloop", None)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--no-migrate"])) == 2
    assert "uvloop is not installed" in capsys.readouterr().err
