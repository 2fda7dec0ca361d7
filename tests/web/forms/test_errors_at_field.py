"""Errors at the field (issue 11, item 4): a refusal marks the field or the cards it concerns
(``aria-invalid="true"``), puts the message with its rule beside them (``aria-describedby``
names it), keeps the summary at the top of the page (#rule-error) and keeps what was typed;
nothing is stored. For the common refusals of each game: a meld that is not a meld, a pile
out of range, a combination the rules do not know, a wrong bid."""

from __future__ import annotations

import io
from html.parser import HTMLParser

import pytest
from games.test_tartli_editor import score_at_once
from games.test_troggu_web import EVENING_5, Troggu, tg  # noqa: F401  (tg: the fixture)
from webtools import Marjolet, Page, Series, Table, unchanged

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])


class _Marks(HTMLParser):
    """Every element's attributes in page order, and the text of every element with an id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[str, list[str]] = {}
        self._open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if tag not in ("input", "br", "img", "meta", "link"):
            self._open.append(a.get("id"))
            if a.get("id"):
                self.texts[a["id"]] = []

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("input", "br", "img", "meta", "link") and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for i in self._open:
            if i:
                self.texts[i].append(data)


class Marks:
    def __init__(self, page: Page) -> None:
        reader = _Marks()
        reader.feed(page.html)
        self.elements = reader.elements
        self.texts = {i: " ".join("".join(t).split()) for i, t in reader.texts.items()}
        self.order = [a.get("id") for _, a in self.elements]

    def controls(self, name: str) -> list[dict[str, str]]:
        """The inputs and selects posting ``name``."""
        return [a for tag, a in self.elements
                if tag in ("input", "select") and a.get("name") == name]

    def invalid(self) -> set[str]:
        """The names of every control marked invalid."""
        return {a.get("name", "") for tag, a in self.elements
                if tag in ("input", "select") and a.get("aria-invalid") == "true"}

    def described(self, name: str) -> list[str]:
        """The texts that the marked controls of ``name`` point at."""
        ids = {i for a in self.controls(name) if a.get("aria-invalid") == "true"
               for i in a.get("aria-describedby", "").split()}
        return [self.texts[i] for i in sorted(ids) if i in self.texts]


def at_the_field(page: Page, name: str, *words: str) -> Marks:
    """The refusal marks the controls of ``name`` (and no other; of a card picker, the cards
    picked), with a message beside them holding ``words`` and its rule; the summary at the
    top holds them too."""
    assert page.status == 422, (page.status, page.errors)
    marks = Marks(page)
    controls = marks.controls(name)
    picked = [a for a in controls if a.get("type") == "checkbox" and "checked" in a]
    concerned = picked or controls
    assert concerned and all(a.get("aria-invalid") == "true" for a in concerned), controls
    assert not any(a.get("aria-invalid") for a in controls if a not in concerned), controls
    assert marks.invalid() == {name}, marks.invalid()
    beside = marks.described(name)
    assert any(all(w in text for w in words) and "(rule " in text for text in beside), beside
    summary = marks.texts.get("rule-error", "")
    assert all(w in summary for w in words), summary
    assert marks.order.index("rule-error") < marks.order.index("editor")   # at the top
    return marks


# -- Tartli ----------------------------------------------------------------------------------

def tartli_hand(table: Table) -> str:
    mid = table.new_match()
    assert table.indicator(mid, 1, "8h").status == 302
    return mid


@HTMX
def test_tartli_a_meld_that_is_not_a_meld_marks_its_players_cards(table: Table,
                                                                   htmx: bool) -> None:
    mid = tartli_hand(table)
    with unchanged(table, mid):
        page = table.trick(mid, 1, 1, (["Aa", "Kl"], []), htmx=htmx)
    at_the_field(page, "trick-cards_0", "Ágnes: A", "K is not a meld", "rule 4.1")
    assert page.checked("trick-cards_0") == ["Aa", "Kl"]        # the cards tapped are kept
    assert page.checked("trick-cards_1") == []


@HTMX
def test_tartli_the_second_players_meld_marks_only_his_cards(table: Table, htmx: bool) -> None:
    mid = tartli_hand(table)
    page = table.trick(mid, 1, 1, ([], ["7a", "7l", "7h", "7b"]), htmx=htmx)
    at_the_field(page, "trick-cards_1", "Tamás: Four Sevens are not a meld")


@HTMX
def test_tartli_a_pile_out_of_range_marks_the_pile(table: Table, htmx: bool) -> None:
    mid = tartli_hand(table)
    with unchanged(table, mid):
        page = table.finish(mid, 1, 152, htmx=htmx)
    at_the_field(page, "finish-pile", "A pile holds 0 to 151 card points", "rule 3")
    assert page.value("finish-pile") == "152"                    # what was typed is kept


@HTMX
def test_tartli_a_hand_scored_at_once_marks_a_pile_no_cards_make(table: Table,
                                                                  htmx: bool) -> None:
    mid = table.new_match()
    with unchanged(table, mid):
        page = score_at_once(table, mid, 1, "8h", 1, 0, htmx=htmx)
    at_the_field(page, "indicator-pile", "No cards can make a pile count of 1", "rule 6.3.2")
    assert page.value("indicator-pile") == "1"


# -- Stovkahra -------------------------------------------------------------------------------

@HTMX
@pytest.mark.parametrize("picked", [False, True], ids=["said", "picked"])
def test_stovkahra_nines_form_no_combination_at_the_field_used(series: Series, htmx: bool,
                                                              picked: bool) -> None:
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    with unchanged(series, mid):
        page = (series.declare(mid, 1, 2, cards=["9h", "9d", "9c"], htmx=htmx) if picked
                else series.declare(mid, 1, 2, rank="9", count=3, htmx=htmx))
    field = "combination-cards" if picked else "combination-rank"
    at_the_field(page, field, "Eva: nines form no combination", "rule 4.5")
    if picked:
        assert page.checked("combination-cards") == ["9c", "9d", "9h"]
    else:
        assert page.selected("combination-rank") == ["9"]


@HTMX
def test_stovkahra_a_dost_by_who_may_not_call_it_marks_the_caller(series: Series,
                                                                  htmx: bool) -> None:
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    with unchanged(series, mid):
        page = series.call_dost(mid, 1, 0, 0, htmx=htmx)     # Jana declared nothing
    at_the_field(page, "dost-caller", "Jana declared no combination", "rule 7.2.1")
    assert page.checked("dost-caller") == ["0"]


# -- Marjolet --------------------------------------------------------------------------------

@HTMX
def test_marjolet_a_meld_that_is_not_a_meld_marks_the_cards(game: Marjolet, htmx: bool) -> None:
    mid = game.seed_game([])
    assert game.turnup(mid, 1, "9c").status == 302
    with unchanged(game, mid):
        page = game.turn(mid, 1, 3, 0, ["Ks", "Qh"], htmx=htmx)
    marks = at_the_field(page, "turn-cards", "not a meld")
    assert sorted(page.checked("turn-cards")) == ["Ks", "Qh"]     # the cards tapped are kept
    assert [a.get("value") for a in marks.controls("turn-trick")] == ["3"]


# -- Troggu ----------------------------------------------------------------------------------

@HTMX
def test_troggu_a_wrong_bid_marks_the_player_who_made_it(tg: Troggu, htmx: bool) -> None:  # noqa: F811
    mid = tg.seed_match(EVENING_5[:1])
    carla, dario = 2, 3           # hand 2: Beat deals, Carla speaks first, then Dario
    with unchanged(tg, mid):
        page = tg.bids(mid, 2, 1, {carla: "normal", dario: "normal"}, htmx=htmx)
    at_the_field(page, f"bids-bid_{dario}", "not normal (Dario)", "rule 4.1.3")
    assert page.checked(f"bids-bid_{carla}") == ["normal"]
    assert page.checked(f"bids-bid_{dario}") == ["normal"]


@HTMX
def test_troggu_an_end_without_the_partner_call_marks_the_call(tg: Troggu, htmx: bool) -> None:  # noqa: F811
    """7 players: the end of a normal game given without the partner call (4.5.2)."""
    mid = tg.seed_match([{"dealer": 0, "bids": ["pass", "normal"] + ["pass"] * 5,
                          "game": "normal", "declarer": 2, "end": None}], count=7)
    with unchanged(tg, mid):
        page = tg.finish(mid, 1, 62, htmx=htmx)
    at_the_field(page, "finish-partner", "With 7 players the Tappist calls a trump", "rule 4.5.2")
    assert page.value("finish-points") == "62"


def test_a_refusal_of_no_known_field_is_said_at_the_top_only(table: Table) -> None:
    """A refusal about the hand as a whole marks nothing: no field would be right."""
    mid = table.new_match()
    page = table.finish(mid, 1, 80)            # no hand started: nothing to finish
    assert page.status == 422
    assert Marks(page).invalid() == set()
    assert "Start the hand first" in Marks(page).texts.get("rule-error", "")


# -- The other forms: a new match, this device's name, a code to join, a match file --------

def marked(page: Page, control_id: str, *words: str) -> None:
    """The control ``control_id`` is marked invalid and described by a message with ``words``."""
    marks = Marks(page)
    control = next(a for _, a in marks.elements if a.get("id") == control_id)
    assert control.get("aria-invalid") == "true", control
    beside = [marks.texts.get(i, "") for i in control.get("aria-describedby", "").split()]
    assert any(all(w in text for w in words) for text in beside), beside


def test_a_new_match_marks_the_missing_name(table: Table) -> None:
    page = table.post("/new/tartli", {"player_a": "Ágnes", "player_b": "", "target": "5",
                                      "first_dealer": "0"})
    assert page.status == 422
    marked(page, "player_b", "This field is required")
    assert Marks(page).invalid() == {"player_b"}
    assert page.value("player_a") == "Ágnes"


def test_a_device_name_too_long_is_marked(table: Table) -> None:
    page = table.post("/device", {"name": "x" * 41})
    assert page.status == 422
    marked(page, "name", "At most 40 characters")


def test_a_code_that_opens_no_match_is_marked(table: Table) -> None:
    page = table.get("/join?code=nothing-here")
    assert page.status == 422
    marked(page, "code", "No match has that link or code")
    assert page.value("code") == "nothing-here"


def test_a_match_file_refused_is_marked_and_the_field_labelled(table: Table) -> None:
    page = table.post("/import", {"file": (io.BytesIO(b"{not json"), "match.json")},
                      content_type="multipart/form-data")
    assert page.status == 422
    marked(page, "file")
    assert '<label for="file">Match file (.json)</label>' in page.html


# -- Refusals the fold makes, at their fields (issue 11, left over) --------------------------

def at_the_fields(page: Page, names: list[str], *words: str) -> Marks:
    """The refusal marks the controls of each of ``names`` and no other, each described by a
    message holding ``words`` and its rule; the summary at the top holds them too."""
    assert page.status == 422, (page.status, page.errors)
    marks = Marks(page)
    assert marks.invalid() == set(names), marks.invalid()
    for name in names:
        controls = marks.controls(name)
        assert controls and all(a.get("aria-invalid") == "true" for a in controls), controls
        beside = marks.described(name)
        assert any(all(w in text for w in words) and "(rule " in text for text in beside), \
            (name, beside)
    summary = marks.texts.get("rule-error", "")
    assert all(w in summary for w in words), summary
    return marks


def tartli_trick_1_won_by_agnes(table: Table) -> str:
    mid = tartli_hand(table)
    assert table.trick(mid, 1, 1, ([], []), 0).status == 302
    return mid


@HTMX
def test_tartli_a_claim_pile_no_cards_make_marks_that_players_pile(table: Table,
                                                                   htmx: bool) -> None:
    """Ágnes won the only completed trick: Tamás has no card to make a pile of 5 (6.3.2)."""
    mid = tartli_trick_1_won_by_agnes(table)
    with unchanged(table, mid):
        page = table.claim(mid, 1, 0, 1, (21, 5), htmx=htmx)
    at_the_field(page, "claim-pile_1", "No cards can make a pile count of 5 for Tamás",
                 "rule 6.3.2")
    assert (page.value("claim-pile_0"), page.value("claim-pile_1")) == ("21", "5")


@HTMX
def test_tartli_claim_piles_that_cannot_go_together_mark_both(table: Table, htmx: bool) -> None:
    mid = tartli_trick_1_won_by_agnes(table)
    with unchanged(table, mid):
        page = table.claim(mid, 1, 0, 1, (100, 100), htmx=htmx)
    at_the_fields(page, ["claim-pile_0", "claim-pile_1"],
                  "cannot hold more than 151", "rule 6.3.1")


@HTMX
def test_tartli_a_set_scored_twice_marks_the_players_cards(table: Table, htmx: bool) -> None:
    """Refused by the fold, not by the form: four aces scored in trick 1 never score again
    (4.6.2); the cards Ágnes tapped in trick 2 are marked."""
    aces = ["Aa", "Al", "Ah", "Ab"]
    mid = tartli_hand(table)
    assert table.trick(mid, 1, 1, (aces, []), 0).status == 302
    with unchanged(table, mid):
        page = table.trick(mid, 1, 2, (aces, []), 0, htmx=htmx)
    at_the_field(page, "trick-cards_0", "Trick 2: Ágnes already scored", "rule 4.6.2")


@HTMX
def test_tartli_a_meld_refused_in_another_trick_is_said_at_the_top(table: Table,
                                                                   htmx: bool) -> None:
    """Trick 1 edited to the four aces that trick 2 already shows: the fold refuses trick 2's,
    which is not on the form posted; no field of trick 1 is marked for it."""
    aces = ["Aa", "Al", "Ah", "Ab"]
    mid = tartli_hand(table)
    assert table.trick(mid, 1, 1, ([], []), 0).status == 302
    assert table.trick(mid, 1, 2, (aces, []), 0).status == 302
    with unchanged(table, mid):
        page = table.trick(mid, 1, 1, (aces, []), 0, htmx=htmx)
    assert page.status == 422
    assert Marks(page).invalid() == set()
    assert "Trick 2: Ágnes already scored" in Marks(page).texts.get("rule-error", "")


@HTMX
def test_tartli_a_conceded_announcement_that_would_win_marks_it(table: Table,
                                                                htmx: bool) -> None:
    """Only Ágnes announced, and conceded: a declaration that wins must be entered in full
    (6.1.4); her "conceded" choice is marked."""
    mid = tartli_hand(table)
    with unchanged(table, mid):
        page = table.trick(mid, 1, 1, conceded=("seq:?/3", ""), htmx=htmx)
    at_the_field(page, "trick-conceded_0", "must be entered in full", "rule 6.1.4")
    assert page.selected("trick-conceded_0") == ["seq:?/3"]


@HTMX
def test_stovkahra_dost_points_a_team_cannot_have_mark_that_teams(series: Series,
                                                                  htmx: bool) -> None:
    """Dost after trick 2, both won by Jana's team: the other team has no card points
    (6.3.3); their points are marked, not Jana's team's."""
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    with unchanged(series, mid):
        page = series.call_dost(mid, 1, 0, 2, points=(12, 5), tricks=(2, 0), trick_winner=0,
                                htmx=htmx)
    at_the_field(page, "dost-points_1", "won no trick, so they have no card points",
                 "rule 6.3.3")
    assert (page.value("dost-points_0"), page.value("dost-points_1")) == ("12", "5")


@HTMX
def test_stovkahra_dost_points_missing_mark_the_team_without(series: Series,
                                                             htmx: bool) -> None:
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    with unchanged(series, mid):
        page = series.call_dost(mid, 1, 0, 2, points=(12, ""), trick_winner=0, htmx=htmx)
    at_the_field(page, "dost-points_1", "give both teams' card points", "rule 6.1")
    assert page.value("dost-points_0") == "12"


@HTMX
def test_stovkahra_dost_points_more_than_the_tricks_hold_mark_both_teams(series: Series,
                                                                         htmx: bool) -> None:
    """Two tricks, eight cards: they cannot hold 40 + 40 card points (6.3.2)."""
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    with unchanged(series, mid):
        page = series.call_dost(mid, 1, 0, 2, points=(40, 40), trick_winner=0, htmx=htmx)
    at_the_fields(page, ["dost-points_0", "dost-points_1"], "not 40 + 40 = 80", "rule 6.3.2")


def misere_hand(tg: Troggu) -> str:  # noqa: F811
    """5 players, all passed: a Misère (the first hand, Anna deals)."""
    mid = tg.new_match(5)
    assert tg.bids(mid, 1, 0).status == 302
    return mid


@HTMX
def test_troggu_misere_points_without_a_trick_mark_that_player(tg: Troggu,  # noqa: F811
                                                               htmx: bool) -> None:
    """Elsa won no trick, so she has no card points (6.3.5): her points are marked."""
    mid = misere_hand(tg)
    with unchanged(tg, mid):
        page = tg.misere(mid, 1, [30, 30, 20, 15, 10], [3, 3, 3, 2, 0], htmx=htmx)
    at_the_field(page, "misere-points_4", "Elsa won no trick and so has no card points",
                 "rule 6.3.5")
    assert page.value("misere-points_4") == "10"


@HTMX
def test_troggu_misere_points_that_do_not_add_up_mark_every_player(tg: Troggu,  # noqa: F811
                                                                   htmx: bool) -> None:
    mid = misere_hand(tg)
    with unchanged(tg, mid):
        page = tg.misere(mid, 1, [30, 30, 20, 15, 11], tapp=9, htmx=htmx)
    at_the_fields(page, [f"misere-points_{seat}" for seat in range(5)],
                  "add up to 114 − the Tapp's 9 = 105, not 106", "rule 6.3.7")


@HTMX
def test_troggu_misere_tricks_missing_mark_that_player(tg: Troggu, htmx: bool) -> None:  # noqa: F811
    mid = misere_hand(tg)
    with unchanged(tg, mid):
        page = tg.act(mid, 1, "misere", {
            "misere-tapp_points": "", "misere-fool_kept": "",
            **{f"misere-points_{seat}": str(p) for seat, p in enumerate([30, 30, 20, 15, 10])},
            **{f"misere-tricks_{seat}": k for seat, k in enumerate(["3", "3", "", "3", "2"])}},
            htmx=htmx)
    at_the_field(page, "misere-tricks_2", "Give every player's tricks, or none: Carla's",
                 "rule 6.1")
