"""Statistics of small circles, one per game, against figures counted by hand from the rules'
worked examples (shared/rules/*.md, section 9) and the facts entered."""

from __future__ import annotations

import datetime
from typing import Any

import marjolet_helpers as mj
import pytest
import stovkahra_helpers as sk
import tartli_helpers as ta
import troggu_helpers as tg
from stats_helpers import match

from referee.engine.games import get
from referee.stats import Played, statistics

# ---------------------------------------------------------------------------------------------
# Tartli: Anna and Bela play two matches, Anna in seat A of the first, seat B of the second.

# A contest won (4.2: Kings beat Unders, E3 e), four Nines uncontested (E1), a béla by A.
CONTEST = ta.hand(
    ta.E1_WINNERS, {2: (["set:K", "seq:a/A/3"], ["set:U"]), 3: ([], ["set:9"])},
    bela=(ta.A, 5), end=ta.played((88, 63), ta.A),
)
# Four Overs and four Aces by A, a béla by A, piles 100 (+10 last trick) to 51 (E7's piles).
BIG = ta.hand(
    ta.E1_WINNERS, {2: (["set:O"], []), 4: (["set:A"], [])}, bela=(ta.A, 5),
    end=ta.played((100, 51), ta.A),
)
# B claims 501 after six tricks with 30 in his pile: wrong (7.3.4, E10).
B_CLAIMS = ta.hand("ABABAB", end=ta.claim(ta.B, 6, (25, 30)))


def tartli_circle() -> list[Played]:
    settings = get("tartli").settings({"players": ["Anna", "Bela"], "target": 5,
                                      "first_dealer": 1})
    first = match("tartli", settings, [CONTEST, CONTEST, B_CLAIMS, BIG, BIG], ("Anna", "Bela"))
    swapped = get("tartli").settings({"players": ["Bela", "Anna"], "target": 5,
                                      "first_dealer": 1})
    second = match("tartli", swapped, [B_CLAIMS] * 5, ("Bela", "Anna"))
    return [first, second]


def test_tartli_hand_scores_as_counted_by_hand() -> None:
    first, second = tartli_circle()
    result = get("tartli").score(first.settings, first.hands)
    # CONTEST: A 100 + 20 (the contest) + 40 (béla) + 98 trick points; B 150 + 63.
    # B_CLAIMS: piles only. BIG: 200 + 100 + 40 + 110; B 51.
    assert [o.scores for o in result.hands] == [
        (258, 213), (258, 213), (25, 30), (450, 51), (450, 51)]
    assert [(o.award.winner, o.award.amount) if o.award else None for o in result.hands] == [
        None, (0, 1), (0, 1), None, (0, 2)]      # 516–426: 1 buli; wrong claim; 900–102: maccs
    assert get("tartli").score(second.settings, second.hands).standing.winner == 0


def test_tartli_players() -> None:
    players = statistics(tartli_circle())["players"]
    anna, bela = players["Anna"], players["Bela"]
    assert (anna["matches"], anna["won"], anna["win_rate"]) == (2, 0, 0.0)
    assert (bela["matches"], bela["won"], bela["win_rate"]) == (2, 1, 0.5)
    assert anna["hands"] == bela["hands"] == 10
    assert anna["points"] == 258 * 2 + 25 + 450 * 2 + 30 * 5 == 1591
    assert bela["points"] == 213 * 2 + 30 + 51 * 2 + 25 * 5 == 683
    assert anna["average_hand_score"] == 159.1
    assert bela["average_hand_score"] == 68.3
    own = {key: anna["games"]["tartli"][key] for key in TARTLI_KEYS}
    assert own == {"sets": 6, "sequences": 2, "contests_won": 2, "belas": 4, "claims_right": 0,
                   "claims_wrong": 5, "buli": 4, "maccs": 1}
    own = {key: bela["games"]["tartli"][key] for key in TARTLI_KEYS}
    assert own == {"sets": 4, "sequences": 0, "contests_won": 0, "belas": 0, "claims_right": 0,
                   "claims_wrong": 1, "buli": 5, "maccs": 0}
    generic = {key: anna[key] for key in GENERIC}
    assert {key: anna["games"]["tartli"][key] for key in GENERIC} == generic


TARTLI_KEYS = ("sets", "sequences", "contests_won", "belas", "claims_right", "claims_wrong",
               "buli", "maccs")
GENERIC = ("matches", "won", "win_rate", "hands", "points", "average_hand_score")


