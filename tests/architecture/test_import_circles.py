"""No circle among the bot's modules at run time (imports under ``if TYPE_CHECKING``
left out): a module's imports at the top can always be read in order. The imports
inside functions are test_layers.py's."""

from __future__ import annotations

from tests.architecture.import_circles import circles, graph


def test_the_bot_has_no_import_circle_at_run_time() -> None:
    """Not in the Discord layer, the service, the database layer nor between them (an
    import of a package's module by name counts as an arrow to that module)."""
    assert circles(graph("bot", runtime=True)) == []


def test_the_check_sees_a_circle() -> None:
    assert circles({"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}) == [["p.a", "p.b", "p.c"]]
