"""The house's sides, as the architecture tests read them (docs/architecture.md).

- **The service**: the core (``bot/core``) and, in each feature folder
  (``bot/features/<name>/``), every module that is not its user interface. It knows
  nothing of Discord nor of how anything reads.
- **The user interface**: the Discord layer (``bot/discord``), the shared presentation
  (``bot/render``), and in each feature folder its cog (``cog*.py``), components
  (``components*.py``) and look (``look*.py``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI_PREFIXES = ("cog", "components", "look")


def is_ui(path: Path) -> bool:
    """Whether a module of a feature folder is its user interface (by its name)."""
    return path.stem.startswith(UI_PREFIXES)


def service_files(root: Path = ROOT) -> list[Path]:
    """Every module of the service: the core and the features' use cases."""
    core = sorted((root / "bot" / "core").rglob("*.py"))
    features = sorted(p for p in (root / "bot" / "features").rglob("*.py") if not is_ui(p))
    return core + features


def ui_files(root: Path = ROOT) -> list[Path]:
    """Every module of the user interface: the Discord layer, the shared presentation and
    the features' cogs, components and looks."""
    shared = sorted((root / "bot" / "discord").rglob("*.py")) + sorted((root / "bot" / "render").rglob("*.py"))
    return shared + sorted(p for p in (root / "bot" / "features").rglob("*.py") if is_ui(p))


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)
