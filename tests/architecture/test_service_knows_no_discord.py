"""The service knows nothing of Discord nor of how anything reads, not even through
another module: no module of the service (``house.service_files``: the core and the
features' use cases) imports, directly or through any chain of project modules, the
``discord`` library, the Discord layer (``bot.discord``), the shared presentation
(``bot.render``) or a feature's user interface (its ``cog*``, ``components*`` and
``look*`` modules). Every import counts: at the top, inside a function, under
``if TYPE_CHECKING``, and the package ``__init__`` an import runs first."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from tests.architecture.house import ROOT, UI_PREFIXES, module_name, service_files
from tests.architecture.import_circles import graph_with_libraries

PACKAGES = ("bot", "engine")
FORBIDDEN = ("discord", "bot.discord", "bot.render")


def forbidden(module: str) -> bool:
    """Whether the service may not reach ``module``: the Discord library, the Discord
    layer, the shared presentation, or a feature's cog, components or look."""
    if any(module == f or module.startswith(f + ".") for f in FORBIDDEN):
        return True
    parts = module.split(".")
    return len(parts) >= 4 and parts[:2] == ["bot", "features"] and parts[-1].startswith(UI_PREFIXES)


def chain_to_forbidden(start: str, arrows: dict[str, set[str]]) -> list[str] | None:
    """The shortest chain of imports from ``start`` to a module it may not reach, or None."""
    came_from: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(arrows.get(here, ())):
            if there in came_from:
                continue
            came_from[there] = here
            if forbidden(there):
                chain = [there]
                step: str | None = here
                while step is not None:
                    chain.append(step)
                    step = came_from[step]
                return chain[::-1]
            queue.append(there)
    return None


def service_reaches(root: Path = ROOT) -> list[str]:
    """Each service module that reaches what it may not, with the chain that gets there."""
    arrows = graph_with_libraries(PACKAGES, root=root)
    found = []
    for path in service_files(root):
        chain = chain_to_forbidden(module_name(path, root), arrows)
        if chain is not None:
            found.append(" → ".join(chain))
    return found


def test_the_service_reaches_no_discord_nor_presentation() -> None:
    assert service_reaches() == []


def test_the_check_sees_a_chain(tmp_path: Path) -> None:
    """It could fail: a module of the core that reaches discord through a middle module
    (imported inside a function), and a feature's use case that imports its own look
    under ``TYPE_CHECKING``, are named with their chains."""
    files = {
        "bot/__init__.py": "",
        "bot/core/__init__.py": "",
        "bot/core/rogue.py": "def f():\n    from bot.core import middle\n",
        "bot/core/middle.py": "from bot.i18n import t\nfrom discord.ext import commands\n",
        "bot/core/clean.py": "import engine\nfrom bot.i18n import t\n",
        "bot/i18n/__init__.py": "",
        "bot/features/__init__.py": "",
        "bot/features/play/__init__.py": "",
        "bot/features/play/submit.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.features.play import look\n",
        "bot/features/play/look.py": "",
        "engine/__init__.py": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    assert service_reaches(tmp_path) == [
        "bot.core.middle → discord.ext",
        "bot.core.rogue → bot.core.middle → discord.ext",
        "bot.features.play.submit → bot.features.play.look",
    ]
