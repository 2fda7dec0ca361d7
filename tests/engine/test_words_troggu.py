"""Troggu's sentences are translatable (issue 22): every explanation line, summary, standing,
rule in force and refusal the engine writes is a ``Text`` that a catalogue says whole.

The hands are the tables' own (test_troggu_tables.py: the payments, the refusals, the canonical
examples) and the record tests' void choices, played by players with real names, so that the
only lower-case words a shouting catalogue leaves are the players' names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_troggu_tables import BAD, EXAMPLES, PAYMENTS
from troggu_helpers import A, B, C, D, call, forced, misere, normal, solo

from referee.engine.cards import SWISS_TAROT
from referee.engine.errors import RuleViolation
from referee.engine.games.troggu import GAME, discard_points, settle_text
from referee.engine.games.troggu.values import THRESHOLDS
from referee.engine.words import Text, say
from tests.shouting import Upper

NAMES = ["Anna", "Beat", "Carla", "Dora", "Eva", "Fritz", "Gabi", "Hans"]
# the refusals of the shared readers (base.py, cards.py): converted in their own modules
SHARED_CODES = {"fact.range", "fact.number", "fact.shape", "fact.unknown", "card.unknown",
                "card.twice", "card.list"}
# card names are the pack's words (cards.py), said by the pack's own Texts
CARD_NAMES = sorted({SWISS_TAROT.long_name(c) for c in SWISS_TAROT.cards}, key=len,
                    reverse=True)
# the threshold presets named after their places (Visp, St Niklaus, Grächen): names, said as
# they are
PLACES = [name for name, _ in THRESHOLDS.values() if not isinstance(name, Text)]








def assert_translatable(text: object, names: list[str] = NAMES) -> None:
    assert isinstance(text, Text), f"not a Text: {text!r}"
    assert say(text, None) == str(text)
    said = say(text, Upper())
    for name in sorted(names, key=len, reverse=True) + CARD_NAMES + PLACES:
        said = said.replace(name, "")
    said = re.sub(r"“[^”]*”", "", said)                 # what the user typed (errors.shown)
    assert not any(ch.islower() for ch in said), f"English left in {said!r} (from {text!r})"


def settings(n: int, **extra: Any) -> dict[str, Any]:
    return GAME.settings({"players": NAMES[:n], "first_dealer": 0, **extra})


def texts_of(n: int, hands: list[dict[str, Any]], **extra: Any) -> list[object]:
    result = GAME.score(settings(n, **extra), hands)
    out: list[object] = [result.standing.phase]
    for hand in [*result.hands, *([result.draft] if result.draft else [])]:
        out.append(hand.summary)
        out += [line.text for line in hand.lines]
        out += [hand.detail[key] for key in ("void_call", "void_discard") if key in hand.detail]
    return out


SEVEN_DISCARD = ["2c", "3c", "4c", "5c", "6c", "2d"]
E_TAPPIST = ["pass", "pass", "pass", "normal", "pass", "pass", "pass"]
MATCHES = [
    pytest.param(4, [normal(A, 70, dealer=2, bids=["pass", "normal", "pass", "pass"],
                            discard=SEVEN_DISCARD + ["3d", "4d", "5d", "6d"]),
                     solo(B, 64, took=True, tapp_points=14), normal(C, 57, took=True),
                     misere([40, 25, 20, 15], tapp_points=14), normal(A, 17, tricks=0,
                                                                     fool_kept=A,
                                                                     discard_points=12),
                     {"bids": ["pass", "normal"]}], {}, id="evening-of-four"),
    pytest.param(7, [{"dealer": A, "bids": E_TAPPIST,
                      "call": {"trump": "T20", "partner": D, "by": C},
                      "discard": SEVEN_DISCARD, "discard_by": C,
                      "end": {"points": 62, "tricks": 5}},
                     {"dealer": B, "bids": ["pass", "normal", "pass", "pass", "pass", "pass",
                                            "pass"],
                      "discard": SEVEN_DISCARD, "discard_by": A,
                      "call": {"trump": None, "partner": "alone", "by": C},
                      "end": {"points": 62, "tricks": 5}},
                     forced(A, 70, forced_by="T1", call=call("T20", D)),
                     forced(B, 40, forced_by="F", call=call("T19", "alone"))], {},
                 id="void-choices-and-forced-games"),
    pytest.param(4, [{"bids": ["pass"] * 4}, normal(A, 109, tricks=13, fool_kept=B)],
                 {"no_misere": True, "threshold": "visp"}, id="thrown-in"),
    pytest.param(5, [misere([30, 30, 20, 15, 10], tapp_points=9),
                     misere([30, 20, 20, 15, 20], tapp_points=9)],
                 {"misere_least_wins": True}, id="misere-least-wins"),
    pytest.param(3, [misere([34, 34, 34], tapp_points=12), misere([44, 34, 24],
                                                               tapp_points=12)], {},
                 id="misere-all-tie"),
    *[pytest.param(n, [hand], extra, id=f"payment-{p.id}")
      for p in PAYMENTS for n, hand, extra, _ in [p.values]],
    *[pytest.param(n, [hand], {}, id=f"example-{p.id}")
      for p in EXAMPLES for n, hand in [p.values]],
]


@pytest.mark.parametrize(("n", "hands", "extra"), MATCHES)
def test_every_troggu_sentence_is_translatable(n, hands, extra):
    texts = texts_of(n, hands, **extra)
    assert len(texts) > 2
    for text in texts:
        assert_translatable(text)


@pytest.mark.parametrize("extra", [
    {}, {"kings_any_number": True, "no_misere": True}, {"seven_fives": True,
                                                        "misere_least_wins": True},
    {"threshold": "visp", "graechen_deal": True}, {"threshold": "st-niklaus"},
], ids=["standard", "kings-any", "seven-fives", "visp-graechen", "st-niklaus"])
@pytest.mark.parametrize("n", [3, 4, 7])
def test_every_troggu_rule_in_force_is_translatable(n, extra):
    for rule in GAME.rules_in_force(settings(n, **extra)):
        assert_translatable(rule)
    assert_translatable(GAME.victory_label(settings(n)))


def test_the_troggu_settle_up_is_translatable():
    assert_translatable(settle_text((-60, 20, 60, -20), tuple(NAMES[:4])))
    assert_translatable(settle_text((0, 0, 0), tuple(NAMES[:3])))


@pytest.mark.parametrize(("n", "hand", "code", "rule"),
                         [p for p in BAD if p.values[2] not in SHARED_CODES])
def test_every_troggu_refusal_is_translatable(n, hand, code, rule):
    with pytest.raises(RuleViolation) as err:
        GAME.score(settings(n), [hand])
    assert err.value.code == code
    assert_translatable(err.value.message)


MORE_REFUSALS = [
    pytest.param(7, normal(A, 70, call=call("T20", D), discard=["T20", "3c", "4c", "5c", "6c",
                                                                 "2d"]), id="call-in-discard"),
    pytest.param(7, forced(A, 70, forced_by="T1", call=call("T1", D)), id="forced-bagatt"),
    pytest.param(4, normal(A, 70, tricks=5, fool_kept=A), id="fool-kept-own-side"),
    pytest.param(4, misere([6, 40, 30, 24], tricks=[0, 5, 4, 4], fool_kept=A, tapp_points=14),
                 id="misere-fool-kept"),
    pytest.param(4, misere([5, 40, 30, 25], tricks=[0, 5, 4, 4], tapp_points=14),
                 id="misere-no-trick-5"),
    pytest.param(4, normal(A, 70, discard=["Kc", "3c", "4c", "5c", "6c", "2d", "3d", "4d",
                                           "5d", "6d"]), id="one-king"),
    pytest.param(4, normal(A, 70, tricks=0), id="declarer-no-trick"),
    pytest.param(4, normal(A, 70, took=False, fool_kept=B), id="fool-and-took"),
    pytest.param(4, normal(A, 12, took=True), id="impossible-any-tricks"),
    pytest.param(4, normal(A, 100, tricks=1), id="impossible-one-trick"),
    pytest.param(4, normal(A, 60, tricks=0, fool_kept=A), id="impossible-kept-fool"),
    pytest.param(4, {"bids": ["pass"] * 4, "game": "thrown-in"}, id="thrown-in-off"),
    pytest.param(4, {"game": "forced", "declarer": 0, "end": None}, id="forced-with-four"),
    pytest.param(7, {"bids": ["pass"] * 7, "game": "normal", "declarer": 0}, id="all-passed"),
    pytest.param(4, {"game": "solo", "declarer": 0, "end": {"points": 70, "tricks": 5},
                     "tapp": ["F", "T21", "T1", "Kc", "Kd", "Ks", "Kb", "Qc", "Qd", "Qs"],
                     "tapp_points": 44}, id="tapp-points"),
    pytest.param(4, {"game": "solo", "declarer": 0,
                     "tapp": ["F", "2c", "3c", "4c", "5c", "6c", "2d", "3d", "4d", "5d"],
                     "end": {"points": 10, "tricks": 0, "fool_kept": 0}}, id="fool-in-tapp"),
    pytest.param(4, normal(A, 70, tricks=5, tapp=["F", "T21"]), id="tapp-in-normal"),
    pytest.param(7, misere([20, 20, 20, 20, 10, 10, 10]), id="misere-sum-7"),
    pytest.param(4, misere([40, 25, 20, 15], tapp_points=14, discard_points=14),
                 id="discard-in-misere"),
    pytest.param(4, {"game": "misere", "end": {"points": [40, 25, 20, 15]},
                     "call": call("T20", B)}, id="call-four"),
    pytest.param(4, normal(A, 70, discard_points=9), id="discard-value"),
    pytest.param(4, normal(A, 70, forced_by="F"), id="forced-by-normal"),
    pytest.param(4, {"game": "skat"}, id="game-unknown"),
    pytest.param(4, {"game": "forced", "forced_by": "T2"}, id="forced-by-unknown"),
    pytest.param(4, {"bids": ["pass", "ich gehe"]}, id="bid-unknown"),
    pytest.param(4, normal(A, 70, end=None, bids=["pass", "pass", "pass", "pass"]),
                 id="everybody-passed"),
]


@pytest.mark.parametrize(("n", "hand"), MORE_REFUSALS)
def test_more_troggu_refusals_are_translatable(n, hand):
    with pytest.raises(RuleViolation) as err:
        GAME.score(settings(n), [hand])
    assert err.value.code not in SHARED_CODES
    assert_translatable(err.value.message)


@pytest.mark.parametrize("raw", [
    {"players": ["Anna", "Beat"], "first_dealer": 0},
    {"players": NAMES[:3], "first_dealer": 0, "stake": 0},
    {"players": NAMES[:3], "first_dealer": 0, "threshold": "Zermatt"},
    {"players": NAMES[:3], "first_dealer": 0, "kings_any_number": True, "seven_fives": True},
    {"players": NAMES[:3], "first_dealer": 0, "no_misere": True, "misere_least_wins": True},
], ids=["two-players", "stake-0", "threshold", "kings-conflict", "misere-conflict"])
def test_troggu_settings_refusals_are_translatable(raw):
    with pytest.raises(RuleViolation) as err:
        GAME.settings(raw)
    assert_translatable(err.value.message)


@pytest.mark.parametrize("cards", [
    "2c 3c", "F 3c 4c 5c 6c 2d 3d 4d 5d 6d", "Kc Kd 4c 5c 6c 2d 3d 4d 5d 6d",
], ids=["size", "never", "kings"])
def test_troggu_discard_refusals_are_translatable(cards):
    with pytest.raises(RuleViolation) as err:
        discard_points(settings(4), cards)
    assert_translatable(err.value.message)
    with pytest.raises(RuleViolation) as err:
        discard_points(settings(4, kings_any_number=True), "Kc 3c 4c 5c 6c 2d 3d 4d 5d 6d")
    assert_translatable(err.value.message)
    with pytest.raises(RuleViolation) as err:
        discard_points(settings(4, seven_fives=True), "F 3c 4c 5c 6c 2d 3d 4d 5d 6d")
    assert_translatable(err.value.message)


def test_no_troggu_sentence_names_a_player_with_a_pronoun():
    """Issue 22: "Carla is now the Tappist, and his discard…" said of a woman."""
    texts = texts_of(7, [{"dealer": A, "bids": E_TAPPIST,
                          "call": {"trump": "T20", "partner": D, "by": C},
                          "discard": SEVEN_DISCARD, "discard_by": C,
                          "end": {"points": 62, "tricks": 5}},
                         forced(A, 70, forced_by="T1", call=call("T20", "alone"))])
    rules = GAME.rules_in_force(settings(7))
    refusals = []
    for n, hand in [(7, normal(B, 70, call=call("T20", B))), (7, solo(A, 70, call=call("T20", D))),
                    (4, misere([40, 25, 20], tapp_points=14)),
                    (4, misere([40, 25, 20, 15], tricks=[4, 4, 5, 0])),
                    (4, {"game": "misere", "declarer": 0, "end": None}),
                    (4, normal(A, 70, tricks=5, fool_kept=B)),
                    (7, forced(A, 70, forced_by="T1", call=call("T1", D)))]:
        with pytest.raises(RuleViolation) as err:
            GAME.score(settings(n), [hand])
        refusals.append(err.value.message)
    for text in [*texts, *rules, *refusals]:
        assert not re.search(r"\b(he|she|his|her|him|himself|herself)\b", str(text), re.I), text
    assert "Eva is now the Tappist" in " ".join(map(str, texts))


def test_the_deal_passing_on_is_not_said_of_the_first_hand():
    """Issue 22: no rotation "to the right" is said of hand 1, where none was (2.4); the line
    names who was due, the same on every hand (a kept outcome may be renumbered)."""
    result = GAME.score(settings(4), [normal(A, 70, dealer=C), normal(A, 70, dealer=A)])
    first, second = (hand.lines[0] for hand in result.hands)
    assert first.text == "Carla deals (Anna was due)"
    assert second.text == "Anna deals (Dora was due)"
    assert (first.rule, second.rule) == ("2.4", "2.4")
