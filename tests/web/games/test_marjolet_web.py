"""Marjolet through the Flask test client (CSRF on, real SQLite): a new game under each rule
set, deals with melds picked as cards after won tricks, the exchange, the trump 7 played, the
turned-up seven, finishing a deal, the end of the game (the tie included), editing the past,
the match file and the scoresheet; then bad input, each refused with a visible message, 422
and nothing stored. Every action runs as a whole page and through htmx.

Players Anne (A = 0) and Bruno (B = 1); Bruno deals first, so Anne leads trick 1 of deal 1, as
in the worked examples of shared/rules/marjolet.md, section 9."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from webtools import (
    CSRF_KINDS,
    NAMES2,
    A,
    B,
    Marjolet,
    Page,
    csrf_is_checked,
    import_file,
    mj_deal,
    mj_end,
    mj_trick,
    pdf_text,
    posts_to,
    refused,
    says,
    unchanged,
)

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
RULES = pytest.mark.parametrize("rules", ["default", "traditional"])
HUGE = "9" * 5000            # more digits than Python turns into an int
BIG = "9" * 400              # an int, but too large for a float
FOUR = {r: [f"{r}{s}" for s in "shdc"] for r in ("A", "10", "K", "Q", "J", "9")}

# Deal 1 (Bruno deals, clubs): Anne melds four aces, four kings and four queens after tricks
# 1, 5 and 9 (four tricks apart, so each four can be played off before the next: 4.2.3),
# plays the trump 7 and wins tricks 10 and 16 with 60 in aces and tens: Anne 60 + 240 +
# 10 + 10 + 10 = 330; Bruno 20 + 10 (turn-up) = 30.
SEED_1 = mj_deal("9c", {1: (A, ["four:A"]), 5: (A, ["four:K"]), 9: (A, ["four:Q"])}, seven=A,
                 end=mj_end((60, None), A, A))
# Deal 2 (Anne deals): Bruno four aces and four kings (180), Anne four queens, four jacks and
# the marjolet with the queens of hearts and diamonds (140); Bruno plays the trump 7 and wins
# tricks 10 and 16 with 70: Anne 10 + 10 + 140 = 160, Bruno 70 + 30 + 180 = 280. Totals 490–310.
SEED_2 = mj_deal("9c", {1: (B, ["four:A"]), 5: (B, ["four:K"]), 2: (A, ["four:Q"]),
                        6: (A, ["four:J"]), 7: (A, ["marjolet:h"]), 8: (A, ["marjolet:d"])},
                 seven=B, end=mj_end((None, 70), B, B))
# Deal 3 (Bruno deals) like E9 (a): Anne 40 + 10 (trick 10) = 50; Bruno 40 + 10 + 10 + 10 +
# marriage in hearts 20 = 90: Anne 540, Bruno 400, Anne wins.
DEAL_3A = mj_deal("9c", {4: (B, ["marriage:h"])}, seven=B, end=mj_end((40, None), A, B))
# E1 of section 9, as the web stores it (trick 4 padded, no winner).
E1_TRICKS = [mj_trick(B), mj_trick(A), mj_trick(A, (["four:K", "marriage:h"], [])),
             mj_trick(), mj_trick(A, exchange=A), mj_trick(B, ([], ["marjolet:c"]))]
PLAYED_A = {"player": A, "trick": None}
E1 = {"turnup": "9c", "tricks": E1_TRICKS, "seven_played": None,
      "end": mj_end((50, None), A, B)}


def started(game: Marjolet, deals: list[dict[str, Any]] | None = None, turnup: str = "9c",
            **kw: Any) -> str:
    """A game (seeded with ``deals``) whose next deal is started with ``turnup``."""
    mid = game.seed_game(list(deals or []), **kw)
    n = len(deals or []) + 1
    assert game.turnup(mid, n, turnup).status == 302
    return mid


def so_far(page: Page) -> str:
    verdicts = page.verdicts
    assert len(verdicts) == 1, verdicts
    return verdicts[0]




def match_file(deals: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
    return {
        "format": "referee-match", "version": 1, "game": "marjolet", "created": "2026-03-14",
        "settings": {"players": list(NAMES2), "target": 500, "first_dealer": B,
                     "rules": "default", **settings},
        "hands": deals,
    }


def rules_lines(game: Marjolet, mid: str) -> list[str]:
    from referee.engine.games.marjolet import GAME

    return GAME.rules_in_force(game.export(mid)["settings"])


# ---------------------------------------------------------------------------------------------
# A new game under each rule set


def test_new_game_form_shows_the_rule_sets_and_the_switches(game: Marjolet) -> None:
    page = game.get("/new/marjolet")
    assert page.status == 200
    assert "New Marjolet game" in page.text
    assert page.checked("rules") == ["default"]
    assert page.checked("target") == ["500"]
    assert page.checked("first_dealer") == ["0"]
    assert [i.get("value") for i in page.inputs if i.get("name") == "rules"] == [
        "default", "traditional", "custom"]
    assert [i.get("value") for i in page.inputs if i.get("name") == "target"] == ["500", "1000"]
    boxes = [i.get("name") for i in page.inputs if i.get("type") == "checkbox"]
    assert boxes == ["traditional_melds", "turn_up_seven_10", "no_trick_10_bonus", "sweep_40"]
    for label in ("Traditional melds: four aces 100, four tens 80, four kings 60, four queens "
                  "40, four jacks no meld",
                  "Turn-up seven 10: the dealer's turned-up seven scores 10, not 7",
                  "No trick-10 bonus: winning trick 10 scores nothing",
                  "Sweep 40: a sweep adds 40, not 50",
                  "Traditional (all four switches below on)",
                  "Custom: the switches below as ticked"):
        assert label in page.text, label
    # no switch is ticked in advance
    assert not [i for i in page.inputs if i.get("type") == "checkbox" and "checked" in i]


SWITCHES = ("traditional_melds", "turn_up_seven_10", "no_trick_10_bonus", "sweep_40")


@pytest.mark.parametrize(("rules", "ticked", "target", "on", "lines"), [
    ("default", (), 500, (), [
        "Marjolet for two players, one game to 500 points",
        "Rule set: default (the seed's values)",
        "Traditional melds: off — four aces 100, four kings 80, four queens 60, four jacks 40; "
        "four tens are not a meld",
        "Turn-up seven 10: off — a turned-up seven scores 7 for the dealer",
        "No trick-10 bonus: off — the winner of trick 10 scores 10",
        "Sweep 40: off — winning all of tricks 11–16 adds 50 to the last trick's 10"]),
    ("traditional", (), 500, SWITCHES, [
        "Rule set: traditional (all four variants of section 8)",
        "Traditional melds: on — four aces 100, four tens 80, four kings 60, four queens 40; "
        "four jacks are not a meld",
        "Turn-up seven 10: on — a turned-up seven scores 10 for the dealer",
        "No trick-10 bonus: on — the winner of trick 10 scores nothing for it",
        "Sweep 40: on — winning all of tricks 11–16 adds 40 to the last trick's 10"]),
    ("custom", ("turn_up_seven_10", "sweep_40"), 1000, ("turn_up_seven_10", "sweep_40"), [
        "Marjolet for two players, one game to 1000 points (Target 1000)",
        "Rule set: custom (some variants of section 8)",
        "Traditional melds: off — four aces 100, four kings 80",
        "Turn-up seven 10: on — a turned-up seven scores 10 for the dealer",
        "No trick-10 bonus: off — the winner of trick 10 scores 10",
        "Sweep 40: on — winning all of tricks 11–16 adds 40"]),
    ("custom", (), 500, (), ["Rule set: default (the seed's values)"]),
], ids=["default", "traditional", "custom", "custom-none"])
def test_new_game_under_each_rule_set(game: Marjolet, rules: str, ticked: tuple[str, ...],
                                      target: int, on: tuple[str, ...],
                                      lines: list[str]) -> None:
    mid = game.new_game(target=target, rules=rules, **{s: "y" for s in ticked})
    settings = game.export(mid)["settings"]
    assert settings["players"] == NAMES2
    assert settings["target"] == target and settings["first_dealer"] == B
    assert {s: settings[s] for s in SWITCHES} == {s: s in on for s in SWITCHES}
    page = game.get(f"/m/{mid}")
    assert page.status == 200
    assert "Marjolet: Anne – Bruno" in page.text
    assert game.standings(page) == ((0, 0), (0, 0))
    assert f"Game to {target} in progress · next deal: Bruno" in page.text
    assert "Deal 1 Bruno deals · Anne leads trick 1" in page.text
    text = pdf_text(game.client, mid)
    assert "Rules in force" in text
    for line in lines:
        assert line in text, line
    assert f"Game to {target} points" in text


@pytest.mark.parametrize("rules", ["default", "traditional"])
def test_rules_in_force_on_the_match_page(game: Marjolet, rules: str) -> None:
    mid = game.new_game(rules=rules)
    page = game.get(f"/m/{mid}")
    preset = {"default": "Rule set: default", "traditional": "Rule set: traditional"}[rules]
    assert preset in page.text
    assert ("Sweep 40: on" if rules == "traditional" else "Sweep 40: off") in page.text


def test_a_switch_ticked_under_the_default_rule_set_is_not_lost(game: Marjolet) -> None:
    before = game.match_count()
    page = game.post("/new/marjolet", {"player_a": "Anne", "player_b": "Bruno",
                                       "target": "500", "first_dealer": "1",
                                       "rules": "default", "sweep_40": "y"})
    if page.status == 302:
        mid = (page.location or "").rsplit("/", 1)[1]
        assert game.export(mid)["settings"]["sweep_40"] is True
    else:
        assert page.status == 422
        assert says(page, "custom"), page.errors
        assert game.match_count() == before


@pytest.mark.parametrize(("data", "message"), [
    ({"player_b": "anne"}, "Give the two players different names"),
    ({"player_a": "   "}, "Every player needs a name"),
    ({"player_b": ""}, "This field is required."),
    ({"player_a": "a" * 41}, "Field cannot be longer than 40 characters"),
    ({"target": "700"}, "Not a valid choice"),
    ({"target": HUGE}, "Not a valid choice"),
    ({"first_dealer": "2"}, "Not a valid choice"),
    ({"rules": "house"}, "Not a valid choice"),
    ({"rules": "<b>x</b>"}, "Not a valid choice"),
], ids=["same", "blank", "empty", "long", "target-700", "target-huge", "dealer", "rules",
        "rules-html"])
def test_new_game_refused(game: Marjolet, data: dict[str, str], message: str) -> None:
    form = {"player_a": "Anne", "player_b": "Bruno", "target": "500", "first_dealer": "1",
            "rules": "custom", "sweep_40": "y"}
    form.update(data)
    before = game.match_count()
    page = game.post("/new/marjolet", form)
    assert page.status == 422
    assert page.is_full_page
    assert says(page, message), page.errors
    assert game.match_count() == before
    assert page.value("player_a") == form["player_a"]          # nothing typed is lost
    assert page.value("player_b") == form["player_b"]
    assert [i.get("name") for i in page.inputs if "checked" in i and i.get("type") == "checkbox"] \
        == ["sweep_40"]
    assert "<b>x</b>" not in page.html


# ---------------------------------------------------------------------------------------------
# A deal: the turn-up, melds picked as cards, the exchange


@HTMX
def test_start_a_deal(game: Marjolet, htmx: bool) -> None:
    mid = game.new_game()
    page = game.done(game.turnup(mid, 1, "9c", htmx=htmx), htmx)
    assert re.search(r"Trumps: clubs \(turn-up 9 ?\)", page.text)   # the pack's own marks
    assert '<span class="suit suit-clubs" aria-hidden="true"></span> clubs' in page.html
    assert 'aria-label="Nine of clubs">9<span class="suit suit-clubs"' in page.html
    assert "Deal 1 Bruno deals · Anne leads trick 1" in page.text
    # the Finish first, the turn folded under it (issue 11)
    assert "Finish the deal (after trick 16)" in page.text
    assert "Meld or exchange after a won trick" in page.text
    assert "Undo: Turn-up (deal 1)" in page.text
    assert so_far(page) == "So far: Anne 0 · Bruno 0"
    assert page.checked("turnup-turnup") == ["9c"]
    assert page.value("turn-trick") == "1"
    assert game.hands(mid) == [{"dealer": B, "turnup": "9c", "tricks": [],   # proposed, stored
                                "seven_played": None, "end": None}]


@HTMX
@RULES
def test_e1_melds_picked_after_won_tricks(game: Marjolet, htmx: bool, rules: str) -> None:
    """E1: A melds four kings and the marriage in hearts after trick 3, exchanges after trick
    5; B melds the trump marjolet after trick 6; each value shows at once. A 170, B 90
    (traditional: four kings 60 and no trick-10 bonus: A 140, B 90)."""
    trad = rules == "traditional"
    kings = 60 if trad else 80
    mid = started(game, rules=rules)
    game.done(game.turn(mid, 1, 1, B, htmx=htmx), htmx)
    game.done(game.turn(mid, 1, 2, A, htmx=htmx), htmx)
    page = game.done(game.turn(mid, 1, 3, A, FOUR["K"], htmx=htmx), htmx)
    assert so_far(page) == f"So far: Anne {kings} · Bruno 0"
    assert f"four kings +{kings}" in page.text
    assert f"After trick 3: Anne melds four kings (K♣ K♦ K♥ K♠) +{kings}" in game.explained(page)
    assert page.value("turn-trick") == "4"                     # the next turn is proposed
    assert page.checked("turn-cards") == []                    # the picker is cleared
    page = game.done(game.turn(mid, 1, 3, A, ["Kh", "Qh"], htmx=htmx), htmx)
    assert so_far(page) == f"So far: Anne {kings + 20} · Bruno 0"
    assert "3 Anne’s turn: four kings" in page.text
    assert "the marriage in hearts +20" in page.text
    page = game.done(game.turn(mid, 1, 5, A, exchange=True, htmx=htmx), htmx)
    assert so_far(page) == f"So far: Anne {kings + 30} · Bruno 0"
    assert "5 Anne’s turn: exchanged the trump 7 (+10)." in page.text
    page = game.done(game.turn(mid, 1, 6, B, ["Qc", "Jc"], htmx=htmx), htmx)
    assert so_far(page) == f"So far: Anne {kings + 30} · Bruno 40"
    assert "After trick 6: Bruno melds the marjolet with the trump queen (Q♣ J♣) +40" \
        in game.explained(page)
    assert game.standings(page) == ((0, 0), (0, 0))            # counted at the end of the deal
    page = game.done(game.finish_deal(mid, 1, 50, trick10=A, last=B, htmx=htmx), htmx)
    score = (140, 90) if trad else (170, 90)
    assert game.standings(page) == (score, (0, 0))
    assert f"Anne {score[0]}, Bruno 90" in page.classed["summary"]
    lines = ["After trick 5: Anne exchanges the 7♣ for the turn-up 9♣ +10",
             "Bruno takes the turn-up (7♣) after trick 10 +10",
             "Anne: aces and tens +50", "Bruno: aces and tens (80 − 50) +30",
             "Bruno wins the last trick +10", f"Anne: deal score +{score[0]}",
             "Bruno: deal score +90"]
    for line in lines:
        assert line in game.explained(page), line
    assert ("Anne wins trick 10" in game.explained(page)) is not trad
    assert "Deal 2 Anne deals · Bruno leads trick 1" in page.text
    assert "Undo: Deal finished (deal 1)" in page.text
    assert game.hands(mid) == [{**E1, "dealer": B}]


@HTMX
@RULES
def test_e2_melded_cards_used_again(game: Marjolet, htmx: bool, rules: str) -> None:
    """E2: Qh in the marriage, then in four queens, then with the marjolet; Jd with two queens
    in one turn; the same cards twice are refused; the trump marriage after trick 8 is fine.
    A 180 (traditional 160)."""
    queens = 40 if rules == "traditional" else 60
    mid = started(game, turnup="9d", rules=rules)
    steps = [(2, ["Kh", "Qh"], 20), (4, FOUR["Q"], 20 + queens),
             (6, ["Jd", "Qh"], 40 + queens), (6, ["Jd", "Qd"], 80 + queens)]
    for trick, cards, total in steps:
        page = game.done(game.turn(mid, 1, trick, A, cards, htmx=htmx), htmx)
        assert so_far(page) == f"So far: Anne {total} · Bruno 0"
    assert "After trick 6: Anne melds the marjolet with the queen of hearts (J♦ Q♥) +20" \
        in game.explained(page)
    assert "After trick 6: Anne melds the marjolet with the trump queen (Q♦ J♦) +40" \
        in game.explained(page)
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, 8, A, ["Kh", "Qh"], htmx=htmx),
                   "Deal 1: After trick 8, Anne melds the marriage in hearts (K♥ Q♥) again "
                   "after melding it after trick 2: the same cards score only once per deal "
                   "(rule 4.3.2)")
    assert sorted(page.checked("turn-cards")) == ["Kh", "Qh"]     # kept to correct
    assert page.checked("turn-winner") == ["0"] and page.value("turn-trick") == "8"
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 8, A, FOUR["Q"], htmx=htmx),
            "After trick 8, Anne melds four queens (Q♣ Q♦ Q♥ Q♠) again after melding it "
            "after trick 4: the same cards score only once per deal (rule 4.3.2)")
    page = game.done(game.turn(mid, 1, 8, A, ["Kd", "Qd"], htmx=htmx), htmx)
    assert so_far(page) == f"So far: Anne {120 + queens} · Bruno 0"
    assert [t["melds"][A] for t in game.hands(mid)[0]["tricks"] if t["melds"][A]] == [
        ["marriage:h"], ["four:Q"], ["marjolet:h", "marjolet:d"], ["marriage:d"]]


@HTMX
def test_the_same_meld_twice_in_one_turn(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 2, A, ["Kh", "Qh"]).status == 302
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 2, A, ["Qh", "Kh"], htmx=htmx),
            "After trick 2, Anne melds the marriage in hearts (K♥ Q♥) twice in one turn: the "
            "same cards score only once per deal (rule 4.3.2)")


@HTMX
def test_the_exchange(game: Marjolet, htmx: bool) -> None:
    """E5: A exchanges 7♠ for the turn-up A♠ after trick 4 (+10); B wins trick 10; A takes
    the turn-up, now the 7♠ (+10)."""
    mid = started(game, turnup="As")
    page = game.done(game.turn(mid, 1, 4, A, exchange=True, htmx=htmx), htmx)
    assert so_far(page) == "So far: Anne 10 · Bruno 0"
    assert "4 Anne’s turn: exchanged the trump 7 (+10)." in page.text
    assert "After trick 4: Anne exchanges the 7♠ for the turn-up A♠ +10" in game.explained(page)
    assert game.hands(mid)[0]["tricks"][3] == mj_trick(A, exchange=A)
    page = game.done(game.finish_deal(mid, 1, 40, trick10=B, last=B, htmx=htmx), htmx)
    assert "Anne takes the turn-up (7♠) after trick 10 +10" in game.explained(page)
    assert "Bruno wins trick 10 +10" in game.explained(page)
    # A 40 + 10 + 10, B 40 + 10 + 10
    assert game.standings(page) == ((60, 60), (0, 0))


@HTMX
def test_the_exchange_taken_back_by_saving_the_turn_without_it(game: Marjolet,
                                                               htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 4, A, exchange=True).status == 302
    page = game.done(game.turn(mid, 1, 4, A, htmx=htmx), htmx)
    assert so_far(page) == "So far: Anne 0 · Bruno 0"
    assert game.hands(mid)[0]["tricks"][3]["exchange"] is None


@HTMX
def test_e6_exchange_and_meld_the_card_taken(game: Marjolet, htmx: bool) -> None:
    """E6: A wins trick 10, exchanges 7♦ for K♦ and melds the trump marriage with it: A +60,
    B +10."""
    mid = started(game, turnup="Kd")
    page = game.done(game.turn(mid, 1, 10, A, ["Kd", "Qd"], exchange=True, htmx=htmx), htmx)
    assert so_far(page) == "So far: Anne 60 · Bruno 10"
    for line in ("After trick 10: Anne exchanges the 7♦ for the turn-up K♦ +10",
                 "After trick 10: Anne melds the trump marriage (diamonds) (K♦ Q♦) +40",
                 "Anne wins trick 10 +10", "Bruno takes the turn-up (7♦) after trick 10 +10"):
        assert line in game.explained(page), line
    assert game.hands(mid)[0]["tricks"][9] == mj_trick(A, (["marriage:d"], []), exchange=A)


@HTMX
def test_the_turn_up_cannot_be_melded_without_the_exchange(game: Marjolet, htmx: bool) -> None:
    mid = started(game, turnup="Kd")
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, 4, A, ["Kd", "Qd"], htmx=htmx),
                   "Deal 1: The K♦ is the turn-up: it lies face up and belongs to nobody, so "
                   "Anne cannot meld the trump marriage (diamonds) after trick 4 (only a "
                   "player who exchanges the trump 7 for it can, from that turn on) "
                   "(rule 6.3.7)")
    assert sorted(page.checked("turn-cards")) == ["Kd", "Qd"]


@HTMX
def test_four_tens_under_the_traditional_melds(game: Marjolet, htmx: bool) -> None:
    mid = started(game, rules="traditional")
    page = game.done(game.turn(mid, 1, 2, B, FOUR["10"], htmx=htmx), htmx)
    assert so_far(page) == "So far: Anne 0 · Bruno 80"
    assert "After trick 2: Bruno melds four tens (10♣ 10♦ 10♥ 10♠) +80" in game.explained(page)


@HTMX
def test_remove_a_meld(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    assert game.turn(mid, 1, 3, A, ["Kh", "Qh"]).status == 302
    page = game.get(f"/m/{mid}")
    buttons = re.findall(r'<button[^>]*formaction="[^"]*/unmeld\?[^"]*"[^>]*>', page.html)
    assert len(buttons) == 2                                   # one remove button per meld
    page = game.done(game.unmeld(mid, 1, 3, A, 0, htmx=htmx), htmx)
    assert so_far(page) == "So far: Anne 20 · Bruno 0"
    explained = game.explained(page)
    assert "melds four kings" not in explained and "four:K" not in explained
    assert "Undo: Meld removed (deal 1)" in page.text
    assert game.hands(mid)[0]["tricks"][2]["melds"] == [["marriage:h"], []]
    refused(game, mid, htmx, lambda: game.unmeld(mid, 1, 3, A, 1, htmx=htmx),
            "There is no such meld to remove")
    refused(game, mid, htmx, lambda: game.unmeld(mid, 1, 3, B, 0, htmx=htmx),
            "There is no such meld to remove")
    refused(game, mid, htmx, lambda: game.unmeld(mid, 1, 9, A, 0, htmx=htmx),
            "There is no such meld to remove")


class _Form(HTMLParser):
    """What a browser sends when a button of form ``form_id`` is pressed: the form's controls
    (inside it, or outside with ``form="<id>"``) with their values, and its buttons."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.values: list[tuple[str, str]] = []
        self.buttons: list[dict[str, str]] = []
        self._inside = False
        self._button = False
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._inside = a.get("id") == self.form_id
        mine = self._inside or a.get("form") == self.form_id
        if mine and tag == "button" and a.get("type", "submit") == "submit":
            self.buttons.append(a | {"text": ""})       # in tree order: the first is Enter's
            self._button = True
        if not mine or "name" not in a and tag != "option":
            return
        if tag == "input" and (a.get("type") not in ("radio", "checkbox") or "checked" in a):
            self.values.append((a["name"], a.get("value", "on")))
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select and "selected" in a:
            self.values.append((self._select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._inside = False
        elif tag == "select":
            self._select = None
        elif tag == "button":
            self._button = False

    def handle_data(self, data: str) -> None:
        if self._button:
            self.buttons[-1]["text"] += data


def press(game: Marjolet, page: Page, button: Callable[[dict[str, str]], bool],
          typed: dict[str, str], *, htmx: bool) -> Page:
    """Type ``typed`` into the deal's form and press its first button that ``button`` picks,
    as a browser does: the form's values and the button's own, posted to its formaction
    (with htmx, as htmx sends them: the same values, the token in a header)."""
    form = _Form("deal-form")
    form.feed(page.html)
    pressed = next(b for b in form.buttons if b.get("name") and button(b))
    data: dict[str, list[str]] = {}
    for name, value in form.values:
        if name not in typed and (htmx or not name.endswith("csrf_token")
                                  or name.startswith(pressed["name"].split("-")[0])):
            data.setdefault(name, []).append(value)
    for name, value in [*typed.items(), (pressed["name"], pressed["value"])]:
        data[name] = [value]
    url = (pressed.get("hx-post") if htmx else pressed.get("formaction")) or ""
    return game.post(url.replace("&amp;", "&"), data, htmx=htmx, token=htmx)


@HTMX
def test_removing_a_meld_keeps_what_is_typed_in_the_other_sections(game: Marjolet,
                                                                   htmx: bool) -> None:
    """Issue 11: the remove button is a button of the deal's form, so that with JavaScript or
    without, what is typed in the Finish and not saved yet is shown again after a meld is
    removed (rule 6.1: the table enters the facts in any order)."""
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    assert game.turn(mid, 1, 3, A, ["Kh", "Qh"]).status == 302
    typed = {"finish-brisques": "60", "finish-brisques_player": "1", "finish-trick10": "1",
             "finish-last": "0", "finish-seven": "0", "finish-seven_trick": "12"}
    page = game.done(press(game, game.get(f"/m/{mid}"), lambda b: b.get("value") == "3-0-0",
                           typed, htmx=htmx), htmx)
    assert game.hands(mid)[0]["tricks"][2]["melds"] == [["marriage:h"], []]
    assert so_far(page) == "So far: Anne 20 · Bruno 0"
    assert "Undo: Meld removed (deal 1)" in page.text
    assert page.value("finish-brisques") == "60" and page.checked("finish-brisques_player") \
        == ["1"]
    assert page.checked("finish-trick10") == ["1"] and page.checked("finish-last") == ["0"]
    assert page.checked("finish-seven") == ["0"] and page.value("finish-seven_trick") == "12"
    assert game.hands(mid)[0]["end"] is None              # typed, not saved
    # the one meld left, removed from the page that answer showed: still kept
    page = game.done(press(game, page, lambda b: b.get("value") == "3-0-0", {}, htmx=htmx),
                     htmx)
    assert game.hands(mid)[0]["tricks"][2]["melds"] == [[], []]
    assert so_far(page) == "So far: Anne 0 · Bruno 0"
    assert page.value("finish-brisques") == "60" and page.checked("finish-seven") == ["0"]


def test_the_enter_key_still_scores_the_deal_with_melds_to_remove(game: Marjolet) -> None:
    """A form's default button (the one the Enter key presses) is its first submit button in
    page order: with the remove buttons in the deal's form it stays "Score the deal", never
    a meld's "remove"."""
    mid = started(game)
    assert game.turn(mid, 1, 3, A, ["Kh", "Qh"]).status == 302
    form = _Form("deal-form")
    form.feed(game.get(f"/m/{mid}").html)
    assert [b["text"] for b in form.buttons][:2] == ["Score the deal", "remove"]
    assert "formaction" not in form.buttons[0]


@HTMX
@pytest.mark.parametrize("meld", ["3-0", "3-0-x", "3-2-0", "11-0-0", "", "3-0-5"])
def test_remove_with_a_forged_meld_button(game: Marjolet, htmx: bool, meld: str) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, ["Kh", "Qh"]).status == 302
    with unchanged(game, mid):
        page = game.rejected(game.post(f"/m/{mid}/hands/1/unmeld", {"unmeld-meld": meld},
                                       htmx=htmx, prefix="unmeld"), htmx)
    assert page.visible_errors, page.html[:500]


# ---------------------------------------------------------------------------------------------
# The trump 7, finishing a deal


@HTMX
def test_e4_the_trump_7_played(game: Marjolet, htmx: bool) -> None:
    """E4: A plays the 7♥, never exchanged, to trick 12 and loses it: +10 anyway."""
    mid = started(game, turnup="9h")
    page = game.done(game.seven(mid, 1, A, 12, htmx=htmx), htmx)
    assert so_far(page) == "So far: Anne 10 · Bruno 0"
    assert "Anne plays the 7♥ to trick 12, never exchanged +10" in game.explained(page)
    # asked in the Finish itself (issue 11): shown there as recorded
    assert page.checked("finish-seven") == ["0"] and page.value("finish-seven_trick") == "12"
    assert game.hands(mid)[0]["seven_played"] == {"player": A, "trick": 12}
    page = game.done(game.seven(mid, 1, B, htmx=htmx), htmx)
    assert "Bruno plays the 7♥ to a trick, never exchanged +10" in game.explained(page)
    page = game.done(game.seven(mid, 1, None, htmx=htmx), htmx)      # corrected: nobody
    assert so_far(page) == "So far: Anne 0 · Bruno 0"
    assert game.hands(mid)[0]["seven_played"] is None


@HTMX
@RULES
def test_e3_the_turn_up_seven_scores_for_the_dealer(game: Marjolet, htmx: bool,
                                                    rules: str) -> None:
    """E3: B deals and turns up 7♠ (+7; traditional +10); A wins tricks 10 and 16; 40 each.
    A 60, B 57 (traditional A 50, B 60). Bruno's aces and tens are entered, Anne's derived."""
    trad = rules == "traditional"
    seven = 10 if trad else 7
    mid = game.new_game(rules=rules)
    page = game.done(game.turnup(mid, 1, "7s", htmx=htmx), htmx)
    assert so_far(page) == f"So far: Anne 0 · Bruno {seven}"
    assert f"The turn-up is the 7♠: Bruno, the dealer, scores it +{seven}" in game.explained(page)
    page = game.done(game.finish_deal(mid, 1, 40, player=B, trick10=A, last=A, htmx=htmx),
                     htmx)
    assert game.standings(page) == (((50, 60) if trad else (60, 57)), (0, 0))
    assert "Anne: aces and tens (80 − 40) +40" in game.explained(page)
    assert "Bruno takes the turn-up (7♠) after trick 10 +10" in game.explained(page)
    assert "plays the 7♠" not in game.explained(page)
    assert game.hands(mid)[0]["end"] == mj_end((None, 40), A, A)


@HTMX
@RULES
def test_e7_sweep(game: Marjolet, htmx: bool, rules: str) -> None:
    """E7: B wins trick 10, A takes 8♥, B plays 7♥ never exchanged, A wins tricks 11–16.
    A 130, B 40 (traditional A 120, B 30)."""
    trad = rules == "traditional"
    mid = started(game, turnup="8h", rules=rules)
    game.done(game.seven(mid, 1, B, htmx=htmx), htmx)
    page = game.done(game.finish_deal(mid, 1, 60, trick10=B, last=A, sweep=A, htmx=htmx), htmx)
    assert game.standings(page) == (((120, 30) if trad else (130, 40)), (0, 0))
    assert f"Anne wins all of tricks 11–16: sweep, on top of the last trick +{40 if trad else 50}" \
        in game.explained(page)
    assert "Anne wins the last trick +10" in game.explained(page)
    assert "Anne takes the turn-up (8♥) after trick 10 +10" in game.explained(page)
    assert game.hands(mid)[0]["end"] == mj_end((60, None), B, A, A)


@HTMX
def test_finish_needs_the_trump_7(game: Marjolet, htmx: bool) -> None:
    mid = started(game, turnup="8h")
    page = refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 60, trick10=B, last=A,
                                                             htmx=htmx),
                   "Deal 1: Record what happened to the trump 7 (7♥): exchanged for the "
                   "turn-up after a trick, or played to a trick without exchange, and by whom "
                   "(rule 6.3.8)")
    assert page.value("finish-brisques") == "60"                 # kept to correct
    assert page.checked("finish-trick10") == ["1"] and page.checked("finish-last") == ["0"]