def test_tartli_game_and_head_to_head() -> None:
    stats = statistics(tartli_circle())
    assert stats["games"]["tartli"] == {
        "matches": 2, "finished": 1, "hands": 10, "buli": 9, "maccs": 1, "claims_right": 0,
        "claims_wrong": 6, "deciders": 0,
    }
    assert stats["head_to_head"] == [{
        "game": "tartli", "players": ["Anna", "Bela"], "matches": 2, "won": [0, 1],
        "hands": 10, "points": [1591, 683],
    }]
    assert stats["partners"] == [] and stats["skipped"] == []


def test_a_right_claim_and_a_decider_are_counted() -> None:
    settings = get("tartli").settings({"players": ["Anna", "Bela"], "target": 5,
                                      "first_dealer": 1})
    # E13: a tie at 546 needs totals from earlier hands; from 0, BIG twice gives A 900 alone.
    # E8 (right claim): A's terc and kvart and 35 in piles reach 501 only from 430; from 450 +
    # 450 reset to 0 it cannot. So: BIG (A 450), then A claims with 20 + 50 + 35 = 105: 555.
    e8 = ta.hand("BABA", {2: (["seq:b/A/3"], [])}, in_progress=(["seq:l/K/4"], []),
                 end=ta.claim(ta.A, 4, (35, 28), step7=True))
    stats = statistics([match("tartli", settings, [BIG, e8], ("Anna", "Bela"))])
    anna = stats["players"]["Anna"]["games"]["tartli"]
    assert (anna["claims_right"], anna["buli"], anna["maccs"]) == (1, 2, 1)   # Bela 28 + 51
    assert anna["sequences"] == 2 and anna["contests_won"] == 0    # nobody declared against


# ---------------------------------------------------------------------------------------------
# Stovkahra: two series; Jana and Eva partners in both, against Petr and Karel.

EXAMPLE_1 = sk.deal(sk.combo(sk.N, "A", 3), sk.combo(sk.E, "K", 3), sk.combo(sk.S, "7", 3),
                    end=sk.played((40, 32), sk.EW, (5, 3), sk.sevens((4, sk.NS))))
EXAMPLE_3 = sk.deal(end=sk.dost(sk.N, 2, (12, 11), (1, 1), trick_winner=sk.N), sticks="add")
EXAMPLE_2 = sk.deal(end=sk.played((27, 45), sk.NS, (3, 5), sk.sevens((1, sk.EW), (8, sk.NS))))
# E wins trick 1 (no card points) and calls dost: EW count 97 < 100, wrong: NS win 2 (7.2.5).
WRONG_DOST = sk.deal(end=sk.dost(sk.E, 1, (0, 0), (0, 1), trick_winner=sk.E), sticks="add")
# E declares four aces and calls dost at once: EW count 40, wrong: NS win 2 (7.2.1, 7.2.5).
FOUR_ACES_DOST = sk.deal(sk.combo(sk.E, "A", 4), end=sk.dost(sk.E, 0), sticks="add")


def stovkahra_circle() -> list[Played]:
    first = match("stovkahra", sk.settings(), [EXAMPLE_1, EXAMPLE_3, EXAMPLE_2, WRONG_DOST],
                  ("Jana", "Petr", "Eva", "Karel"))
    # The second series to 2 matchsticks: Petr and Karel sit North–South.
    second = match("stovkahra", sk.settings(target=2), [FOUR_ACES_DOST],
                   ("Petr", "Jana", "Karel", "Eva"))
    return [first, second]


STOVKAHRA_KEYS = ("combinations", "combination_points", "sevens", "dosts_right", "dosts_wrong",
                  "games_won", "matchsticks")


def test_stovkahra_deal_scores_as_counted_by_hand() -> None:
    first, second = stovkahra_circle()
    result = get("stovkahra").score(first.settings, first.hands)
    assert [o.scores for o in result.hands] == [(90, 44), (12, 11), (53, 97), (0, 0)]
    assert result.standing.victory == (3, 0) and not result.standing.over
    result = get("stovkahra").score(second.settings, second.hands)
    assert result.hands[0].scores == (0, 40)
    assert result.standing.over and result.standing.winner == 0


def test_stovkahra_players() -> None:
    players = statistics(stovkahra_circle())["players"]
    expected = {
        #        won  hands points  combos pts sevens right wrong games sticks
        "Jana": (0, 5, 155 + 40, 2, 30 + 40, 2, 1, 1, 2, 3),
        "Eva": (0, 5, 155 + 40, 1, 10, 2, 0, 0, 2, 3),
        "Petr": (1, 5, 152 + 0, 1, 6, 1, 0, 1, 1, 2),
        "Karel": (1, 5, 152 + 0, 0, 0, 1, 0, 0, 1, 2),
    }
    for name, (won, hands, points, *own) in expected.items():
        player = players[name]
        assert (player["matches"], player["won"], player["hands"], player["points"]) == (
            2, won, hands, points), name
        assert player["win_rate"] == won / 2
        assert [player["games"]["stovkahra"][key] for key in STOVKAHRA_KEYS] == own, name


