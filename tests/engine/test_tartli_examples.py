"""The worked examples E1–E14 of shared/rules/tartli.md, section 9, one test each.

Trumps are hearts unless stated (indicator 8h). Player 0 = A, 1 = B. Unless a test says
otherwise B deals hand 1, so A leads trick 1.
"""

from __future__ import annotations

import pytest
from tartli_helpers import (
    E1_WINNERS,
    A,
    B,
    claim,
    decider,
    fold,
    hand,
    played,
    score,
)

from referee.engine.errors import RuleViolation
from referee.engine.games.tartli.melds import SeqMeld, SetMeld


def _award(outcome):
    assert outcome.award is not None
    return outcome.award.winner, outcome.award.amount


# --- E1 -----------------------------------------------------------------------------------------


def test_e1_full_hand_melds_bela_piles_and_last_trick_make_the_hand_score():
    raw = hand(
        E1_WINNERS,
        {2: (["seq:a/K/4"], []), 3: ([], ["set:9"])},
        bela=(B, 5),
        end=played((88, 63), A),
    )
    f = fold((120, 95), first_dealer=B)
    f.add(1, raw)
    out = f.hands[0]
    assert out.dealer == B
    verdicts = out.detail["verdicts"]
    assert [(v.number, v.leader, v.winner, v.points) for v in verdicts] == [
        (2, A, A, (50, 0)),        # trick 2: A leads (won trick 1) and scores the kvart
        (3, B, B, (0, 150)),       # trick 3: B leads (won trick 2) and scores four Nines
    ]
    score_ = out.detail["score"]
    assert score_.tricks == [98, 63] and sum(score_.tricks) == 161
    assert score_.bela == [0, 40]
    assert out.scores == (148, 253)
    assert out.totals_after == (268, 348)
    assert out.award is None and not out.reset
    standing = f.result().standing
    assert standing.totals == (268, 348)
    assert standing.victory == (0, 0)
    assert standing.dealer == A          # A deals next (2.1)


def test_e1_second_without_a_set_may_not_declare_against_a_set():
    raw = hand(
        E1_WINNERS,
        {2: (["seq:a/K/4"], []), 3: (["seq:l/A/3"], ["set:9"])},
        end=played((88, 63), A),
    )
    with pytest.raises(RuleViolation) as err:
        score(raw)
    assert err.value.code == "meld.not-eligible"
    assert err.value.rule == "4.5"


# --- E2 -----------------------------------------------------------------------------------------

E2_WINNERS = "ABABABA BABABABAB"   # A wins tricks 3 and 5, so he leads tricks 4 and 6


def test_e2_set_beats_sequence_bela_stands_and_the_beaten_kvart_is_redeclared():
    raw = hand(
        E2_WINNERS,
        {
            4: (["seq:l/O/4"], ["set:A", "seq:b/10/3"]),
            6: (["seq:l/O/4"], []),
        },
        bela=(A, 4),
        end=played((76, 75), B),
    )
    s = score(raw)
    t4, t6 = s.verdicts
    assert (t4.number, t4.leader, t4.winner, t4.points) == (4, A, B, (0, 120))
    assert "4.2.1" in t4.reason
    assert (t6.number, t6.leader, t6.winner, t6.points) == (6, A, A, (50, 0))
    assert s.melds == [50, 120]
    assert s.bela == [40, 0]
    assert s.scores == (40 + 50 + 76, 120 + 75 + 10)


# --- E3 -----------------------------------------------------------------------------------------


def _one_trick(a_melds: list[str], b_melds: list[str], indicator: str = "8h"):
    """Trick 1 of a hand dealt by B: A leads; the trick is in progress."""
    return score(hand(in_progress=(a_melds, b_melds), indicator=indicator))


@pytest.mark.parametrize("a_melds", [["seq:a/U/4"], ["seq:?/4"]], ids=["full", "conceded"])
def test_e3a_terc_alone_is_not_eligible_against_a_kvart(a_melds):
    with pytest.raises(RuleViolation) as err:
        _one_trick(a_melds, ["seq:l/K/3"])
    assert err.value.code == "meld.not-eligible"


@pytest.mark.parametrize("a_melds", [["seq:a/U/4"], ["seq:?/4"]], ids=["full", "conceded"])
def test_e3a_kvart_to_the_king_beats_kvart_to_the_under_higher_top(a_melds):
    s = _one_trick(a_melds, ["seq:l/K/4"])
    (v,) = s.verdicts
    assert v.winner == B and v.points == (0, 50)
    if a_melds == ["seq:a/U/4"]:
        assert "4.2.4" in v.reason
    assert s.melds == [0, 50]