@HTMX
def test_the_finish_asks_who_played_the_trump_7(game: Marjolet, htmx: bool) -> None:
    """Issue 11: the fate of the trump 7 (rule 6.1.5) is asked in the Finish itself, so an
    ordinary deal is scored in one post: E4's trump 7 played by Anne, never exchanged."""
    mid = started(game, turnup="9h")
    page = game.get(f"/m/{mid}")
    assert [i.get("value") for i in page.inputs if i.get("name") == "finish-seven"] == ["0", "1"]
    assert page.checked("finish-seven") == []          # never guessed: it changes the score
    page = game.done(game.finish_deal(mid, 1, 50, trick10=A, last=B, seven=A, htmx=htmx), htmx)
    assert game.standings(page) == ((70, 50), (0, 0))
    assert "Anne plays the 7♥ to a trick, never exchanged +10" in game.explained(page)
    assert game.hands(mid)[0]["seven_played"] == {"player": A, "trick": None}
    assert game.get(f"/m/{mid}/hands/1").checked("finish-seven") == ["0"]


@HTMX
def test_the_finish_asks_nothing_when_the_seven_is_turned_up(game: Marjolet, htmx: bool) -> None:
    mid = started(game, turnup="7s")
    page = game.get(f"/m/{mid}", htmx=htmx)
    assert "The trump 7 is the turn-up: Bruno, the dealer, scores it." in page.text
    assert not any(i.get("name") == "finish-seven" for i in page.inputs)


