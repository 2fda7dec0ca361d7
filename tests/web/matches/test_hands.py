"""Entering hands: the indicator, tricks with declarations and their verdicts, béla, the end
of a hand (played out, claimed, decider). Each through a whole page and through htmx."""

from __future__ import annotations

import re

import pytest
from webtools import HAND_440_71, TIE_HANDS, A, B, Table, hand, played, unchanged

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])

KVART_U_ACORNS = ["Ua", "10a", "9a", "8a"]
KVART_K_LEAVES = ["Kl", "Ol", "Ul", "10l"]
KVINT_K_BELLS = ["Kb", "Ob", "Ub", "10b", "9b"]
FOUR_ACES = ["Aa", "Al", "Ah", "Ab"]


def start(table: Table, card: str = "8h", **kw: object) -> str:
    mid = table.seed([], **kw)  # type: ignore[arg-type]
    assert table.indicator(mid, 1, card).status == 302
    return mid


@HTMX
def test_start_a_hand(table: Table, htmx: bool) -> None:
    mid = table.new_match()
    page = table.done(table.indicator(mid, 1, "8h", htmx=htmx), htmx)
    # the suit and the card by the Hungarian pack's own marks, named in full
    assert re.search(r"Trumps: hearts \(indicator 8 ?\)", page.text), page.text[:800]
    assert '<span class="suit suit-hearts" aria-hidden="true"></span> hearts' in page.html
    assert 'aria-label="Eight of hearts">8<span class="suit suit-hearts"' in page.html
    assert "Trick 1 · Tamás leads" in page.text
    assert page.checked("indicator-indicator") == ["8h"]
    assert table.hands(mid) == [       # the proposed dealer is stored (6.1.1)
        {"dealer": A, "indicator": "8h", "exchange": None, "tricks": [], "bela": None,
         "end": None}
    ]
    assert "Undo: Trump indicator (hand 1)" in page.text


@HTMX
def test_change_the_indicator(table: Table, htmx: bool) -> None:
    mid = start(table)
    page = table.done(table.indicator(mid, 1, "Ob", htmx=htmx), htmx)
    assert re.search(r"Trumps: bells \(indicator O ?\)", page.text)
    assert 'aria-label="Over of bells">O<span class="suit suit-bells"' in page.html
    assert table.hands(mid)[0]["indicator"] == "Ob"


# (Tamás leads: his cards, Ágnes's cards, the verdict's words)
CONTESTS = {
    "kvart-vs-kvart-higher-top": (
        KVART_U_ACORNS, KVART_K_LEAVES, ([], ["seq:l/K/4"], ["seq:a/U/4"]),
        ["Tamás: Kvart to the Under of acorns.", "Ágnes: Kvart to the King of leaves.",
         "Ágnes scores 50", "equal length: the higher top card wins (4.2.4)"]),
    "kvart-vs-kvart-leader-keeps-a-tie": (
        ["Ob", "Ub", "10b", "9b"], ["Oa", "Ua", "10a", "9a"], (),
        ["Tamás scores 50", "neither in trumps: the leader's wins (4.2.6)"]),
    "kvart-vs-kvart-trumps-win-a-tie": (
        ["Oa", "Ua", "10a", "9a"], ["Oh", "Uh", "10h", "9h"], (),
        ["Ágnes scores 50", "equal length and top: the one in trumps wins (4.2.5)"]),
    "longer-sequence-wins": (
        ["Al", "Kl", "Ol"], KVART_U_ACORNS, (),
        ["Ágnes scores 50", "the longer sequence wins (4.2.3)"]),
    "set-beats-sequence": (
        KVINT_K_BELLS, FOUR_ACES, ([], ["set:A"], ["seq:b/K/5"]),
        ["Tamás: Kvint to the King of bells.", "Ágnes: Four Aces.", "Ágnes scores 100",
         "any set beats any sequence (4.2.1)"]),
    "set-with-sequence-beats-lower-set": (
        ["Ka", "Kl", "Kh", "Kb", "Aa", "Oa"], ["Ua", "Ul", "Uh", "Ub"],
        ([], ["set:U"], ["set:K", "seq:a/A/3"]),
        ["Tamás: Four Kings, Terc to the Ace of acorns.", "Tamás scores 120",
         "set against set: O > 9 > A > 10 > K > U (4.2.2)"]),
    "only-one-declares": (
        [], ["Al", "Kl", "Ol"], ([], ["seq:l/A/3"], []),
        ["Ágnes scores 20", "only one player declared"]),
}


