"""One module per class; importing this package registers every skill."""

from engine.skills.classes import warrior  # noqa: F401