@HTMX
def test_the_finish_proposes_a_recorded_exchange(game: Marjolet, htmx: bool) -> None:
    """An exchange recorded in a turn answers the Finish's question, pre-selected and shown
    (never hidden): "nobody" played it for a bonus (rule 4.4.3)."""
    mid = started(game)
    page = game.done(game.turn(mid, 1, 4, B, exchange=True, htmx=htmx), htmx)
    assert [i.get("value") for i in page.inputs if i.get("name") == "finish-seven"] == [
        "0", "1", "exchanged"]
    assert page.checked("finish-seven") == ["exchanged"]
    assert "nobody: Bruno exchanged it after trick 4" in page.text
    page = game.done(game.finish_deal(mid, 1, 50, trick10=A, last=B, seven="exchanged",
                                      htmx=htmx), htmx)
    # Anne 50 + 10 (trick 10); Bruno 30 + 10 (exchange) + 10 (turn-up) + 10 (last trick)
    assert game.standings(page) == ((60, 60), (0, 0))
    assert game.hands(mid)[0]["seven_played"] is None


@HTMX
def test_exchanged_without_a_recorded_exchange(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    page = refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 50, seven="exchanged",
                                                             htmx=htmx),
                   "Record the exchange of the trump 7 in the turn it was made: after which "
                   "trick, and by whom (rule 6.1.4)")
    assert page.value("finish-brisques") == "50"
    assert game.hands(mid)[0]["end"] is None