@HTMX
@pytest.mark.parametrize("case", list(CONTESTS), ids=list(CONTESTS))
def test_declarations_picked_as_cards_get_their_verdict_at_once(
    table: Table, htmx: bool, case: str
) -> None:
    tamas, agnes, stored, words = CONTESTS[case]
    mid = start(table)
    page = table.done(table.trick(mid, 1, 1, (agnes, tamas), htmx=htmx), htmx)
    verdicts = [v for v in page.verdicts if all(w in v for w in words)]
    assert verdicts, (words, page.verdicts)
    # the trick is still in progress: its form shows the cards as picked
    assert "Trick 1 · Tamás leads" in page.text
    assert sorted(page.checked("trick-cards_0")) == sorted(agnes)
    assert sorted(page.checked("trick-cards_1")) == sorted(tamas)
    trick = table.hands(mid)[0]["tricks"]
    assert len(trick) == 1 and trick[0]["winner"] is None
    if stored:
        assert trick[0]["melds"] == [stored[1], stored[2]]


@HTMX
def test_a_hand_with_contests_bela_and_a_pile(table: Table, htmx: bool) -> None:
    """Trick 1: kvart against kvart (Ágnes, higher top); trick 2: Ágnes's kvint against
    Tamás's Four Aces (set beats sequence); trick 3: Tamás's béla. Piles: Tamás 80, so
    Ágnes 71; Tamás takes the last trick."""
    mid = start(table)
    page = table.done(table.trick(mid, 1, 1, (KVART_K_LEAVES, KVART_U_ACORNS), A,
                                  htmx=htmx), htmx)
    assert "Trick 2 · Ágnes leads" in page.text
    assert any("Ágnes scores 50" in v for v in page.verdicts)
    page = table.done(table.trick(mid, 1, 2, (KVINT_K_BELLS, FOUR_ACES), B, htmx=htmx), htmx)
    assert any("Tamás scores 100" in v and "any set beats any sequence" in v
               for v in page.verdicts), page.verdicts
    assert "Trick 3 · Tamás leads" in page.text
    page = table.done(table.trick(mid, 1, 3, bela=B, winner=B, htmx=htmx), htmx)
    assert "béla: Tamás (trick 3)" in page.text
    assert "Béla (King and Over of hearts) by Tamás +40" in table.explained(page)
    assert page.standings() == ((0, 0), (0, 0))            # nothing added before the end
    # the draft's row: melds and béla so far, in words (no totals before the hand ends)
    assert "#1 Ágnes deals Ágnes +50 Tamás +140 in progress" in page.text
    page = table.done(table.finish(mid, 1, 80, pile_player=B, last=B, htmx=htmx), htmx)
    # Ágnes 50 + 71 = 121; Tamás 100 + 40 + 80 + 10 = 230
    assert page.standings() == ((121, 230), (0, 0))
    assert ("#1 Ágnes deals Ágnes +121 total 121 Tamás +230 total 230 no one reached 501"
            in page.text)
    assert "Tamás: last trick +10" in table.explained(page)
    assert "Hand 2" in page.text and "Tamás deals · Ágnes leads trick 1" in page.text
    facts = table.hands(mid)[0]
    assert facts["tricks"] == [
        {"winner": 0, "melds": [["seq:l/K/4"], ["seq:a/U/4"]]},
        {"winner": 1, "melds": [["seq:b/K/5"], ["set:A"]]},
        {"winner": 1, "melds": [[], []]},
    ]
    assert facts["bela"] == {"player": 1, "trick": 3}
    assert facts["end"] == {"kind": "played", "piles": [71, 80], "last": 1, "stichmatsch": None}


