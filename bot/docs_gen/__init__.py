"""The rules-document generator: ``docs/rules.md`` and ``docs/rules.zh.md`` from the
hand-written templates in ``bot/docs_gen/templates/`` and the class catalogue.

``python -m bot.cli.docs_gen`` regenerates, ``python -m bot.cli.docs_gen --check`` fails when the
committed documents have drifted from the data (tests/docs runs it).
"""

from bot.docs_gen.generate import DOCUMENTS, render, stale, write_all

__all__ = ["DOCUMENTS", "render", "stale", "write_all"]
