"""Cards and decks (referee.engine.cards): the text notation round-trips, junk is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.cards import DECKS, FRENCH, HUNGARIAN, Card
from referee.engine.errors import RuleViolation

ALL_CARDS = [(deck, card) for deck in DECKS.values() for card in deck.cards]


@pytest.mark.parametrize(
    ("deck", "card"), ALL_CARDS, ids=[f"{d.name}-{c}" for d, c in ALL_CARDS]
)
def test_parse_of_str_round_trips_for_every_card_of_every_deck(deck, card):
    assert deck.parse(str(card)) == card
    assert deck.parse(f"  {card} ") == card


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_every_deck_has_32_distinct_cards_of_4_suits_and_8_ranks(deck):
    assert len(deck.cards) == 32
    assert len(set(deck.cards)) == 32
    assert {c.suit for c in deck.cards} == set(deck.suits)
    assert {c.rank for c in deck.cards} == set(deck.ranks)
    for card in deck.cards:
        assert deck.long_name(card).endswith(deck.suit_names[card.suit])
        assert deck.short_name(card).startswith(card.rank)


def test_hungarian_notation_of_the_rules():
    assert HUNGARIAN.ranks == ("A", "K", "O", "U", "10", "9", "8", "7")   # sequence order
    assert HUNGARIAN.suits == ("a", "l", "h", "b")
    assert str(Card("O", "a")) == "Oa"
    assert HUNGARIAN.parse("10h") == Card("10", "h")
    assert HUNGARIAN.parse("7b") == Card("7", "b")
    assert HUNGARIAN.long_name(Card("O", "a")) == "Over of acorns"


JUNK = [
    "", " ", "A", "h", "Ahh", "1h", "10", "11h", "100h", "Zz", "0h", "Ax", "AH", "ah",
    "10 h", "A h", "Qh", "Jc", "Oc", "h10", "♥A", None, 10, 10.5, True, ["Ah"], {"rank": "A"},
    b"Ah", "A\x00",
]


@pytest.mark.parametrize("junk", JUNK, ids=[repr(j) for j in JUNK])
def test_hungarian_parse_refuses_junk(junk):
    with pytest.raises(RuleViolation) as err:
        HUNGARIAN.parse(junk)
    assert err.value.code == "card.unknown"
    assert "Hungarian" in err.value.message


@pytest.mark.parametrize("junk", ["Oh", "Ua", "Al", "Kb", "", 7])
def test_french_parse_refuses_hungarian_cards_and_junk(junk):
    with pytest.raises(RuleViolation):
        FRENCH.parse(junk)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=6) | st.integers() | st.none() | st.floats())
def test_parse_returns_a_card_of_the_deck_or_raises_rule_violation(text):
    for deck in DECKS.values():
        try:
            card = deck.parse(text)
        except RuleViolation as err:
            assert err.code == "card.unknown"
        else:
            assert card in deck.cards
            assert isinstance(text, str) and str(card) == text.strip()


def test_parse_many():
    assert HUNGARIAN.parse_many("Ah, Kh 10h") == [Card("A", "h"), Card("K", "h"), Card("10", "h")]
    assert HUNGARIAN.parse_many(["Oa", "Ub"]) == [Card("O", "a"), Card("U", "b")]
    assert HUNGARIAN.parse_many("") == []
    with pytest.raises(RuleViolation) as err:
        HUNGARIAN.parse_many("Ah Ah")
    assert err.value.code == "card.twice"
    with pytest.raises(RuleViolation) as err:
        HUNGARIAN.parse_many(42)
    assert err.value.code == "card.list"
    with pytest.raises(RuleViolation) as err:
        HUNGARIAN.parse_many("Ah Xx")
    assert err.value.code == "card.unknown"


def test_cards_are_small_immutable_values():
    card = Card("A", "h")
    assert card == Card("A", "h") and hash(card) == hash(Card("A", "h"))
    with pytest.raises(AttributeError):
        card.rank = "K"  # type: ignore[misc]
    assert len({Card("A", "h"), Card("A", "h"), Card("K", "h")}) == 2
