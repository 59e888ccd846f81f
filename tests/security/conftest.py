"""The bot on the local Discord (``table``, from tests/bot), for the attacks."""

from tests.bot.conftest import table  # noqa: F401 - the fixture, for the files here