def test_stovkahra_game_and_partners() -> None:
    stats = statistics(stovkahra_circle())
    assert stats["games"]["stovkahra"] == {
        "matches": 2, "finished": 1, "hands": 5, "combinations": 4, "sevens": 3,
        "dosts_right": 1, "dosts_wrong": 2, "games": 3, "matchsticks": 5,
        "teams": {"NS": {"sevens": 2, "games_won": 3, "matchsticks": 5},
                  "EW": {"sevens": 1, "games_won": 0, "matchsticks": 0}},
    }
    assert stats["partners"] == [
        {"game": "stovkahra", "players": ["Eva", "Jana"], "matches": 2, "won": 0,
         "games_won": 2, "matchsticks": 3, "hands": 5, "points": 195},
        {"game": "stovkahra", "players": ["Karel", "Petr"], "matches": 2, "won": 1,
         "games_won": 1, "matchsticks": 2, "hands": 5, "points": 152},
    ]
    assert stats["head_to_head"] == []


# ---------------------------------------------------------------------------------------------
# Marjolet: Anne (A) and Bruno (B), one game to 500; B deals first.

E1 = mj.hand("9c", mj.tricks("BAABABBABA ABAABB",
                             melds={3: (["four:K", "marriage:h"], []), 6: ([], ["marjolet:c"])},
                             exchange=(5, mj.A)),
             finish=mj.end((50, 30), trick10=mj.A, last=mj.B))
E3 = mj.hand("7s", mj.tricks(count=0), finish=mj.end((40, 40), trick10=mj.A, last=mj.A))
E7 = mj.hand("8h", [], seven=(mj.B, None),
             finish=mj.end((60, 20), trick10=mj.B, last=mj.A, sweep=mj.A))


def marjolet_game() -> Played:
    return match("marjolet", mj.settings(), [E1, E3, E7, E1], ("Anne", "Bruno"))


def test_marjolet_deal_scores_as_counted_by_hand() -> None:
    game = marjolet_game()
    result = get("marjolet").score(game.settings, game.hands)
    # E3 dealt by A this time: A takes the turned-up 7's 7 (5), B nothing for the turn-up.
    assert [o.scores for o in result.hands] == [(170, 90), (67, 50), (130, 40), (170, 90)]
    assert result.standing.over and result.standing.winner == 0      # 537 ≥ 500 (7.2)


def test_marjolet_players_game_and_head_to_head() -> None:
    stats = statistics([marjolet_game()])
    anne, bruno = (stats["players"][name] for name in ("Anne", "Bruno"))
    assert (anne["won"], anne["win_rate"], anne["points"], anne["average_hand_score"]) == (
        1, 1.0, 537, 537 / 4)
    assert (bruno["won"], bruno["win_rate"], bruno["points"]) == (0, 0.0, 270)
    melds = dict.fromkeys(MELDS, 0)
    assert anne["games"]["marjolet"]["melds"] == {**melds, "four_kings": 2, "plain_marriage": 2}
    assert bruno["games"]["marjolet"]["melds"] == {**melds, "trump_marjolet": 2}
    assert anne["games"]["marjolet"]["trump_sevens"] == {
        "turned_up": 1, "exchanged": 2, "played": 0}
    assert bruno["games"]["marjolet"]["trump_sevens"] == {
        "turned_up": 0, "exchanged": 0, "played": 1}
    assert (anne["games"]["marjolet"]["sweeps"], bruno["games"]["marjolet"]["sweeps"]) == (1, 0)
    assert stats["games"]["marjolet"] == {
        "matches": 1, "finished": 1, "hands": 4, "melds": 6, "sweeps": 1}
    assert stats["head_to_head"] == [{
        "game": "marjolet", "players": ["Anne", "Bruno"], "matches": 1, "won": [1, 0],
        "hands": 4, "points": [537, 270]}]


MELDS = ("four_aces", "four_tens", "four_kings", "four_queens", "four_jacks", "trump_marriage",
         "plain_marriage", "trump_marjolet", "plain_marjolet")


# ---------------------------------------------------------------------------------------------
# Troggu: two evenings. The first holds the ledger of example 12 and a Solo (example 4).