@pytest.mark.parametrize(
    "a_melds",
    [["set:K", "seq:l/10/3"], ["set:?", "seq:?/3"]],
    ids=["full", "announced-only"],
)
def test_e3b_kvint_alone_is_not_eligible_against_a_set(a_melds):
    with pytest.raises(RuleViolation) as err:
        _one_trick(a_melds, ["seq:b/O/5"])
    assert err.value.code == "meld.not-eligible"
    # with a set added the same kvint is eligible, and the set of Overs wins
    s = _one_trick(a_melds, ["set:O", "seq:b/O/5"])
    assert s.melds == [0, 200 + 100]


def test_e3c_second_declares_freely_when_the_leader_declared_nothing():
    s = _one_trick([], ["seq:b/K/3"])
    (v,) = s.verdicts
    assert v.winner == B and v.points == (0, 20)
    assert s.melds == [0, 20]


def test_e3d_equal_sequences_neither_in_trumps_go_to_the_leader():
    s = _one_trick(["seq:a/O/4"], ["seq:b/O/4"])
    (v,) = s.verdicts
    assert v.winner == A and v.points == (50, 0)
    assert "4.2.6" in v.reason


def test_e3d_equal_sequences_the_one_in_trumps_wins():
    s = _one_trick(["seq:a/O/4"], ["seq:h/O/4"], indicator="7h")
    (v,) = s.verdicts
    assert v.winner == B and v.points == (0, 50)
    assert "4.2.5" in v.reason


def test_e3e_kings_beat_unders_and_the_winner_scores_set_and_sequence_sharing_a_card():
    s = _one_trick(["set:K", "seq:a/A/3"], ["set:U"])
    (v,) = s.verdicts
    assert v.winner == A and v.points == (120, 0)
    assert "4.2.2" in v.reason
    assert s.melds == [120, 0]


def test_e3f_overs_beat_aces_and_the_loser_scores_nothing():
    s = _one_trick(["set:A", "seq:h/10/3"], ["set:O"], indicator="Kh")
    (v,) = s.verdicts
    assert v.winner == B and v.points == (0, 200)
    assert s.melds == [0, 200]


# --- E4 -----------------------------------------------------------------------------------------
# All eight hearts are shown here, so the indicator (stated) is an acorn: trumps do not matter
# to the re-use rule.


def test_e4_reuse_rule_gap_and_longer_allowed_adjacent_lower_refused():
    melds = {
        1: (["seq:h/A/3"], []),
        2: (["seq:h/10/3"], []),     # (c): Uh missing between
        3: (["seq:h/10/4"], []),     # (b) against the 10-terc, (c) against the Ace-terc
    }
    s = score(hand("AAA", melds, indicator="8a"))
    assert [v.points for v in s.verdicts] == [(20, 0), (20, 0), (50, 0)]
    assert s.melds == [90, 0]
    melds[4] = (["seq:h/U/3"], [])
    with pytest.raises(RuleViolation) as err:
        score(hand("AAAA", melds, indicator="8a"))
    assert err.value.code == "meld.reuse"
    assert err.value.rule == "4.6.3"


# --- E5 -----------------------------------------------------------------------------------------

E5_ORDER = ["seq:a/10/3", "seq:a/U/3", "seq:a/U/4", "seq:a/O/3", "seq:a/O/4", "seq:a/O/5"]


def test_e5_milking_an_over_kvint_scores_260():
    melds = {n: ([m], []) for n, m in enumerate(E5_ORDER, 1)}
    s = score(hand("AAAAAA", melds))
    assert [v.points[A] for v in s.verdicts] == [20, 20, 50, 20, 50, 100]
    assert s.melds == [260, 0]


@pytest.mark.parametrize("later", E5_ORDER[:-1])
def test_e5_declaring_the_over_kvint_first_makes_each_other_an_error(later):
    with pytest.raises(RuleViolation) as err:
        score(hand("AA", {1: (["seq:a/O/5"], []), 2: ([later], [])}))
    assert err.value.code == "meld.reuse"


# --- E6 -----------------------------------------------------------------------------------------