@HTMX
@pytest.mark.parametrize(("pile_player", "pile", "last", "piles", "scores"), [
    (A, 88, A, [88, 63], (98, 63)),
    (B, 88, A, [63, 88], (73, 88)),
    (A, 151, B, [151, 0], (151, 10)),
    (B, 0, A, [151, 0], (161, 0)),
])
def test_finish_one_pile_gives_the_other(
    table: Table, htmx: bool, pile_player: int, pile: int, last: int, piles: list[int],
    scores: tuple[int, int],
) -> None:
    mid = start(table)
    page = table.done(table.finish(mid, 1, pile, pile_player=pile_player, last=last,
                                   htmx=htmx), htmx)
    assert table.hands(mid)[0]["end"] == {"kind": "played", "piles": piles, "last": last,
                                          "stichmatsch": None}
    assert page.standings() == (scores, (0, 0))
    assert sum(scores) == 161


def test_sixteen_tricks_propose_the_last_trick(table: Table) -> None:
    mid = table.seed([hand("8h", "0101010101010101")])
    page = table.get(f"/m/{mid}")
    assert page.checked("finish-last") == ["1"]
    assert "Trick 17" not in page.text
    page = table.done(table.finish(mid, 1, 70, last=B), False)
    assert page.standings() == ((70, 91), (0, 0))
    assert table.hands(mid)[0]["end"]["piles"] == [70, 81]


@HTMX
def test_stichmatsch(table: Table, htmx: bool) -> None:
    mid = table.seed([hand("8h", "1", {1: (["seq:a/K/4"], [])})])
    page = table.done(table.finish(mid, 1, 100, last=A, stichmatsch=A, htmx=htmx), htmx)
    # Ágnes: kvart 50 + 161; Tamás 0 (his pile of 51 not scored)
    assert page.standings() == ((211, 0), (0, 0))
    assert "Ágnes: Stichmatsch: all of tricks 8–16, trick points 161 +161" in table.explained(page)
    assert "trick points 0 (pile 51 not scored)" in table.explained(page)
    assert table.hands(mid)[0]["end"]["stichmatsch"] == 0


def _claim_hand(table: Table, htmx: bool) -> str:
    """Totals 440–71; hand 2: Ágnes leads and shows Four Aces alone in trick 1, wins it."""
    mid = table.seed([HAND_440_71])
    table.done(table.indicator(mid, 2, "8h", htmx=htmx), htmx)
    page = table.done(table.trick(mid, 2, 1, (FOUR_ACES, []), A, htmx=htmx), htmx)
    assert any("Ágnes scores 100" in v for v in page.verdicts)
    return mid


@HTMX
def test_right_claim_with_maccs(table: Table, htmx: bool) -> None:
    mid = _claim_hand(table, htmx)
    page = table.done(table.claim(mid, 2, A, 1, (21, 0), htmx=htmx), htmx)
    # Ágnes: 440 + 100 + 21 = 561 ≥ 501; Tamás 71 ≤ 250 → 2 buli
    assert page.standings() == ((0, 0), (2, 0))
    assert "Ágnes's count: total 440 + melds 100 + piles 21 = 561" in page.text
    assert "Ágnes claims 501 — 561 ≥ 501: right; opponent 71 ≤ 250 → 2 buli" in page.text
    assert "Ágnes wins 2 buli (maccs)" in page.classed["summary"]
    assert table.hands(mid)[1]["end"] == {"kind": "claim", "claimant": 0, "completed": 1,
                                          "step7": False, "piles": [21, 0]}
    assert "Hand 3" in page.text


