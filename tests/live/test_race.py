"""Races between phones, against the real server (a separate process, threads on): each phone
has its own session, loads the page (its CSRF token and the form's base), then all send at
the same instant (a barrier). One change wins; every other phone gets 409 with the stored hand
and what it typed; the store holds exactly one new hand state and one new event. Each race is
run several rounds, on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from referee.engine.cards import HUNGARIAN
from referee.web.cards import face
from referee.web.store import Store, StoredMatch

from .server import Device, LiveServer, Reply

ROUNDS = 6
PHONES = 8
CARDS = ["7a", "8l", "9h", "10b", "Ua", "Ol", "Kh", "Ab"]       # one indicator per phone
FINGERPRINT = r"(?:\d+-)?[0-9a-f]{16}"      # hand_base: "<layout>-" once hands were renumbered
CHANGED = "was changed on another device meanwhile"


def race(sends: list[Callable[[], Reply]]) -> list[Reply]:
    """Run every send in its own thread, all released together."""
    barrier = threading.Barrier(len(sends))

    def go(send: Callable[[], Reply]) -> Reply:
        barrier.wait(timeout=30)
        return send()

    with ThreadPoolExecutor(len(sends)) as pool:
        return list(pool.map(go, sends))


def new_tartli(host: Device) -> str:
    host.get("/new/tartli")
    reply = host.post("/new/tartli", {"player_a": "Ágnes", "player_b": "Tamás", "target": "5",
                                      "first_dealer": "0"})
    assert reply.status == 302 and reply.location, (reply.status, reply.body[:500])
    return reply.location.rsplit("/", 1)[1]


def stored(store: Store, mid: str) -> StoredMatch:
    match = store.load(mid, events=100_000)
    assert match is not None
    return match


def one_more_event(before: StoredMatch, after: StoredMatch, kind: str) -> None:
    assert len(after.events) == len(before.events) + 1, [e.label for e in after.events[:5]]
    assert after.events[0].kind == kind
    assert after.version == before.version + 1


def conflict_section(body: str) -> str:
    found = re.search(r'<section class="conflict panel" id="conflict">.*?</section>', body,
                      re.S)
    assert found, body[:1000]
    return found.group(0)


def indicator_shown(card: str, body: str) -> bool:
    """Does the editor name the stored hand's indicator, e.g. "(indicator 8" with the hearts
    mark, named "Eight of hearts")?"""
    name = face(HUNGARIAN, card).name
    return re.search(rf'\(indicator <span[^>]*aria-label="{re.escape(name)}"', body) is not None


def typed_kept(card: str, body: str) -> bool:
    """Is the card the phone had tapped still tapped in the page it got back?"""
    return re.search(rf'value="{re.escape(card)}"[^>]*\schecked', body) is not None


def start_hand(host: Device, mid: str, n: int, card: str) -> None:
    action = host.get(f"/m/{mid}").action(rf"/m/{mid}/hands/{n}/indicator\?base=new")
    assert host.post(action, {"indicator-indicator": card}).status == 302


def finish_hand(host: Device, mid: str, n: int, pile: int) -> None:
    action = host.get(f"/m/{mid}").action(rf"/m/{mid}/hands/{n}/finish\?base={FINGERPRINT}")
    reply = host.post(action, {"finish-pile_player": "0", "finish-pile": str(pile),
                               "finish-last": "0", "finish-stichmatsch": ""})
    assert reply.status == 302, reply.body[:500]


def test_phones_starting_the_same_hand_store_it_once(live_server: LiveServer,
                                                       live_store: Store) -> None:
    host = Device(live_server.url, "host")
    mid = new_tartli(host)
    phones = [Device(live_server.url, f"phone {i}") for i in range(PHONES)]
    for n in range(1, ROUNDS + 1):
        cards = CARDS[n:] + CARDS[:n]                  # a different winner's card each round
        actions = [p.get(f"/m/{mid}").action(rf"/m/{mid}/hands/{n}/indicator\?base=new")
                   for p in phones]
        before = stored(live_store, mid)
        replies = race([partial(p.post, a, {"indicator-indicator": c})
                        for p, a, c in zip(phones, actions, cards)])
        statuses = [r.status for r in replies]
        assert sorted(statuses) == [302] + [409] * (PHONES - 1), statuses
        winner = statuses.index(302)
        after = stored(live_store, mid)
        assert len(after.hands) == len(before.hands) + 1 == n
        assert after.hands[:-1] == before.hands
        assert after.hands[-1]["indicator"] == cards[winner]
        one_more_event(before, after, "change")
        for phone, (reply, card) in enumerate(zip(replies, cards)):
            if phone == winner:
                continue
            assert f"Hand {n} {CHANGED}" in reply.body
            shown = conflict_section(reply.body)
            assert f"Stored meanwhile: hand {n}" in shown
            # the stored hand started elsewhere; what this phone typed is offered as the next
            # hand, never as a change of hand n (issue 21, item 1)
            assert "Started on the other device, not finished" in shown
            assert f"send it once hand {n} is finished to record it as hand {n + 1}" in reply.body
            assert f"/hands/{n + 1}/indicator" in reply.body
            assert typed_kept(card, reply.body)          # what it typed is kept
        finish_hand(host, mid, n, 80)                  # so that hand n + 1 can start


def test_two_phones_editing_the_same_hand(live_server: LiveServer, live_store: Store) -> None:
    host = Device(live_server.url, "host")
    mid = new_tartli(host)
    start_hand(host, mid, 1, "8h")
    finish_hand(host, mid, 1, 80)
    phones = [Device(live_server.url, "phone A"), Device(live_server.url, "phone B")]
    for round_ in range(ROUNDS):
        piles = [60 + round_, 90 + round_]           # Ágnes's pile, as each phone enters it
        actions = [p.get(f"/m/{mid}/hands/1").action(
            rf"/m/{mid}/hands/1/finish\?base={FINGERPRINT}&amp;editing=1") for p in phones]
        before = stored(live_store, mid)
        replies = race([partial(p.post, a, {
            "finish-pile_player": "0", "finish-pile": str(pile), "finish-last": "0",
            "finish-stichmatsch": ""}) for p, a, pile in zip(phones, actions, piles)])
        statuses = [r.status for r in replies]
        assert sorted(statuses) == [302, 409], statuses
        winner, loser = statuses.index(302), statuses.index(409)
        after = stored(live_store, mid)
        assert after.hands[0]["end"]["piles"] == [piles[winner], 151 - piles[winner]]
        one_more_event(before, after, "change")
        body = replies[loser].body
        assert f"Hand 1 {CHANGED}" in body
        assert str(piles[winner]) in conflict_section(body)       # the stored hand, shown
        typed = re.search(r'<input[^>]*name="finish-pile"[^>]*>', body)
        assert typed and f'value="{piles[loser]}"' in typed.group(0), typed


def test_undo_raced_against_an_edit(live_server: LiveServer, live_store: Store) -> None:
    """Phone A undoes the last change while phone B changes the same hand: exactly one of them
    happens; the other is told the match changed, and B keeps what it typed."""
    host = Device(live_server.url, "host")
    mid = new_tartli(host)
    start_hand(host, mid, 1, "8h")
    a, b = Device(live_server.url, "phone A"), Device(live_server.url, "phone B")
    won = {"undo": 0, "edit": 0}
    for round_ in range(ROUNDS * 2):
        previous = stored(live_store, mid).hands          # what an undo brings back
        action = host.get(f"/m/{mid}").action(rf"/m/{mid}/hands/1/indicator\?base={FINGERPRINT}")
        assert host.post(action, {"indicator-indicator": CARDS[round_ % 4]}).status == 302
        undo = a.get(f"/m/{mid}").action(rf"/m/{mid}/undo\?event=\d+")
        edit = b.get(f"/m/{mid}").action(rf"/m/{mid}/hands/1/indicator\?base={FINGERPRINT}")
        typed = CARDS[4 + round_ % 4]
        before = stored(live_store, mid)
        undone, edited = race([partial(a.post, undo, {}),
                               partial(b.post, edit, {"indicator-indicator": typed})])
        assert undone.status == 302, undone.body[:500]
        notice = a.get(f"/m/{mid}").body
        after = stored(live_store, mid)
        if "Undone: Trump indicator (hand 1)." in notice:
            won["undo"] += 1
            assert edited.status == 409, edited.status
            assert f"Hand 1 {CHANGED}" in edited.body
            assert conflict_section(edited.body)
            assert typed_kept(typed, edited.body)
            assert indicator_shown(previous[0]["indicator"], edited.body)
            assert after.hands == previous
            one_more_event(before, after, "undo")
        else:
            won["edit"] += 1
            assert "Nothing was undone: the match was changed on another device" in notice
            assert edited.status == 302, (edited.status, edited.body[:500])
            assert after.hands[0]["indicator"] == typed
            one_more_event(before, after, "change")
    print(f"undo raced against an edit: {won}")
