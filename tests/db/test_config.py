"""The configuration: defaults, config.toml, WOLFHOWL_* environment overriding it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import DEFAULT_DATABASE_URL, load_config
from bot.service import GameSettings


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    monkeypatch.delenv("WOLFHOWL_DATABASE_URL", raising=False)
    cfg = load_config()
    assert cfg.database_url == DEFAULT_DATABASE_URL and cfg.language == "en-US"


def test_toml_then_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bot.toml"
    path.write_text('database_url = "sqlite:///from-file.db"\nlanguage = "zh-CN"\nday_seconds = 600\ntoken = "secret"\n')
    monkeypatch.setenv("WOLFHOWL_CONFIG", str(path))
    monkeypatch.setenv("WOLFHOWL_DATABASE_URL", "postgresql://env/db")
    cfg = load_config()
    assert cfg.database_url == "postgresql://env/db"
    assert cfg.language == "zh-CN" and cfg.day_seconds == 600
    assert "secret" not in repr(cfg)
    settings = GameSettings.from_config(cfg, max_players=8)
    assert (settings.day_seconds, settings.language, settings.max_players) == (600, "zh-CN", 8)


def test_bad_values_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WOLFHOWL_DAY_SECONDS", "5")
    with pytest.raises(ValidationError):
        load_config()