@HTMX
def test_values_typed_in_another_section_are_kept(game: Marjolet, htmx: bool) -> None:
    """Issue 11: the editor's sections are one form. Saving a turn keeps what was typed in
    the Finish and not yet saved (with htmx in the answer; without JavaScript in the page the
    redirect leads to), and so does a refused turn; the next deal starts afresh."""
    mid = started(game)
    finish = {"finish-brisques_player": "1", "finish-brisques": "60", "finish-trick10": "1",
              "finish-last": "0", "finish-sweep": "", "finish-seven": "0",
              "finish-seven_trick": "12", "winners-w_1": "1"}
    turn = {"turn-trick": "3", "turn-winner": "0", "turn-cards": ["Kh", "Qh"]}
    page = game.done(game.post(f"/m/{mid}/hands/1/turn", turn | finish, htmx=htmx,
                               prefix="turn"), htmx)
    assert so_far(page) == "So far: Anne 20 · Bruno 0"
    assert page.value("finish-brisques") == "60" and page.checked("finish-brisques_player") \
        == ["1"]
    assert page.checked("finish-trick10") == ["1"] and page.checked("finish-last") == ["0"]
    assert page.checked("finish-seven") == ["0"] and page.value("finish-seven_trick") == "12"
    assert page.selected("winners-w_1") == ["1"]
    assert page.value("turn-trick") == "4" and page.checked("turn-cards") == []   # saved: afresh
    assert game.hands(mid)[0]["end"] is None and game.hands(mid)[0]["seven_played"] is None
    # a meld removed: the remove button sends the editor's values along (htmx's hx-include)
    unmeld = {"unmeld-trick": "3", "unmeld-player": "0", "unmeld-index": "0"}
    page = game.done(game.post(f"/m/{mid}/hands/1/unmeld", unmeld | finish, htmx=htmx,
                               prefix="unmeld"), htmx)
    assert so_far(page) == "So far: Anne 0 · Bruno 0"
    assert page.value("finish-brisques") == "60" and page.checked("finish-seven") == ["0"]
    # refused (no winner): both the turn and the Finish keep what was typed
    page = game.rejected(game.post(f"/m/{mid}/hands/1/turn", {"turn-trick": "5"} | finish,
                                   htmx=htmx, prefix="turn"), htmx)
    assert page.value("turn-trick") == "5" and page.value("finish-brisques") == "60"
    # the Finish saved: the next deal's editor shows nothing of it
    page = game.done(game.post(f"/m/{mid}/hands/1/finish", finish, htmx=htmx, prefix="finish"),
                     htmx)
    assert "Deal 2" in page.text
    assert game.hands(mid)[0]["seven_played"] == {"player": A, "trick": 12}
    page = game.done(game.turnup(mid, 2, "9c", htmx=htmx), htmx)
    assert page.value("finish-brisques") in (None, "") and page.checked("finish-seven") == []


def test_unsaved_values_in_the_session_stay_small(game: Marjolet) -> None:
    """Without JavaScript the unsaved values wait in the session cookie for the page the
    redirect leads to: only the editor's fields, only values as short as its own, so that a
    browser never drops the cookie (past 4 kB) with the notices and the CSRF token in it."""
    mid = started(game)
    data = {"turn-trick": "3", "turn-winner": "0", "turn-cards": ["Kh", "Qh"],
            "finish-brisques": "6" * 5000, "finish-last": "1", "stranger": "x"}
    page = game.done(game.post(f"/m/{mid}/hands/1/turn", data, prefix="turn"), False)
    assert so_far(page) == "So far: Anne 20 · Bruno 0"
    assert page.checked("finish-last") == ["1"] and page.value("finish-brisques") in (None, "")
    with game.client.session_transaction() as session:
        assert "marjolet-unsaved" not in session                 # taken by that page


def test_edit_page_shows_the_stored_deal(game: Marjolet) -> None:
    mid = game.seed_game([SEED_1, E1 | {"end": mj_end((None, 30), A, B, None)}])
    page = game.get(f"/m/{mid}/hands/1")
    assert page.status == 200
    assert "Editing deal 1" in page.text
    assert "Deal 1 Bruno deals · Anne leads trick 1" not in page.text
    assert page.checked("turnup-turnup") == ["9c"]
    assert page.value("finish-brisques") == "60"
    assert page.checked("finish-brisques_player") == ["0"]
    assert page.checked("finish-trick10") == ["0"] and page.checked("finish-last") == ["0"]
    assert page.selected("finish-sweep") == [""]
    assert page.checked("finish-seven") == ["0"]            # asked in the Finish (issue 11)
    assert posts_to(page, f"/m/{mid}/hands/1/finish", editing=True)
    part = game.get(f"/m/{mid}/hands/2", htmx=True)
    assert part.is_partial and "Editing deal 2" in part.text
    assert part.value("finish-brisques") == "30"
    assert part.checked("finish-brisques_player") == ["1"]
    assert part.checked("finish-seven") == ["exchanged"]
    assert "nobody: Anne exchanged it after trick 5" in part.text
    assert "5 Anne’s turn: exchanged the trump 7 (+10)." in part.text


# ---------------------------------------------------------------------------------------------
# The winners of every trick (optional, for stricter checks)

E1_WINNERS = "BAABABBABA ABAABB"


@HTMX
def test_e1_with_the_winners_of_every_trick(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    assert game.turn(mid, 1, 3, A, ["Kh", "Qh"]).status == 302
    page = game.done(game.winners(mid, 1, E1_WINNERS, htmx=htmx), htmx)
    # the winner of trick 10 is known now: Anne +10, Bruno +10 for the turn-up
    assert so_far(page) == "So far: Anne 110 · Bruno 10"
    assert page.selected("winners-w_1") == ["1"] and page.selected("winners-w_16") == ["1"]
    assert "Undo: Trick winners (deal 1)" in page.text
    # the Finish proposes the winners of tricks 10 and 16 as recorded (issue 11)
    assert page.checked("finish-trick10") == ["0"] and page.checked("finish-last") == ["1"]
    winners = [t["winner"] for t in game.hands(mid)[0]["tricks"]]
    assert winners == [{"A": A, "B": B}[w] for w in E1_WINNERS.replace(" ", "")]
    assert game.turn(mid, 1, 5, A, exchange=True).status == 302
    assert game.turn(mid, 1, 6, B, ["Jc", "Qc"]).status == 302
    page = game.done(game.finish_deal(mid, 1, 50, trick10=A, last=B, htmx=htmx), htmx)
    assert game.standings(page) == ((170, 90), (0, 0))


@HTMX
def test_winners_against_a_meld(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    page = refused(game, mid, htmx,
                   lambda: game.winners(mid, 1, "BAB" + E1_WINNERS[3:], htmx=htmx),
                   "Deal 1: Anne cannot meld after trick 3: the trick record gives it to "
                   "Bruno, and only the winner of a trick melds or exchanges, in the turn after "
                   "it (rule 4.2.1)")
    assert page.selected("winners-w_3") == ["1"]                 # kept to correct


@HTMX
def test_e10_a_meld_by_the_recorded_loser_of_the_trick(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.winners(mid, 1, E1_WINNERS).status == 302         # Anne won trick 5
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 5, B, ["Jc", "Qc"], htmx=htmx),
            "Bruno cannot meld after trick 5")


@HTMX
def test_the_sweep_is_derived_from_the_winners(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.seven(mid, 1, A).status == 302
    assert game.winners(mid, 1, "BBBBBBBBBA AAAAAA").status == 302
    refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 50, trick10=A, last=A,
                                                      htmx=htmx),
            "Deal 1: Anne won all of tricks 11–16: that is a sweep; record it (rule 6.3.2)")
    refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 50, trick10=B, last=A, sweep=A,
                                                      htmx=htmx),
            "Deal 1: Trick 10 cannot have two winners: Bruno is entered as the winner of "
            "trick 10, but the trick record gives it to Anne (rule 6.3.2)")
    page = game.done(game.finish_deal(mid, 1, 50, trick10=A, last=A, sweep=A, htmx=htmx), htmx)
    # Anne 50 + 10 (trump 7) + 10 (trick 10) + 10 (last) + 50; Bruno 30 + 10 (turn-up)
    assert game.standings(page) == ((130, 40), (0, 0))


@HTMX
def test_aces_and_tens_against_the_winners(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.seven(mid, 1, A).status == 302
    assert game.winners(mid, 1, "BBB" + "A" * 13).status == 302
    refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 10, trick10=A, last=A, sweep=A,
                                                      htmx=htmx),
            "Deal 1: Anne cannot have 10 in aces and tens: 13 tricks hold 20 to 80 "
            "(rule 6.3.1)")