@HTMX
def test_wrong_claim(table: Table, htmx: bool) -> None:
    mid = _claim_hand(table, htmx)
    page = table.done(table.claim(mid, 2, B, 1, (21, 0), htmx=htmx), htmx)
    # Tamás: 71 < 501 → wrong; Ágnes takes exactly 1 buli, though Tamás is far behind
    assert page.standings() == ((0, 0), (1, 0))
    assert "Tamás claims 501 — 71 < 501: wrong; 1 buli to the opponent" in page.text
    assert "Ágnes wins 1 buli" in page.classed["summary"]


@HTMX
def test_claim_after_step_7_of_the_trick_in_progress(table: Table, htmx: bool) -> None:
    """Claiming in trick 2 after its melds scored: they count, the trick's cards do not."""
    mid = table.seed([HAND_440_71, hand("8h", "0")])
    table.done(table.trick(mid, 2, 2, (["Al", "Kl", "Ol"], []), htmx=htmx), htmx)
    page = table.done(table.claim(mid, 2, A, 1, (21, 0), step7=True, htmx=htmx), htmx)
    # 440 + 20 + 21 = 481 < 501: wrong
    assert "total 440 + melds 20 + piles 21 = 481" in page.text
    assert page.standings() == ((0, 0), (0, 1))


@HTMX
def test_decider_after_a_tie(table: Table, htmx: bool) -> None:
    mid = table.seed(TIE_HANDS)
    page = table.get(f"/m/{mid}", htmx=htmx)
    assert page.standings() == ((536, 536), (0, 0))
    assert "both at 536: a decider hand follows" in page.classed["summary"]
    assert "Decider hand: the first to score wins 1 buli; no claims" in page.text
    assert {i.get("value") for i in page.inputs if i.get("name") == "decider-first"} == {
        "0", "1"}
    assert not any(i.get("name") == "indicator-indicator" for i in page.inputs)
    page = table.done(table.decider(mid, 3, B, htmx=htmx), htmx)
    assert page.standings() == ((0, 0), (0, 1))
    assert "Tamás scored first in the decider hand: Tamás wins 1 buli" in page.text
    assert table.hands(mid)[2] == {"dealer": A, "indicator": None, "exchange": None,
                                   "tricks": [], "bela": None,
                                   "end": {"kind": "decider", "first": 1}}
    assert "Game in progress" in page.text