NOV_30, DEC_1 = datetime.date(2026, 11, 30), datetime.date(2026, 12, 1)


def troggu_evenings() -> list[Played]:
    four = ("Anna", "Beat", "Carla", "Dario")
    ledger = match("troggu", tg.settings(4), [
        tg.normal(tg.B, 70, took=True), tg.solo(tg.C, 64, took=True),
        tg.misere([40, 25, 20, 15], tapp_points=14), tg.normal(tg.D, 50, took=True),
        tg.normal(tg.A, 20, took=True),
    ], four, NOV_30)
    solo = match("troggu", tg.settings(3), [tg.solo(tg.A, 90, took=True)], four[:3], NOV_30)
    next_day = match("troggu", tg.settings(4), [tg.normal(tg.B, 71, took=True)], four, DEC_1)
    return [ledger, solo, next_day]


def test_troggu_hands_pay_as_the_examples_say() -> None:
    ledger, solo, next_day = troggu_evenings()
    assert get("troggu").score(ledger.settings, ledger.hands).standing.totals == (
        -110, 50, 90, -30)
    assert get("troggu").score(solo.settings, solo.hands).standing.totals == (80, -40, -40)
    assert get("troggu").score(next_day.settings, next_day.hands).standing.totals == (
        -10, 30, -10, -10)


def _kinds(normal: int, solo: int, forced: int = 0, misere: int = 0) -> dict[str, int]:
    out = {"normal": normal, "solo": solo, "forced": forced}
    return out if misere < 0 else {**out, "misere": misere, "thrown_in": 0}


def test_troggu_players_evenings_and_rappen() -> None:
    players = statistics(troggu_evenings())["players"]
    anna = players["Anna"]
    assert (anna["matches"], anna["won"], anna["win_rate"]) == (3, 0, None)   # no winner
    assert (anna["hands"], anna["points"]) == (7, -110 + 80 - 10)
    assert anna["average_hand_score"] == -40 / 7
    troggu: dict[str, Any] = {name: players[name]["games"]["troggu"] for name in players}
    assert troggu["Anna"]["evenings"] == {"2026-11-30": -110 + 80, "2026-12-01": -10}
    assert troggu["Anna"]["rappen"] == {"won": 0, "lost": 40, "balance": -40}
    assert troggu["Beat"]["evenings"] == {"2026-11-30": 50 - 40, "2026-12-01": 30}
    assert troggu["Beat"]["rappen"] == {"won": 40, "lost": 0, "balance": 40}
    assert troggu["Carla"]["evenings"] == {"2026-11-30": 90 - 40, "2026-12-01": -10}
    assert troggu["Carla"]["rappen"] == {"won": 50, "lost": 10, "balance": 40}
    assert troggu["Dario"]["rappen"] == {"won": 0, "lost": 40, "balance": -40}
    assert troggu["Anna"]["played"] == _kinds(4, 2, misere=1)
    assert troggu["Dario"]["played"] == _kinds(4, 1, misere=1)
    assert troggu["Anna"]["declared"] == {"normal": 1, "solo": 1, "forced": 0}
    assert troggu["Anna"]["won_as_declarer"] == {"normal": 0, "solo": 1, "forced": 0}
    assert troggu["Beat"]["declared"] == {"normal": 2, "solo": 0, "forced": 0}
    assert troggu["Beat"]["won_as_declarer"] == {"normal": 2, "solo": 0, "forced": 0}
    assert troggu["Carla"]["won_as_declarer"] == {"normal": 0, "solo": 1, "forced": 0}
    assert troggu["Dario"]["declared"] == {"normal": 1, "solo": 0, "forced": 0}
    assert troggu["Dario"]["won_as_declarer"] == {"normal": 0, "solo": 0, "forced": 0}


def test_troggu_game_figures() -> None:
    stats = statistics(troggu_evenings())
    assert stats["games"]["troggu"] == {
        "matches": 3, "finished": 0, "hands": 7, "by_kind": _kinds(4, 2, misere=1),
        "evenings": 2,
    }
    assert stats["head_to_head"] == [] and stats["partners"] == []


def test_the_date_range_keeps_the_evenings_inside_it() -> None:
    stats = statistics(troggu_evenings(), since=DEC_1)
    assert stats["matches"] == 1 and stats["since"] == "2026-12-01"
    assert stats["players"]["Anna"]["games"]["troggu"]["evenings"] == {"2026-12-01": -10}
    stats = statistics(troggu_evenings(), until=NOV_30)
    assert stats["matches"] == 2 and stats["until"] == "2026-11-30"
    assert stats["players"]["Anna"]["games"]["troggu"]["rappen"]["balance"] == -30