@HTMX
@pytest.mark.parametrize("value", ["2", "-1", "<b>x</b>", "A"])
def test_forged_trick_winner(game: Marjolet, htmx: bool, value: str) -> None:
    mid = started(game)
    page = refused(game, mid, htmx,
                   lambda: game.post(f"/m/{mid}/hands/1/winners", {"winners-w_3": value},
                                     htmx=htmx, prefix="winners"),
                   "Not a valid choice")
    assert "<b>x</b>" not in page.html


# ---------------------------------------------------------------------------------------------
# The end of the game (E9)


@HTMX
def test_e9a_one_player_reaches_500(game: Marjolet, htmx: bool) -> None:
    mid = started(game, [SEED_1, SEED_2])
    assert game.standings(game.get(f"/m/{mid}")) == ((490, 310), (0, 0))
    game.done(game.turn(mid, 3, 4, B, ["Kh", "Qh"], htmx=htmx), htmx)
    game.done(game.seven(mid, 3, B, htmx=htmx), htmx)
    page = game.done(game.finish_deal(mid, 3, 40, trick10=A, last=B, htmx=htmx), htmx)
    assert game.standings(page) == ((540, 400), (1, 0))
    assert "Game over: Anne wins 540–400" in page.text
    assert "Anne wins the game 540–400" in page.classed["summary"]
    assert "Anne reaches 540 (≥ 500): Anne wins the game" in page.text
    assert "Match score now Anne 1, Bruno 0 (was Anne 0, Bruno 0)." in page.notices
    assert "Start deal 4" not in page.text and "next deal" not in page.text
    assert game.hands(mid)[2] == {**DEAL_3A, "dealer": B}
    refused(game, mid, htmx, lambda: game.turnup(mid, 4, "9h", htmx=htmx),
            "Deal 4: The game is over: Anne won it with 540 (rule 7.3)")


@HTMX
def test_e9b_both_over_500_the_higher_total_wins(game: Marjolet, htmx: bool) -> None:
    """490–310; deal A 50, B 250 (four aces, four queens, the marriage in hearts): 540–560."""
    mid = started(game, [SEED_1, SEED_2])
    for trick, cards in ((1, FOUR["A"]), (5, FOUR["Q"]), (9, ["Kh", "Qh"])):
        game.done(game.turn(mid, 3, trick, B, cards, htmx=htmx), htmx)
    game.done(game.seven(mid, 3, B, htmx=htmx), htmx)
    page = game.done(game.finish_deal(mid, 3, 40, trick10=A, last=B, htmx=htmx), htmx)
    assert game.standings(page) == ((540, 560), (0, 1))
    assert "Game over: Bruno wins 560–540" in page.text
    assert "both at 500 or more: Bruno's 560 beats 540: Bruno wins the game" in page.text


@HTMX
def test_e9c_equal_totals_over_500_play_another_deal(game: Marjolet, htmx: bool) -> None:
    """490–310; deal A 50, B 230 (four aces, four queens): both 540, another deal with the
    totals kept; then A 50, B 70: 590–610, B wins."""
    mid = started(game, [SEED_1, SEED_2])
    for trick, cards in ((1, FOUR["A"]), (5, FOUR["Q"])):
        game.done(game.turn(mid, 3, trick, B, cards, htmx=htmx), htmx)
    game.done(game.seven(mid, 3, B, htmx=htmx), htmx)
    page = game.done(game.finish_deal(mid, 3, 40, trick10=A, last=B, htmx=htmx), htmx)
    assert game.standings(page) == ((540, 540), (0, 0))
    assert ("Both at 540: another deal with the totals kept, then the same rule again"
            in page.classed["phase"][0])
    assert "both at 540: another deal, totals kept" in page.classed["summary"]
    assert ("Both totals are 540, at 500 or more and equal: another deal is played with the "
            "totals kept") in game.explained(page)
    assert "Deal 4 Anne deals · Bruno leads trick 1" in page.text
    game.done(game.turnup(mid, 4, "9s", htmx=htmx), htmx)
    game.done(game.seven(mid, 4, B, htmx=htmx), htmx)
    page = game.done(game.finish_deal(mid, 4, 40, trick10=A, last=B, htmx=htmx), htmx)
    assert game.standings(page) == ((590, 610), (0, 1))
    assert "Game over: Bruno wins 610–590" in page.text


def test_target_1000_goes_on_past_500(game: Marjolet) -> None:
    mid = game.seed_game([SEED_1, SEED_2, DEAL_3A], target=1000)
    page = game.get(f"/m/{mid}")
    assert game.standings(page) == ((540, 400), (0, 0))
    assert "Game to 1000 in progress · next deal: Anne" in page.text
    assert "Deal 4 Anne deals" in page.text


# ---------------------------------------------------------------------------------------------
# Editing an earlier deal


@HTMX
def test_edit_an_earlier_deal_recomputes_everything_after(game: Marjolet, htmx: bool) -> None:
    """Anne's four aces taken out of deal 1: deal 2 ends at 390–310 and deal 3 no longer ends
    the game (440–400)."""
    mid = game.seed_game([SEED_1, SEED_2, DEAL_3A])
    assert game.standings(game.get(f"/m/{mid}")) == ((540, 400), (1, 0))
    response = game.unmeld(mid, 1, 1, A, 0, htmx=htmx, editing=True)
    if not htmx:
        assert response.location == f"/m/{mid}/hands/1#outcome"      # the notices, in view
    page = game.done(response, htmx)
    assert "Editing deal 1" in page.text
    notices = page.notices
    assert "Deal 2 now: Anne 390, Bruno 310 (was: Anne 490, Bruno 310)." in notices, notices
    assert ("Deal 3 now: Anne 440, Bruno 400 (was: Anne wins the game 540–400).") in notices
    assert "Match score now Anne 0, Bruno 0 (was Anne 1, Bruno 0)." in notices
    assert game.standings(page) == ((440, 400), (0, 0))
    hands = game.hands(mid)
    assert hands[0]["tricks"][0]["melds"] == [[], []]
    assert hands[2] == {**DEAL_3A, "dealer": B}
    assert not [n for n in game.get(f"/m/{mid}").notices if "now" in n]   # shown once
    assert "Deal 4 Anne deals" in game.get(f"/m/{mid}").text            # the game goes on


@HTMX
def test_edit_a_finish_then_a_meld_that_ends_the_game_earlier(game: Marjolet,
                                                              htmx: bool) -> None:
    mid = game.seed_game([SEED_1, SEED_2])
    page = game.done(game.finish_deal(mid, 1, 50, trick10=A, last=A, htmx=htmx, editing=True),
                     htmx)
    assert "Deal 2 now: Anne 480, Bruno 320 (was: Anne 490, Bruno 310)." in page.notices
    assert game.hands(mid)[0]["end"] == mj_end((50, None), A, A)
    assert game.hands(mid)[0]["seven_played"] == PLAYED_A        # the rest of the deal kept
    assert game.standings(game.get(f"/m/{mid}")) == ((480, 320), (0, 0))
    # Anne's trump marriage, forgotten after trick 9 of deal 1: 520–320 after deal 2
    page = game.done(game.turn(mid, 1, 9, A, ["Kc", "Qc"], htmx=htmx, editing=True), htmx)
    assert ("Deal 2 now: Anne wins the game 520–320 (was: Anne 480, Bruno 320)."
            in page.notices), page.notices
    assert "Match score now Anne 1, Bruno 0 (was Anne 0, Bruno 0)." in page.notices
    assert game.standings(page) == ((520, 320), (1, 0))
    assert "Game over: Anne wins 520–320" in page.text


@HTMX
def test_edit_that_breaks_a_later_rule_is_refused(game: Marjolet, htmx: bool) -> None:
    """Deal 3 ends the game; an edit of deal 1 that makes deal 2 end it leaves deal 3 after
    the end: refused, the entry kept."""
    mid = game.seed_game([SEED_1, SEED_2, DEAL_3A])
    page = refused(game, mid, htmx,
                   lambda: game.turn(mid, 1, 9, A, ["Kc", "Qc"], htmx=htmx, editing=True),
                   "Deal 3: The game is over: Anne won it with 530 (rule 7.3)")
    assert "Editing deal 1" in page.text
    assert sorted(page.checked("turn-cards")) == ["Kc", "Qc"]


@HTMX
def test_changing_the_turn_up_does_not_change_the_melded_cards(game: Marjolet,
                                                              htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 6, B, ["Jc", "Qc"]).status == 302
    with unchanged(game, mid):
        page = game.rejected(game.turnup(mid, 1, "9h", htmx=htmx), htmx)
    assert page.visible_errors


# ---------------------------------------------------------------------------------------------
# The match file and the scoresheet


def test_json_export_import_round_trip(game: Marjolet) -> None:
    deals = [E1, mj_deal("9c", {1: (A, ["four:A"])}, seven=A, end=mj_end((60, None), A, A)),
             mj_deal("7h", {2: (A, ["four:10"])}, end=mj_end((30, 50), B, B)),
             mj_deal("Kd", {10: (A, ["marriage:d"])}, exchange=(10, A))]
    mid = game.seed_game(deals, rules="traditional")
    response = game.client.get(f"/m/{mid}/match.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert 'filename="marjolet-' in response.headers["Content-Disposition"]
    body = response.get_data()
    exported = json.loads(body)
    assert exported["game"] == "marjolet"
    assert exported["hands"] == deals                    # as stored: before dealers were recorded
    assert exported["settings"]["rules"] == "traditional"
    assert exported["settings"]["sweep_40"] is True
    before = game.match_count()
    page = import_file(game, body)
    assert page.status == 302, page.errors
    assert game.match_count() == before + 1
    new = page.location.rsplit("/", 1)[1] if page.location else ""
    assert new and new != mid
    shown = game.follow(page)
    assert "Match imported." in shown.notices
    # imported, each deal is stored with the dealer it was read with (6.1.1)
    assert game.export(new) == {**exported, "hands": [
        {**deal, "dealer": (B + n) % 2} for n, deal in enumerate(deals)]}
    assert game.standings(shown) == game.standings(game.get(f"/m/{mid}"))
    assert "Deal 4 Anne deals" in shown.text
    assert so_far(shown) == "So far: Anne 50 · Bruno 10"          # no trick-10 bonus


def test_pdf_scoresheet_default(game: Marjolet) -> None:
    mid = game.seed_game([E1, SEED_2, mj_deal("7s")])
    text = pdf_text(game.client, mid, explained=True)
    assert "Marjolet scoresheet" in text
    assert "Players Anne – Bruno" in text
    assert "Game to 500 points" in text and "First dealer Bruno" in text
    for line in rules_lines(game, mid):
        assert line in text, line
    assert "Rule set: default (the seed's values)" in text
    # the melds in the table and in the explanations
    assert "four kings 80 the marriage in hearts 20" in text
    assert "the marjolet with the trump queen 40" in text
    assert "After trick 3: Anne melds four kings (K♣ K♦ K♥ K♠) 80 §4.1" in text
    assert "After trick 5: Anne exchanges the 7♣ for the turn-up 9♣ 10 §4.4.1" in text
    assert "After trick 6: Bruno melds the marjolet with the trump queen (Q♣ J♣) 40 §4.1" in text
    assert "Deal 1 — Anne 170, Bruno 90" in text
    assert "Deal 2 — Anne 330, Bruno 370" in text
    assert "Game to 500 in progress. Totals: Anne 330, Bruno 370." in text
    assert "Deal 3 is still in progress and not scored." in text


def test_pdf_scoresheet_traditional(game: Marjolet) -> None:
    mid = game.seed_game([E1, SEED_1 | {"tricks": [mj_trick(A, (["four:10"], []))]}],
                         rules="traditional")
    text = pdf_text(game.client, mid, explained=True)
    assert "Rule set: traditional (all four variants of section 8)" in text
    assert "Traditional melds: on — four aces 100, four tens 80, four kings 60" in text
    assert "four kings 60 the marriage in hearts 20" in text
    assert "four tens 80" in text
    assert "Deal 1 — Anne 140, Bruno 90" in text
    assert "Anne wins trick 10" not in text


# ---------------------------------------------------------------------------------------------
# Bad input: melds


@HTMX
def test_a_meld_by_the_loser_of_the_trick(game: Marjolet, htmx: bool) -> None:
    """E10: A melded after trick 3, so he won it; B's meld after trick 3 is refused."""
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, 3, B, ["Jc", "Qc"], htmx=htmx),
                   "cannot meld after trick 3", "only the winner of a trick melds or "
                   "exchanges, in the turn after it (rule 4.2.1)")
    assert sorted(page.checked("turn-cards")) == ["Jc", "Qc"]
    assert page.checked("turn-winner") == ["1"]