def test_e6_stichmatsch_gives_161_and_keeps_melds():
    raw = hand(
        "AAABBBB BBBBBBBBB",
        {3: (["set:A", "seq:a/10/3"], [])},
        bela=(B, 6),
        end=played((64, 87), B, stichmatsch=B),
    )
    f = fold((230, 310))
    f.add(1, raw)
    out = f.hands[0]
    s = out.detail["score"]
    assert s.tricks == [0, 161]
    assert s.melds == [120, 0] and s.bela == [0, 40]
    assert out.scores == (120, 201)
    assert out.totals_after == (350, 511)
    assert _award(out) == (B, 1)          # A has 350 ≥ 251
    assert out.reset
    st = f.result().standing
    assert st.totals == (0, 0) and st.victory == (0, 1)


# --- E7 -----------------------------------------------------------------------------------------


def test_e7_one_player_over_and_the_loser_at_most_250_is_a_maccs():
    f = fold((400, 190))
    f.add(1, hand(E1_WINNERS, end=played((100, 51), A)))
    out = f.hands[0]
    assert out.scores == (110, 51)
    assert out.totals_after == (510, 241)
    assert _award(out) == (A, 2)
    assert out.reset
    st = f.result().standing
    assert st.totals == (0, 0) and st.victory == (2, 0)


# --- E8 -----------------------------------------------------------------------------------------


def _e8(step7: bool):
    return hand(
        "BABA",
        {2: (["seq:b/A/3"], [])},            # B leads trick 2; A declares a terc as second
        in_progress=(["seq:l/K/4"], []),    # trick 5, led by A (he won trick 4)
        end=claim(A, 4, (35, 28), step7=step7),
    )


def test_e8_right_claim_at_step7_with_maccs_and_the_unfinished_trick_counts_for_nobody():
    f = fold((430, 180))
    f.add(1, _e8(step7=True))
    out = f.hands[0]
    assert out.scores == (20 + 50 + 35, 28)
    assert out.totals_after == (535, 208)
    assert out.detail["claim_right"] is True
    assert _award(out) == (A, 2)
    st = f.result().standing
    assert st.totals == (0, 0) and st.victory == (2, 0)


def test_e8_same_claim_before_step7_leaves_the_kvart_unscored_and_is_wrong():
    f = fold((430, 180))
    f.add(1, _e8(step7=False))
    out = f.hands[0]
    assert out.totals_after == (485, 208)
    assert out.detail["claim_right"] is False
    assert _award(out) == (B, 1)


# --- E9 -----------------------------------------------------------------------------------------


def test_e9_going_out_with_bela_declared_between_tricks():
    raw = hand(
        "ABAAB",
        {1: (["seq:b/A/3"], [])},
        bela=(A, 6),                          # after trick 5, before trick 6
        end=claim(A, 5, (45, 12)),
    )
    f = fold((400, 239))
    f.add(1, raw)
    out = f.hands[0]
    assert out.scores == (20 + 40 + 45, 12)
    assert out.totals_after == (505, 251)
    assert _award(out) == (A, 1)          # B has 251: no maccs
    assert f.result().standing.totals == (0, 0)


# --- E10 ----------------------------------------------------------------------------------------


def test_e10_wrong_claim_gives_the_opponent_exactly_one_buli():
    f = fold((470, 150))
    f.add(1, hand("ABABAB", end=claim(A, 6, (25, 30))))
    out = f.hands[0]
    assert out.totals_after == (495, 180)
    assert out.detail["claim_right"] is False
    assert _award(out) == (B, 1)          # never 2, although A had 495 and B 180
    st = f.result().standing
    assert st.totals == (0, 0) and st.victory == (0, 1)


# --- E11 ----------------------------------------------------------------------------------------


def test_e11_both_over_at_a_claim_the_claimant_wins_with_fewer_points():
    f = fold((480, 495))
    f.add(1, hand("AAB", bela=(B, 2), end=claim(A, 3, (30, 20))))
    out = f.hands[0]
    assert out.totals_after == (510, 555)
    assert _award(out) == (A, 1)
    assert f.result().standing.victory == (1, 0)


# --- E12 ----------------------------------------------------------------------------------------


def test_e12_both_over_at_the_end_unequal_the_higher_wins_one_buli():
    raw = hand(E1_WINNERS, {3: ([], ["seq:l/A/3"])}, end=played((80, 71), A))
    f = fold((420, 460))
    f.add(1, raw)
    out = f.hands[0]
    assert out.scores == (90, 91)
    assert out.totals_after == (510, 551)
    assert _award(out) == (B, 1)
    st = f.result().standing
    assert st.totals == (0, 0) and st.victory == (0, 1)