# ---------------------------------------------------------------------------------------------
# All games at once; what cannot be scored


def test_a_player_of_several_games_sums_them_and_keeps_each_game_apart() -> None:
    stats = statistics([*tartli_circle(), *troggu_evenings()])
    anna = stats["players"]["Anna"]
    assert sorted(anna["games"]) == ["tartli", "troggu"]
    assert anna["matches"] == 5 and anna["won"] == 0
    assert anna["win_rate"] == 0.0            # 0 of her 2 Tartli matches; Troggu has no winner
    assert anna["hands"] == 17 and anna["points"] == 1591 - 40
    assert stats["matches"] == 5


def test_a_match_in_progress_counts_as_played_not_won() -> None:
    settings = get("tartli").settings({"players": ["Anna", "Bela"], "target": 5,
                                      "first_dealer": 1})
    hands = [CONTEST, ta.hand("AB")]                     # the second hand is in progress
    stats = statistics([match("tartli", settings, hands, ("Anna", "Bela"))])
    anna = stats["players"]["Anna"]
    assert (anna["matches"], anna["won"], anna["hands"], anna["points"]) == (1, 0, 1, 258)
    assert stats["games"]["tartli"]["finished"] == 0


def test_facts_that_no_longer_score_are_skipped_and_said() -> None:
    good = marjolet_game()
    broken = match("marjolet", mj.settings(), [E1], ("Anne", "Bruno"))
    broken.hands[0]["end"]["brisques"] = [50, 50]         # 100 ≠ 80 (6.3.1)
    stats = statistics([good, broken])
    assert stats["matches"] == 1
    assert [s["game"] for s in stats["skipped"]] == ["marjolet"]
    assert "80" in stats["skipped"][0]["problem"]
    assert stats["skipped"][0]["people"] == ["Anne", "Bruno"]


def test_nothing_played_gives_empty_statistics() -> None:
    assert statistics([]) == {
        "matches": 0, "since": None, "until": None, "players": {}, "games": {},
        "head_to_head": [], "partners": [], "skipped": [],
    }


def test_a_conceded_declaration_is_declared_and_loses_the_contest() -> None:
    """6.1.4: a losing sequence entered only as announced ("a kvart") is still declared."""
    settings = get("tartli").settings({"players": ["Anna", "Bela"], "target": 5,
                                      "first_dealer": 1})
    conceded = ta.hand(ta.E1_WINNERS, {2: (["seq:l/K/4"], ["seq:?/4"])},
                       end=ta.played((88, 63), ta.A))
    players = statistics([match("tartli", settings, [conceded], ("Anna", "Bela"))])["players"]
    anna, bela = players["Anna"]["games"]["tartli"], players["Bela"]["games"]["tartli"]
    assert (anna["sequences"], anna["contests_won"]) == (1, 1)
    assert (bela["sequences"], bela["contests_won"]) == (1, 0)
    assert players["Anna"]["points"] == 50 + 98


def test_an_unknown_game_is_skipped_and_a_seat_without_a_key_is_a_mistake() -> None:
    game = marjolet_game()
    unknown = Played("skat", NOV_30, game.settings, game.hands, game.people)
    stats = statistics([unknown])
    assert stats["matches"] == 0 and stats["players"] == {}
    assert stats["skipped"][0]["game"] == "skat" and "skat" in stats["skipped"][0]["problem"]
    with pytest.raises(ValueError):
        statistics([Played("marjolet", NOV_30, game.settings, game.hands, ("Anne",))])


def test_editing_a_hand_changes_the_statistics_at_once() -> None:
    """Hand 3 of the first Tartli match corrected: Anna, not Bela, made the wrong claim, so
    Bela wins its buli (7.3.4) and the claim is Anna's."""
    first, second = tartli_circle()
    a_claims = ta.hand("ABABAB", end=ta.claim(ta.A, 6, (25, 30)))
    fixed = match("tartli", first.settings, [CONTEST, CONTEST, a_claims, BIG, BIG],
                  first.people)
    before = statistics([first, second])["players"]
    after = statistics([fixed, second])["players"]
    for name, claims, buli in (("Anna", +1, -1), ("Bela", -1, +1)):
        was, now = before[name]["games"]["tartli"], after[name]["games"]["tartli"]
        assert now["claims_wrong"] - was["claims_wrong"] == claims
        assert now["buli"] - was["buli"] == buli
        assert now["points"] == was["points"]        # the same piles, the same hand scores