def test_a_meld_by_the_loser_names_the_loser(game: Marjolet) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    page = game.turn(mid, 1, 3, B, ["Jc", "Qc"])
    assert says(page, "Bruno cannot meld after trick 3"), page.errors


@HTMX
def test_a_meld_by_the_loser_of_trick_10(game: Marjolet, htmx: bool) -> None:
    """Anne is entered as the winner of trick 10 (deal 1 finished); Bruno's four jacks after
    trick 10 make him its winner too: refused (the message speaks of the trick's winners, as the
    turn form records the melder as the winner)."""
    mid = game.seed_game([SEED_1])
    refused(game, mid, htmx,
            lambda: game.turn(mid, 1, 10, B, FOUR["J"], htmx=htmx, editing=True),
            "Deal 1: Trick 10 cannot have two winners: Anne is entered as the winner of "
            "trick 10, but the trick record gives it to Bruno (rule 6.3.2)")


@HTMX
@pytest.mark.parametrize("trick", ["11", "16", "0", "-3"])
def test_a_meld_after_trick_10(game: Marjolet, htmx: bool, trick: str) -> None:
    mid = started(game)
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, trick, A, ["Kh", "Qh"],
                                                      htmx=htmx),
                   "Melds only after tricks 1–10 (rule 4.2.1)")
    assert page.value("turn-trick") == trick


@HTMX
def test_four_aces_and_four_kings_in_one_turn(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["A"]).status == 302
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 3, A, FOUR["K"], htmx=htmx),
            "Deal 1: After trick 3, Anne's melds use 8 different cards, but a player holds "
            "only 5 in a turn (rule 4.2.3)")
    # all eight picked as one meld
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 4, A, FOUR["A"] + FOUR["K"], htmx=htmx),
            "A♣ K♣ A♦ K♦ A♥ K♥ A♠ K♠ is not a meld")


@HTMX
def test_e10_a_king_of_the_other_players_four_kings(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 7, B, ["Ks", "Qs"], htmx=htmx),
            "Deal 1: The K♠ is shown by both players (Anne: four kings after trick 3; Bruno: "
            "the marriage in spades after trick 7): cards never pass between the players "
            "(rule 6.3.7)")


@HTMX
def test_both_players_meld_four_aces(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 2, A, FOUR["A"]).status == 302
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 5, B, FOUR["A"], htmx=htmx),
            "Deal 1: After trick 5, Bruno melds four aces (A♣ A♦ A♥ A♠), which Anne melded "
            "after trick 2: the same cards score only once per deal, and cards never pass "
            "between the players (rule 4.3.2)")


@HTMX
@pytest.mark.parametrize(("rules", "rank", "words"), [
    ("default", "10", "Four tens are not a meld under the default melds (four tens score 80 "
                      "only with the traditional melds) (rule 6.3.4)"),
    ("traditional", "J", "Four jacks are not a meld under the traditional melds (four jacks "
                         "score only with the default melds) (rule 6.3.4)"),
    ("default", "9", "Four nines are not a meld: no meld contains a 9, 8 or 7 (rule 4.1)"),
])
def test_four_of_a_rank_not_in_the_rule_set(game: Marjolet, htmx: bool, rules: str,
                                            rank: str, words: str) -> None:
    mid = started(game, rules=rules)
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, 2, A, FOUR[rank], htmx=htmx),
                   words)
    assert sorted(page.checked("turn-cards")) == sorted(FOUR[rank])


@HTMX
@pytest.mark.parametrize(("cards", "words"), [
    (["Kh", "Qd"], "Q♦ K♥ is not a meld: a meld is four aces, tens, kings, queens or jacks, a "
                   "king and queen of one suit, or the jack of trumps with a queen (rule 4.1)"),
    (["Jh", "Qd"], "Q♦ J♥ is not a meld: the marjolet is the jack of trumps (J♣), not J♥ "
                   "(rule 6.3.4)"),
    (["Ah"], "A♥ is not a meld"),
    (["Zz"], "'Zz' is not a valid choice for this field."),
    (["<b>x</b>"], "is not a valid choice for this field."),
], ids=["mixed", "wrong-jack", "one-card", "forged", "html"])
def test_cards_that_are_no_meld(game: Marjolet, htmx: bool, cards: list[str],
                                words: str) -> None:
    mid = started(game)
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, 2, A, cards, htmx=htmx), words)
    assert "<b>x</b>" not in page.html


@HTMX
@pytest.mark.parametrize(("winner", "words"), [
    (None, "Who won the trick? (rule 4.2.1)"),
    ("2", "Not a valid choice"),
    ("<i>x</i>", "Not a valid choice"),
])
def test_a_turn_without_a_winner(game: Marjolet, htmx: bool, winner: str | None,
                                 words: str) -> None:
    mid = started(game)
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, 2, winner, ["Kh", "Qh"],
                                                      htmx=htmx), words)
    assert sorted(page.checked("turn-cards")) == ["Kh", "Qh"]
    assert "<i>x</i>" not in page.html


# ---------------------------------------------------------------------------------------------
# Bad input: the trump 7


@HTMX
def test_an_exchange_when_the_turn_up_is_the_seven(game: Marjolet, htmx: bool) -> None:
    mid = started(game, turnup="7c")
    page = refused(game, mid, htmx, lambda: game.turn(mid, 1, 2, A, exchange=True, htmx=htmx),
                   "Deal 1: The turn-up is the 7♣ itself: there is no trump 7 to exchange for "
                   "it (rule 4.4.1)")
    assert any(i.get("name") == "turn-exchange" and "checked" in i for i in page.inputs)
    refused(game, mid, htmx, lambda: game.seven(mid, 1, A, htmx=htmx),
            "Deal 1: The turn-up is the 7♣: it scores for the dealer, never when it is played "
            "(rule 6.3.9)")


@HTMX
def test_a_turn_up_changed_to_the_seven_after_an_exchange(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 2, A, exchange=True).status == 302
    refused(game, mid, htmx, lambda: game.turnup(mid, 1, "7c", htmx=htmx),
            "The turn-up is the 7♣ itself: there is no trump 7 to exchange for it")


@HTMX
def test_an_exchange_and_the_trump_7_played(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 5, A, exchange=True).status == 302
    page = refused(game, mid, htmx, lambda: game.seven(mid, 1, A, 12, htmx=htmx),
                   "Deal 1: The 7♣ was exchanged after trick 5: an exchanged trump 7 earns no "
                   "bonus when it is played (rule 6.3.9)")
    # The Finish proposes the exchange as the trump 7's fate (issue 11) ...
    assert page.checked("finish-seven") == ["exchanged"]
    # ... and the table may say otherwise there: played by Anne, not exchanged. Issue 11
    # changed this from a refusal: with the trump 7 asked in the Finish, its answer is the
    # table's last word on the trump 7 (one fate only, rule 3), and the exchange goes.
    page = game.done(game.finish_deal(mid, 1, 50, seven=A, htmx=htmx), htmx)
    assert game.hands(mid)[0]["seven_played"] == {"player": A, "trick": None}
    assert all(t["exchange"] is None for t in game.hands(mid)[0]["tricks"])
    assert "Anne plays the 7♣ to a trick, never exchanged +10" in game.explained(page)
    # The other order: the trump 7 recorded as played, then the table records its exchange.
    # Issue 11 changed this from a refusal: with the trump 7 asked in the Finish there is no
    # other place to take "played" back, and an exchanged 7 is played for no bonus (4.4.3),
    # so the exchange replaces the earlier answer (the score shows it).
    other = started(game)
    assert game.seven(other, 1, B).status == 302
    page = game.done(game.turn(other, 1, 5, A, exchange=True, htmx=htmx), htmx)
    assert so_far(page) == "So far: Anne 10 · Bruno 0"
    assert game.hands(other)[0]["seven_played"] is None


@HTMX
def test_two_exchanges(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 2, A, exchange=True).status == 302
    refused(game, mid, htmx, lambda: game.turn(mid, 1, 4, B, exchange=True, htmx=htmx),
            "Deal 1: The trump 7 can be exchanged only once per deal, not after tricks 2 and 4 "
            "(rule 4.4.1)")


@HTMX
@pytest.mark.parametrize(("player", "trick", "words"), [
    ("2", "", "Not a valid choice"),
    ("<b>x</b>", "", "Not a valid choice"),
    ("0", "17", "Number must be between 1 and 16."),
    ("0", "0", "Number must be between 1 and 16."),
    ("0", "x", "Not a valid integer value."),
    ("0", HUGE, "Enter a number of at most 6 digits"),
    ("0", BIG, "Enter a number of at most 6 digits"),
], ids=["player-2", "player-html", "trick-17", "trick-0", "trick-text", "trick-huge",
        "trick-big"])
def test_trump_7_played_refused(game: Marjolet, htmx: bool, player: str, trick: str,
                                words: str) -> None:
    mid = started(game)
    page = refused(game, mid, htmx, lambda: game.seven(mid, 1, player, trick, htmx=htmx), words)
    assert "<b>x</b>" not in page.html


# ---------------------------------------------------------------------------------------------
# Bad input: finishing a deal