def test_decider_not_due_is_refused(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    with unchanged(table, mid):
        page = table.rejected(table.decider(mid, 2, A), False)
    assert any("A decider hand follows only a tie of 501 or more" in e for e in page.errors)


@HTMX
def test_match_over(table: Table, htmx: bool) -> None:
    """A match to 5: two maccs of Ágnes, then a third entered here ends the match."""
    to_530 = hand("8h", "", None, played((80, 71), A))     # 440 + 90 = 530; 71 + 71 = 142
    mid = table.seed([HAND_440_71, to_530, HAND_440_71, to_530, HAND_440_71])
    page = table.done(table.indicator(mid, 6, "8h", htmx=htmx), htmx)
    assert page.standings() == ((440, 71), (4, 0))
    page = table.done(table.finish(mid, 6, 80, last=A, htmx=htmx), htmx)
    assert "Match over: Ágnes wins 6–0" in page.text
    assert page.standings()[1] == (6, 0)
    assert "Hand 7" not in page.text and "Start hand" not in page.text
    with unchanged(table, mid):
        refused = table.rejected(table.indicator(mid, 7, "8h", htmx=htmx), htmx)
    assert any("The match is over: Ágnes reached 5 buli" in e for e in refused.errors)


# -- who dealt (6.1.1): stored with each hand, proposed by the app, corrected by the table ----

def test_the_start_form_proposes_the_dealer_by_name(table: Table) -> None:
    mid = table.seed([HAND_440_71])                       # Ágnes dealt hand 1
    page = table.get(f"/m/{mid}")
    assert "Hand 2 Tamás deals · Ágnes leads trick 1" in page.text
    assert "Dealer Ágnes Tamás Start hand 2" in page.text           # one choice, by name
    assert page.checked("indicator-dealer") == [str(B)]             # proposed: Tamás (2.1)


@HTMX
def test_a_hand_dealt_out_of_turn_is_scored_as_the_table_recorded_it(table: Table,
                                                                      htmx: bool) -> None:
    mid = table.new_match()                               # Ágnes deals first
    page = table.done(table.post(f"/m/{mid}/hands/1/indicator", {
        "indicator-indicator": "8h", "indicator-dealer": str(B)}, htmx=htmx,
        prefix="indicator"), htmx)
    assert "Hand 1 Tamás deals · Ágnes leads trick 1" in page.text
    assert "Trick 1 · Ágnes leads" in page.text
    assert "Tamás dealt, out of turn: Ágnes was due §2.1" in table.explained(page)
    assert page.checked("indicator-dealer") == [str(B)]             # the change form: stored
    page = table.done(table.trick(mid, 1, 1, (["Oa", "Ua", "10a", "9a"],
                                              ["Ob", "Ub", "10b", "9b"]), htmx=htmx), htmx)
    assert [v for v in page.verdicts if "Ágnes scores 50" in v and "(4.2.6)" in v]
    page = table.done(table.post(f"/m/{mid}/hands/1/indicator", {
        "indicator-indicator": "8h", "indicator-dealer": str(A)}, htmx=htmx,
        prefix="indicator"), htmx)                        # corrected: Ágnes dealt after all
    assert "Trick 1 · Tamás leads" in page.text and "out of turn" not in page.text
    assert [v for v in page.verdicts if "Tamás scores 50" in v and "(4.2.6)" in v]
    assert table.hands(mid)[0]["dealer"] == A


@HTMX
def test_deleting_hand_1_keeps_an_equal_sequence_contest_with_its_leader(table: Table,
                                                                         htmx: bool) -> None:
    """Stored as before dealers were recorded: Tamás dealt hand 2, so Ágnes led its trick 1
    and her kvart beat his equal one (4.2.6). Hand 1 deleted, she still leads and scores."""
    contest = hand("8h", "0", {1: (["seq:a/O/4"], ["seq:b/O/4"])})
    mid = table.seed([HAND_440_71, contest])
    page = table.get(f"/m/{mid}")
    assert [v for v in page.verdicts if "Ágnes scores 50" in v and "(4.2.6)" in v]
    page = table.done(table.delete(mid, 1, htmx=htmx), htmx)
    assert "Hand 1 Tamás deals · Ágnes leads trick 1" in page.text
    assert [v for v in page.verdicts if "Ágnes scores 50" in v and "(4.2.6)" in v]
    assert "Tamás dealt, out of turn: Ágnes was due §2.1" in table.explained(page)
    assert [h["dealer"] for h in table.hands(mid)] == [B]


def test_the_decider_form_proposes_the_dealer(table: Table) -> None:
    mid = table.seed(TIE_HANDS)                            # Ágnes dealt 1, Tamás 2
    page = table.get(f"/m/{mid}")
    assert page.checked("decider-dealer") == [str(A)]
    page = table.follow(table.post(f"/m/{mid}/hands/3/decider", {
        "decider-first": "1", "decider-dealer": str(B)}, prefix="decider"))
    assert "Tamás dealt, out of turn: Ágnes was due §2.1" in page.text
    assert table.hands(mid)[2]["dealer"] == B


@HTMX
def test_correcting_the_dealer_of_an_old_hand_leaves_later_dealers_alone(table: Table,
                                                                          htmx: bool) -> None:
    """Hands stored before dealers were recorded (Ágnes dealt 1 and 3, Tamás 2): the table
    says Tamás dealt hand 1 after all. The later hands keep the dealers they had, filled in
    before the change, not worked out again from it (6.1.1)."""
    mid = table.seed([HAND_440_71, HAND_440_71, HAND_440_71], target=10)
    table.done(table.post(f"/m/{mid}/hands/1/indicator?editing=1", {
        "indicator-indicator": HAND_440_71["indicator"], "indicator-dealer": str(B)},
        htmx=htmx, prefix="indicator"), htmx)
    assert [h["dealer"] for h in table.hands(mid)] == [B, B, A]
