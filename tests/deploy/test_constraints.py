"""constraints.txt pins every package set-up installs, so CI tests exactly what the Docker
image ships: each of pyproject.toml's requirements is pinned inside its range, the test
run itself has the pinned versions, and both set-up and the image install through it."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            out[canonicalize_name(name)] = version
    return out


def requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"]["dev"]]]


def test_every_requirement_is_pinned_within_its_range() -> None:
    pinned = pins()
    for req in requirements():
        name = canonicalize_name(req.name)
        assert name in pinned, f"{req.name} is not pinned: run python3 dev.py lock"
        assert req.specifier.contains(pinned[name], prereleases=True), f"{req.name}=={pinned[name]} is outside {req.specifier}"


def test_the_tests_run_on_the_pinned_versions() -> None:
    """What CI runs with is what constraints.txt says (dev.py installs through it)."""
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    differ = {name: (version, installed[name]) for name, version in pins().items() if name in installed and installed[name] != version}
    assert differ == {}, f"installed versions differ from the pins (pinned, installed): {differ}"
    assert all(canonicalize_name(r.name) in installed for r in requirements())


def test_setup_and_the_image_install_through_the_pins() -> None:
    dev = (ROOT / "dev.py").read_text(encoding="utf-8")
    assert re.search(r'"-c", str\(CONSTRAINTS\)', dev) and "CONSTRAINTS.read_bytes()" in dev
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^COPY .*constraints\.txt", docker, re.MULTILINE)
    assert "pip install -c constraints.txt ." in docker