@HTMX
@pytest.mark.parametrize(("brisques", "words"), [
    ("45", "Deal 1: Aces and tens count 10 each, so 45 is not possible: give a multiple of 10 "
           "(rule 6.3.1)"),
    ("90", "Aces and tens are worth 0 to 80 (rule 3)"),
    ("-10", "Aces and tens are worth 0 to 80 (rule 3)"),
    ("", "Enter one player's points in aces and tens"),
    ("fifty", "Not a valid integer value"),
    ("50.0", "Not a valid integer value"),
    ("99999999999999999999", "Enter a number of at most 6 digits"),
    (HUGE, "Enter a number of at most 6 digits"),
    (BIG, "Enter a number of at most 6 digits"),
], ids=["45", "90", "negative", "empty", "text", "fraction", "20-digits", "huge", "big"])
def test_aces_and_tens_refused(game: Marjolet, htmx: bool, brisques: str, words: str) -> None:
    mid = started(game)
    assert game.seven(mid, 1, A).status == 302
    page = refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, brisques, trick10=A,
                                                             last=B, htmx=htmx), words)
    if len(brisques) < 100:
        assert page.value("finish-brisques") == brisques               # kept to correct
    assert page.checked("finish-trick10") == ["0"] and page.checked("finish-last") == ["1"]


@HTMX
def test_a_sweep_for_one_and_the_last_trick_for_the_other(game: Marjolet, htmx: bool) -> None:
    mid = started(game)
    assert game.seven(mid, 1, A).status == 302
    page = refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 60, trick10=B, last=B,
                                                             sweep=A, htmx=htmx),
                   "Deal 1: A sweep by Anne includes the last trick, which cannot then be "
                   "Bruno's (rule 6.3.9)")
    assert page.selected("finish-sweep") == ["0"]


@HTMX
def test_aces_and_tens_the_tricks_cannot_hold(game: Marjolet, htmx: bool) -> None:
    """Anne won tricks 1–9 (recorded), trick 10 and the sweep: all 16 tricks, so all 80 are
    hers; Bruno's 10 is impossible (rule 6.3.1)."""
    deal = {"turnup": "9c", "tricks": [mj_trick(A)] * 9, "seven_played": PLAYED_A,
            "end": None}
    mid = game.seed_game([deal])
    page = refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 10, player=B, trick10=A,
                                                             last=A, sweep=A, htmx=htmx),
                   "Deal 1: Anne cannot have 70 in aces and tens: 16 tricks hold 80 to 80 "
                   "(rule 6.3.1)")
    assert page.value("finish-brisques") == "10"
    page = game.done(game.finish_deal(mid, 1, 0, player=B, trick10=A, last=A, sweep=A,
                                      htmx=htmx), htmx)
    # Anne 80 + 10 (trump 7) + 10 (trick 10) + 10 (last) + 50; Bruno 10 (turn-up)
    assert game.standings(page)[0] == (160, 10)


@HTMX
@pytest.mark.parametrize(("data", "words"), [
    ({"trick10": None}, "Who won trick 10? (rule 5)"),
    ({"last": None}, "Who won the last trick? (rule 5)"),
    ({"trick10": "2"}, "Not a valid choice"),
    ({"last": "x"}, "Not a valid choice"),
    ({"sweep": "2"}, "Not a valid choice"),
    ({"sweep": "<b>x</b>"}, "Not a valid choice"),
    ({"player": "2"}, "Not a valid choice"),
], ids=["no-trick10", "no-last", "trick10-forged", "last-forged", "sweep-forged", "sweep-html",
        "player-forged"])
def test_finish_refused(game: Marjolet, htmx: bool, data: dict[str, Any], words: str) -> None:
    mid = started(game)
    assert game.seven(mid, 1, A).status == 302
    kw: dict[str, Any] = {"trick10": A, "last": B, **data}
    page = refused(game, mid, htmx, lambda: game.finish_deal(mid, 1, 50, htmx=htmx, **kw),
                   words)
    assert page.value("finish-brisques") == "50"
    assert "<b>x</b>" not in page.html


# ---------------------------------------------------------------------------------------------
# Bad input: forged values, order of entries, huge numbers


@HTMX
@pytest.mark.parametrize("card", ["1x", "", "Zz", "<b>9c</b>", "9c 9h"])
def test_forged_turn_up(game: Marjolet, htmx: bool, card: str) -> None:
    mid = started(game)
    words = "Pick the turn-up card (rule 2.2)" if card == "" else "Not a valid choice"
    refused(game, mid, htmx, lambda: game.turnup(mid, 1, card, htmx=htmx), words)
    other = game.new_game()
    page = refused(game, other, htmx, lambda: game.turnup(other, 1, card, htmx=htmx), words)
    assert "<b>9c</b>" not in page.html


@HTMX
@pytest.mark.parametrize(("trick", "words"), [
    ("x", "Not a valid integer value"),
    ("", "After which trick (1–10)?"),
    (HUGE, "Enter a number of at most 6 digits"),
    (BIG, "Enter a number of at most 6 digits"),
])
def test_forged_turn_trick(game: Marjolet, htmx: bool, trick: str, words: str) -> None:
    mid = started(game)
    refused(game, mid, htmx, lambda: game.turn(mid, 1, trick, A, ["Kh", "Qh"], htmx=htmx),
            words)


@HTMX
@pytest.mark.parametrize("index", ["-1", "21", "x", HUGE, BIG])
def test_remove_with_a_forged_index(game: Marjolet, htmx: bool, index: str) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, ["Kh", "Qh"]).status == 302
    with unchanged(game, mid):
        page = game.rejected(game.unmeld(mid, 1, 3, A, index, htmx=htmx), htmx)
    assert page.visible_errors, page.html[:500]


@HTMX
@pytest.mark.parametrize(("trick", "player"), [("11", "0"), ("x", "0"), (HUGE, "0"),
                                               ("3", "2"), ("3", "<b>x</b>")],
                         ids=["trick-11", "trick-text", "trick-huge", "player-2",
                              "player-html"])
def test_remove_with_a_forged_trick_or_player(game: Marjolet, htmx: bool, trick: str,
                                              player: str) -> None:
    mid = started(game)
    assert game.turn(mid, 1, 3, A, ["Kh", "Qh"]).status == 302
    with unchanged(game, mid):
        page = game.rejected(game.unmeld(mid, 1, trick, player, 0, htmx=htmx), htmx)
    assert "<b>x</b>" not in page.html
    assert page.visible_errors, page.html[:500]


@HTMX
def test_actions_on_a_deal_not_started(game: Marjolet, htmx: bool) -> None:
    mid = game.seed_game([SEED_1])
    for action in (lambda: game.turn(mid, 2, 2, A, ["Kh", "Qh"], htmx=htmx),
                   lambda: game.seven(mid, 2, A, htmx=htmx),
                   lambda: game.finish_deal(mid, 2, 40, htmx=htmx),
                   lambda: game.unmeld(mid, 2, 1, A, 0, htmx=htmx)):
        refused(game, mid, htmx, action, "Start the deal first: pick the turn-up card "
                "(rule 2.2)")


@HTMX
def test_a_new_deal_while_one_is_open(game: Marjolet, htmx: bool) -> None:
    mid = started(game, [SEED_1])
    refused(game, mid, htmx, lambda: game.turnup(mid, 3, "9h", htmx=htmx),
            "Finish the deal in progress first (rule 6.1)")


@HTMX
@pytest.mark.parametrize("path", ["/hands/3/turnup", "/hands/0/finish", f"/hands/{HUGE}/turn",
                                  "/hands/1/frobnicate", "/hands/1/dost"])
def test_deal_number_out_of_range(game: Marjolet, htmx: bool, path: str) -> None:
    mid = game.seed_game([SEED_1])
    with unchanged(game, mid):
        page = game.post(f"/m/{mid}{path}", {"turnup-turnup": "9h"}, htmx=htmx)
    assert page.status == 404
    assert "There is no such page or match." in page.text


# ---------------------------------------------------------------------------------------------
# Impossible combinations inside an imported match file


def _t(winner: int | None = None, a: list[str] | None = None, b: list[str] | None = None,
       exchange: int | None = None) -> dict[str, Any]:
    return mj_trick(winner, (a or [], b or []), exchange)


END = mj_end((50, None), A, B)


@pytest.mark.parametrize(("deals", "settings", "words"), [
    ([{"turnup": "9c", "tricks": [_t(B, a=["marriage:h"])], "seven_played": None,
       "end": None}],
     {}, "Deal 1: Anne cannot meld after trick 1: the trick record gives it to Bruno, and "
         "only the winner of a trick melds or exchanges, in the turn after it (rule 4.2.1)"),
    ([{"turnup": "9c", "tricks": [_t()] * 10 + [_t(A, a=["marriage:h"])],
       "seven_played": None, "end": None}],
     {}, "Deal 1: Melds are declared only after tricks 1–10, not after trick 11: the stock is "
         "empty (rule 4.2.1)"),
    ([mj_deal("9c", {1: (A, ["four:A", "four:K"])})],
     {}, "Deal 1: After trick 1, Anne's melds use 8 different cards, but a player holds only 5 "
         "in a turn (rule 4.2.3)"),
    ([mj_deal("9c", {1: (A, ["marriage:h"]), 2: (A, ["marriage:h"])})],
     {}, "Deal 1: After trick 2, Anne melds the marriage in hearts (K♥ Q♥) again after melding "
         "it after trick 1: the same cards score only once per deal (rule 4.3.2)"),
    ([mj_deal("9c", {1: (A, ["four:10"])})],
     {}, "Deal 1: After trick 1, Anne melds four tens, which are not a meld under the default "
         "melds"),
    ([mj_deal("9c", {1: (A, ["four:J"])})],
     {"rules": "traditional"}, "four jacks, which are not a meld under the traditional melds"),
    ([mj_deal("9c", {1: (A, ["four:A"]), 2: (B, ["four:A"])})],
     {}, "Deal 1: After trick 2, Bruno melds four aces (A♣ A♦ A♥ A♠), which Anne melded after "
         "trick 1"),
    ([mj_deal("9c", {1: (A, ["four:K"]), 7: (B, ["marriage:s"])})],
     {}, "Deal 1: The K♠ is shown by both players"),
    ([mj_deal("Kd", {1: (A, ["marriage:d"])})],
     {}, "Deal 1: The K♦ is the turn-up: it lies face up and belongs to nobody"),
    ([mj_deal("7c", exchange=(2, A))],
     {}, "Deal 1: The turn-up is the 7♣ itself: there is no trump 7 to exchange for it "
         "(rule 4.4.1)"),
    ([mj_deal("9c", exchange=(2, A), seven=A)],
     {}, "Deal 1: The 7♣ was exchanged after trick 2: an exchanged trump 7 earns no bonus when "
         "it is played (rule 6.3.9)"),
    ([mj_deal("7c", seven=A)],
     {}, "Deal 1: The turn-up is the 7♣: it scores for the dealer, never when it is played "
         "(rule 6.3.9)"),
    ([{"turnup": "9c", "tricks": [_t(A, exchange=A), _t(B, exchange=B)],
       "seven_played": None, "end": None}],
     {}, "Deal 1: The trump 7 can be exchanged only once per deal, not after tricks 1 and 2"),
    ([mj_deal("9c", seven=A, end=mj_end((50, 40), A, B))],
     {}, "Deal 1: The four aces and four tens make 80 in all, not 50 + 40 = 90 (rule 6.3.1)"),
    ([mj_deal("9c", seven=A, end=mj_end((45, None), A, B))],
     {}, "Deal 1: Aces and tens count 10 each, so 45 is not possible: give a multiple of 10 "
         "(rule 6.3.1)"),
    ([mj_deal("9c", seven=A, end=mj_end((60, None), B, B, A))],
     {}, "Deal 1: A sweep by Anne includes the last trick, which cannot then be Bruno's "
         "(rule 6.3.9)"),
    ([mj_deal("9c", end=END)],
     {}, "Deal 1: Record what happened to the trump 7 (7♣)"),
    ([{"turnup": "9c", "tricks": [_t()] * 9 + [_t(b=["marriage:h"])], "seven_played": PLAYED_A,
       "end": END}],
     {}, "Deal 1: Bruno cannot meld after trick 10: Anne is entered as the winner of trick 10"),
    ([mj_deal("9c"), mj_deal("9c", seven=A, end=END)],
     {}, "Deal 1: Only the last deal can still be in progress (rule 6.1)"),
    ([SEED_1, SEED_2, DEAL_3A, mj_deal("9c")],
     {}, "Deal 4: The game is over: Anne won it with 540 (rule 7.3)"),
    ([], {"rules": "traditional", "sweep_40": False},
     "The traditional rule set has Sweep 40 on; choose custom rules to switch it off (rule 8)"),
    ([], {"target": 700}, "The game goes to 500 or 1000 points, not 700 (rule 8)"),
], ids=["loser", "trick-11", "4A+4K", "twice", "four-tens", "four-jacks-trad", "both-4A",
        "Ks-of-A", "turn-up-meld", "exchange-7-up", "exchange+played", "played-7-up",
        "two-exchanges", "90", "45", "sweep-last", "no-seven", "loser-trick-10", "open-deal",
        "after-the-end", "preset-switch", "target-700"])
