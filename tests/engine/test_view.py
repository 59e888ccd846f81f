"""A player's sheet shows only what it may know (R9)."""

from engine.model import Condition, State
from engine.view import sheet, table
from tests.engine.helpers import table as make_table


def test_hidden_states_do_not_show_in_the_sheets_numbers():
    st = make_table(("warrior", "lawful"), ("monk", "neutral"), ("bard", "chaotic"))
    clean = sheet(st, 1)
    st.player(1).conditions[State.GRAPPLED] = Condition(None, 2)
    st.player(1).conditions[State.HYPNOTIC_PRELUDE] = Condition(None, 3)
    held = sheet(st, 1)
    for key in ("ab", "armor", "dex", "will", "reflex", "fortitude", "known_states"):
        assert held[key] == clean[key], key
    assert st.player(1).has(State.GRAPPLED)  # the real state is untouched


def test_self_given_states_do_show():
    st = make_table(("warrior", "lawful"), ("monk", "neutral"))
    st.player(1).conditions[State.DAZED] = Condition(1, 1)  # a Whirlwind that missed twice
    s = sheet(st, 1)
    assert s["known_states"] == ["dazed"] and s["dex"] == 0 and s["ab"] == 65


def test_the_public_table_has_no_secrets():
    st = make_table(("warrior", "lawful"), ("monk", "neutral"))
    st.player(2).alive = False
    assert table(st) == [{"seat": 1, "name": "P1", "alive": True}, {"seat": 2, "name": "P2", "alive": False}]
