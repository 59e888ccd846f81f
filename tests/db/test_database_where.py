"""The database is never a guess: which one is used, said without the password; a
SQLite folder that does not exist refused (except the default data folder); a URL of
another kind names the supported ones; `wolfhowl db upgrade` says from which revision
to which."""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path

import pytest

from bot.cli import db as db_cli
from bot.config import DEFAULT_DATABASE_URL
from bot.db.migrate import head_revision
from bot.db.session import Database
from bot.db.where import DatabaseProblem, describe


def test_a_sqlite_folder_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseProblem, match=f"the folder {tmp_path / 'nowhere'} for the SQLite database x.db does not exist"):
        Database(f"sqlite:///{tmp_path}/nowhere/x.db")
    assert not (tmp_path / "nowhere").exists()


async def test_the_default_data_folder_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = Database(DEFAULT_DATABASE_URL)
    await db.dispose()
    assert (tmp_path / "var").is_dir()


@pytest.mark.parametrize("url", ["mysql://wolf:hunter2@db/x", "not a url"])
def test_an_unsupported_url_names_the_supported_kinds(url: str) -> None:
    with pytest.raises(DatabaseProblem) as err:
        Database(url)
    assert "sqlite:///PATH" in str(err.value) and "postgresql://" in str(err.value)
    assert "hunter2" not in str(err.value)


def test_describe_never_shows_the_password(tmp_path: Path) -> None:
    assert describe("postgresql+asyncpg://wolf:hunter2@db.internal:6543/games") == "PostgreSQL database games on db.internal:6543 as wolf"
    assert describe(f"sqlite:///{tmp_path}/a.db") == f"SQLite file {tmp_path.resolve() / 'a.db'}"


def test_db_upgrade_says_which_database_and_from_which_revision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    where = f"SQLite file {tmp_path.resolve() / 'games.db'}"
    head = head_revision()
    assert db_cli.run(Namespace(action="upgrade", revision="0001", url=url)) == 0
    assert capsys.readouterr().out.strip() == f"{where}: upgraded from empty to 0001"
    assert db_cli.run(Namespace(action="upgrade", revision=None, url=url)) == 0
    assert capsys.readouterr().out.strip() == f"{where}: upgraded from 0001 to {head}"
    assert db_cli.run(Namespace(action="upgrade", revision=None, url=url)) == 0
    assert capsys.readouterr().out.strip() == f"{where}: already at {head} (nothing to do)"
    assert db_cli.run(Namespace(action="current", revision=None, url=url)) == 0
    assert capsys.readouterr().out.strip() == f"{where}: {head} (up to date)"


def test_db_upgrade_into_a_missing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert db_cli.run(Namespace(action="upgrade", revision=None, url=f"sqlite:///{tmp_path}/typo/games.db")) == 1
    assert "does not exist: create it, or correct database_url" in capsys.readouterr().err
    assert not (tmp_path / "typo").exists()


def test_db_upgrade_of_an_unreachable_server_is_a_database_problem(capsys: pytest.CaptureFixture[str]) -> None:
    assert db_cli.run(Namespace(action="upgrade", revision=None, url="postgresql://wolf:hunter2@127.0.0.1:9/games")) == 1
    err = capsys.readouterr().err
    assert "the database cannot be used (PostgreSQL database games on 127.0.0.1:9 as wolf)" in err
    assert "hunter2" not in err
