"""A sentence stored to be said later (the history of changes, issue 22): ``to_data`` makes it
JSON, ``from_data`` makes the same sentence again, said in any language as the original."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.words import NP, T, Text, from_data, listing, say, to_data
from tests.shouting import Upper

names = st.text(min_size=1, max_size=12)
leaves = st.one_of(
    st.builds(lambda name: T("%(name)s deals", name=name), names),
    st.builds(lambda n: NP("stovkahra", "%(num)s trick", "%(num)s tricks", n, num=n),
              st.integers(0, 30)),
    st.builds(lambda n, verb: T("%(verb)s %(trick)s of hand %(hand)s", verb=T(verb), trick=n,
                                hand=n + 1), st.integers(1, 12), st.sampled_from(["Trick", "Bid"])),
)
texts = st.recursive(leaves, lambda inner: st.one_of(
    st.builds(lambda text: T("Undone: %(label)s", label=text), inner),
    st.builds(lambda a, b: listing([a, b]), inner, inner)), max_leaves=6)


@given(texts)
def test_a_stored_sentence_is_the_same_sentence(text: Text) -> None:
    again = from_data(json.loads(json.dumps(to_data(text))))
    assert isinstance(again, Text)
    assert str(again) == str(text)
    assert say(again, Upper()) == say(text, Upper())
    assert to_data(again) == to_data(text)


def test_a_nested_sentence_is_said_in_the_language() -> None:
    label = T("Undone: %(label)s", label=T("%(verb)s %(trick)s of hand %(hand)s",
                                          verb=T("Trick"), trick=5, hand=3))
    again = from_data(json.loads(json.dumps(to_data(label))))
    assert again == "Undone: Trick 5 of hand 3"
    assert say(again, Upper()) == "UNDONE: TRICK 5 OF HAND 3"


@pytest.mark.parametrize("data", [{}, {"msgid": 3}, {"msgid": "%(a)s", "values": {"b": 1}},
                                  {"msgid": "x", "values": []}, {"msgid": "x", "n": "2"}])
def test_what_is_not_a_stored_sentence_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        from_data(data)
