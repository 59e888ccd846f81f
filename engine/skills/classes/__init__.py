"""One module per class; importing this package defines every skill."""

from engine.skills.classes import (
    barbarian,  # noqa: F401
    bard,  # noqa: F401
    cleric,  # noqa: F401
    druid,  # noqa: F401
    monk,  # noqa: F401
    paladin,  # noqa: F401
    ranger,  # noqa: F401
    rogue,  # noqa: F401
    sorcerer,  # noqa: F401
    warrior,  # noqa: F401
    wizard,  # noqa: F401
)