# --- E13 ----------------------------------------------------------------------------------------

E13_TIE = hand(
    "BABABAB ABABABABA",                   # A dealt, so B leads trick 1; A wins trick 16
    {1: (["seq:b/A/3"], [])},             # A declares a terc as second in trick 1
    end=played((75, 76), A),
)


def test_e13_tie_at_546_then_decider_first_score_wins_one_buli():
    f = fold((441, 470), first_dealer=A)
    f.add(1, E13_TIE)
    tie = f.hands[0]
    assert tie.dealer == A
    assert tie.scores == (105, 76)
    assert tie.totals_after == (546, 546)
    assert tie.award is None and not tie.reset
    st = f.result().standing
    assert st.totals == (546, 546)         # totals kept (7.4.1)
    assert st.dealer == B and "Decider" in st.phase
    f.add(2, hand(indicator=None, end=decider(B)))
    dec = f.hands[1]
    assert dec.dealer == B                 # B deals, A leads
    assert _award(dec) == (B, 1)
    assert dec.reset
    st = f.result().standing
    assert st.totals == (0, 0) and st.victory == (0, 1)
    assert st.dealer == A                  # A deals next


@pytest.mark.parametrize(
    "raw",
    [
        hand(E1_WINNERS, end=played((88, 63), A)),
        hand("AB", end=claim(A, 2, (30, 10))),
    ],
    ids=["played-out", "claim"],
)
def test_e13_after_a_tie_only_a_decider_hand_no_claims(raw):
    f = fold((441, 470), first_dealer=A)
    f.add(1, E13_TIE)
    with pytest.raises(RuleViolation) as err:
        f.add(2, raw)
    assert err.value.code == "decider.due"
    assert err.value.rule == "7.4"


def test_e13_a_decider_hand_without_a_tie_is_refused():
    f = fold((0, 0))
    with pytest.raises(RuleViolation) as err:
        f.add(1, hand(indicator=None, end=decider(A)))
    assert err.value.code == "decider.not-due"


# --- E14 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        pytest.param(
            hand(E1_WINNERS, {3: ([], ["set:9"])}, indicator="9l", end=played((88, 63), A)),
            "cards.indicator", id="set-of-nines-while-9l-is-under-the-talon",
        ),
        pytest.param(
            hand(E1_WINNERS, end=played((80, 70), A)), "piles.sum", id="piles-sum-to-150",
        ),
        pytest.param(
            hand(E1_WINNERS, end=played((150, 1), A)), "piles.impossible", id="pile-of-150",
        ),
        pytest.param(
            hand("AB" + "B" * 13, end=claim(A, 15, (0, 150))),
            "piles.impossible", id="pile-of-150-at-a-claim",
        ),
        pytest.param(
            hand(E1_WINNERS, {2: (["seq:b/A/5"], []), 5: ([], ["set:U"])},
                 end=played((88, 63), A)),
            "cards.both", id="ub-shown-by-both",
        ),
        pytest.param(
            hand(E1_WINNERS[:-1], end=played((88, 63), A)),
            "trick.count", id="fifteen-trick-winners-and-no-claim",
        ),
    ],
)
def test_e14_impossible_entries_are_refused(raw, code):
    with pytest.raises(RuleViolation) as err:
        score(raw)
    assert err.value.code == code
    assert err.value.message
    f = fold()
    with pytest.raises(RuleViolation):
        f.add(1, raw)


def test_e14_the_same_entries_made_possible_are_accepted():
    """Guards the E14 cases: each refusal is about the named fact, not the hand around it."""
    base = hand(E1_WINNERS, end=played((88, 63), A))
    assert score(base).scores == (98, 63)
    # the set of Nines is fine once trumps are not shown: indicator 8l
    ok = hand(E1_WINNERS, {3: ([], ["set:9"])}, indicator="8l", end=played((88, 63), A))
    assert score(ok).melds == [0, 150]
    # Ub shown by A only
    ok = hand(E1_WINNERS, {2: (["seq:b/A/5"], []), 5: (["set:U"], [])}, end=played((88, 63), A))
    assert score(ok).melds == [200, 0]


def test_melds_types_in_verdicts_are_the_declared_melds():
    s = _one_trick(["set:K", "seq:a/A/3"], [])
    (v,) = s.verdicts
    assert v.melds[A] == (SetMeld("K"), SeqMeld("a", "A", 3))