def test_impossible_match_file_is_refused(game: Marjolet, deals: list[dict[str, Any]],
                                          settings: dict[str, Any], words: str) -> None:
    before = game.match_count()
    page = import_file(game, json.dumps(match_file(deals, **settings)).encode())
    assert page.status == 422
    assert page.is_full_page
    assert says(page, words), page.errors
    assert game.match_count() == before


def test_the_example_file_imports(game: Marjolet) -> None:
    body = (Path(__file__).parents[2] / "data" / "marjolet-game.json").read_bytes()
    page = import_file(game, body)
    assert page.status == 302, page.errors
    shown = game.follow(page)
    assert game.standings(shown) == ((634, 520), (1, 0))
    assert "Game over: Anne wins 634–520" in shown.text


# ---------------------------------------------------------------------------------------------
# CSRF


ROUTES = ["new", "turnup", "turn", "unmeld", "seven", "finish", "winners", "delete", "undo",
          "import"]


def _csrf_setup(game: Marjolet, route: str) -> str:
    """A game in which ``route``, posted with a good token, changes something."""
    if route == "turnup":
        return game.seed_game([SEED_1])
    mid = started(game, [SEED_1])
    if route in ("unmeld", "undo"):
        assert game.turn(mid, 2, 3, A, ["Kh", "Qh"]).status == 302
    if route == "finish":
        assert game.seven(mid, 2, A).status == 302
    return mid


def _csrf_post(game: Marjolet, mid: str, route: str, htmx: bool, token: str | None) -> Page:
    kw: dict[str, Any] = {"htmx": htmx, "token": token}
    if route == "new":
        return game.post("/new/marjolet", {"player_a": "X", "player_b": "Y", "target": "500",
                                           "first_dealer": "0", "rules": "default"}, **kw)
    if route == "import":
        return import_file(game, game.client.get(f"/m/{mid}/match.json").get_data(), **kw)
    return {
        "turnup": lambda: game.turnup(mid, 2, "9s", **kw),
        "turn": lambda: game.turn(mid, 2, 3, A, ["Kh", "Qh"], **kw),
        "unmeld": lambda: game.unmeld(mid, 2, 3, A, 0, **kw),
        "seven": lambda: game.seven(mid, 2, B, **kw),
        "finish": lambda: game.finish_deal(mid, 2, 40, **kw),
        "winners": lambda: game.winners(mid, 2, "ABBA", **kw),
        "delete": lambda: game.post(f"/m/{mid}/hands/1/delete", **kw),
        "undo": lambda: game.post(f"/m/{mid}/undo", **kw),
    }[route]()


@HTMX
@pytest.mark.parametrize("kind", CSRF_KINDS)
@pytest.mark.parametrize("route", ROUTES)
def test_csrf_is_checked(game: Marjolet, htmx: bool, kind: str, route: str) -> None:
    mid = _csrf_setup(game, route)
    csrf_is_checked(game, mid, kind,
                    lambda token: _csrf_post(game, mid, route, htmx, token),
                    state=lambda: (game.export(mid), game.last_action(mid), game.match_count()))


def test_csrf_token_is_on_every_form(game: Marjolet) -> None:
    mid = started(game, [SEED_1])
    assert game.turn(mid, 2, 3, A, ["Kh", "Qh"]).status == 302
    page = game.get(f"/m/{mid}")
    forms = re.findall(r"<form\b.*?</form>", page.html, flags=re.S)
    assert len(forms) >= 4      # the editor's sections are one form since issue 11
    for form in forms:
        if 'method="post"' in form:
            assert re.search(r'name="(\w+-)?csrf_token"', form), form[:300]


# ---------------------------------------------------------------------------------------------
# Names with HTML in them

EVIL = ["<script>alert(1)</script>", "<img src=x>"]


def test_html_in_names_is_escaped_everywhere(game: Marjolet) -> None:
    mid = game.new_game(EVIL)
    assert game.export(mid)["settings"]["players"] == EVIL
    assert game.turnup(mid, 1, "9c").status == 302
    assert game.turn(mid, 1, 3, A, FOUR["K"]).status == 302
    pages = [game.get("/"), game.get(f"/m/{mid}"), game.get(f"/m/{mid}", htmx=True),
             game.turn(mid, 1, 3, B, ["Jc", "Qc"]),
             game.turn(mid, 1, 7, B, ["Ks", "Qs"], htmx=True),
             game.done(game.seven(mid, 1, B, htmx=True), True),
             game.get(f"/m/{mid}/hands/1")]
    for page in pages:
        assert "<script>alert" not in page.html
        assert "<img src=x" not in page.html
        assert "&lt;script&gt;" in page.html or "&lt;img" in page.html
    main = game.get(f"/m/{mid}")
    assert EVIL[0] in main.text and EVIL[1] in main.text
    assert "So far: <script>alert(1)</script> 80 · <img src=x> 10" in main.verdicts
    assert says(pages[3], "cannot meld after trick 3")
    assert says(pages[4], f"The K♠ is shown by both players ({EVIL[0]}: four kings after "
                f"trick 3; {EVIL[1]}: the marriage in spades after trick 7)")
    text = pdf_text(game.client, mid)
    assert "Players <script>alert(1)</script> – <img src=x>" in text      # printed, not run


# ---------------------------------------------------------------------------------------------
# Who dealt (6.1.1): stored with each deal, proposed by the app, corrected by the table


def dealt(game: Marjolet, mid: str, n: int, card: str, dealer: int, *, htmx: bool = False,
          editing: bool = False) -> Page:
    return game._act(mid, n, "turnup", {"turnup-turnup": card, "turnup-dealer": str(dealer)},
                     htmx, editing)


def test_the_start_form_proposes_the_dealer_by_name(game: Marjolet) -> None:
    mid = game.seed_game([SEED_1])                      # Bruno dealt deal 1
    page = game.get(f"/m/{mid}")
    assert "Deal 2 Anne deals · Bruno leads trick 1" in page.text
    assert "Dealer Anne Bruno Start deal 2" in page.text          # one choice, by name
    assert page.checked("turnup-dealer") == [str(A)]               # proposed: Anne (2.1)


@HTMX
def test_a_deal_dealt_out_of_turn_is_scored_as_the_table_recorded_it(game: Marjolet,
                                                                      htmx: bool) -> None:
    mid = game.new_game()                               # Bruno deals first
    page = game.done(dealt(game, mid, 1, "7s", A, htmx=htmx), htmx)
    assert "Deal 1 Anne deals · Bruno leads trick 1" in page.text
    assert so_far(page) == "So far: Anne 7 · Bruno 0"             # Anne dealt the 7 (2.2)
    assert "Anne dealt, out of turn: Bruno was due §2.1" in game.explained(page)
    assert page.checked("turnup-dealer") == [str(A)]              # the change form: as stored
    assert game.hands(mid)[0]["dealer"] == A
    page = game.done(game.finish_deal(mid, 1, 40, trick10=A, last=A, htmx=htmx), htmx)
    assert game.standings(page) == ((67, 50), (0, 0))
    assert page.checked("turnup-dealer") == [str(B)]              # deal 2: after Anne, Bruno
    page = game.done(dealt(game, mid, 1, "7s", B, htmx=htmx, editing=True), htmx)
    assert game.standings(page) == ((60, 57), (0, 0))              # now Bruno's 7
    assert "out of turn" not in page.text
    assert game.hands(mid)[0]["dealer"] == B


@HTMX
def test_deleting_deal_1_keeps_deal_2s_turned_up_seven_with_anne(game: Marjolet,
                                                                 htmx: bool) -> None:
    """tests/data/marjolet-game.json, stored as before dealers were recorded: Anne dealt deal 2
    and turned up 7♣. Deal 1 deleted, that deal is deal 1 and still Anne's 7."""
    raw = json.loads((Path(__file__).resolve().parents[2] / "data" /
                      "marjolet-game.json").read_text(encoding="utf-8"))
    mid = game.seed_game(raw["hands"])
    page = game.done(game.delete(mid, 1, htmx=htmx), htmx)
    assert "The turn-up is the 7♣: Anne, the dealer, scores it +7" in game.explained(page)
    assert "The turn-up is the 7♣: Bruno" not in game.explained(page)
    assert "Anne dealt, out of turn: Bruno was due §2.1" in game.explained(page)
    assert [h["dealer"] for h in game.hands(mid)] == [A, B, A, B, A, B]


def test_a_forged_dealer_is_refused(game: Marjolet) -> None:
    mid = game.new_game()
    page = dealt(game, mid, 1, "9c", 2)
    assert page.status == 422
    assert "The dealer is one of the two players (rule 6.1.1)" in page.text
    assert game.hands(mid) == []
