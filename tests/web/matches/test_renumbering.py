"""A form is about one hand at one place. When a delete or an undo moves hands to other
numbers, a form built before it is stale even if the hand now at that number has the very
same facts (ordinary in Tartli: two hands with the same indicator and piles, dealt by the
same player)."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from webtools import A, B, Table, hand, played

SAME = hand("8h", end=played((80, 71), A))


def delete_url(table: Table, mid: str, n: int) -> str:
    # the Delete button posts with htmx (hx-post); without JavaScript it asks first (a GET)
    urls = re.findall(rf'hx-post="(/m/{mid}/hands/{n}/delete\?base=[^"]+)"',
                      table.get(f"/m/{mid}").html)
    assert len(urls) == 1
    return urls[0].replace("&amp;", "&")


def test_two_phones_deleting_the_same_of_two_identical_hands_delete_one(
        app: Flask, table: Table) -> None:
    mid = table.seed([SAME, SAME, SAME])
    first = delete_url(table, mid, 2)
    second = delete_url(table, mid, 2)                    # the other phone, same page
    assert table.post(first).status == 302
    assert len(table.hands(mid)) == 2
    refused = table.post(second)
    assert refused.status == 409
    assert "another device" in " ".join(refused.errors)
    assert len(table.hands(mid)) == 2                     # not a second hand gone


def test_an_edit_form_is_stale_once_an_earlier_hand_is_deleted(app: Flask,
                                                               table: Table) -> None:
    mid = table.seed([SAME, SAME, SAME])
    editor = table.get(f"/m/{mid}/hands/2")
    finish = re.search(rf'action="(/m/{mid}/hands/2/finish\?[^"]+)"', editor.html)
    assert finish
    assert table.post(delete_url(table, mid, 1)).status == 302   # hand 3 is now hand 2
    before = table.hands(mid)
    page = table.post(finish.group(1).replace("&amp;", "&"),
                      {"finish-pile": "100", "finish-pile_player": "0", "finish-last": "1"},
                      prefix="finish")
    assert page.status == 409
    assert table.hands(mid) == before


def test_an_undo_also_renumbers(app: Flask, table: Table) -> None:
    mid = table.seed([SAME, SAME])
    stale = delete_url(table, mid, 2)
    assert table.post(delete_url(table, mid, 1)).status == 302
    undo = re.search(rf'action="(/m/{mid}/undo\?event=\d+)"', table.get(f"/m/{mid}").html)
    assert undo and table.post(undo.group(1)).status == 302      # hand 1 is back
    assert len(table.hands(mid)) == 2
    assert table.post(stale).status == 409
    assert len(table.hands(mid)) == 2


OTHER = hand("9l", end=played((100, 51), A))
# as stored once a change has recorded each hand's dealer (6.1.1): the first dealer is Ágnes
SAME_A, OTHER_B = {**SAME, "dealer": A}, {**OTHER, "dealer": B}


def restore_urls(table: Table, mid: str) -> list[str]:
    return re.findall(rf'action="(/m/{mid}/changes/\d+/restore)"', table.get(f"/m/{mid}").html)


def test_a_deleted_hand_is_restored_after_later_changes(app: Flask, table: Table) -> None:
    mid = table.seed([SAME, OTHER, SAME])
    assert restore_urls(table, mid) == []
    assert table.post(delete_url(table, mid, 2)).status == 302       # OTHER goes
    assert table.post(delete_url(table, mid, 2)).status == 302       # and a later change
    assert table.hands(mid) == [SAME_A]
    first, second = restore_urls(table, mid)                         # newest first
    page = table.follow(table.post(second))                          # the first delete
    assert table.hands(mid) == [SAME_A, OTHER_B]
    assert "Hand 2 restored." in page.notices
    assert "Hand 2 restored" in page.text and len(restore_urls(table, mid)) == 1
    assert table.post(second).status == 404                          # not twice
    assert table.hands(mid) == [SAME_A, OTHER_B]
    # the restore is an event like any other: undo takes it back, and Restore is offered again
    undo = re.search(rf'action="(/m/{mid}/undo\?event=\d+)"', table.get(f"/m/{mid}").html)
    assert undo and table.post(undo.group(1)).status == 302
    assert table.hands(mid) == [SAME_A] and len(restore_urls(table, mid)) == 2


def test_a_view_link_offers_no_restore(app: Flask, table: Table) -> None:
    mid = table.seed([SAME, OTHER])
    assert table.post(delete_url(table, mid, 2)).status == 302
    assert len(restore_urls(table, mid)) == 1
    store = app.extensions["referee.store"]
    view = store.load(mid).view_token
    assert "/restore" not in table.get(f"/m/{view}").html
    event = store.load(mid, 10).events[0].id
    assert table.post(f"/m/{view}/changes/{event}/restore").status == 403
    assert table.hands(mid) == [SAME_A]


def test_the_whole_history_of_changes_has_its_page(app: Flask, table: Table) -> None:
    mid = table.seed([SAME])
    store = app.extensions["referee.store"]
    hands = [SAME]
    for number in range(60):                    # more changes than the match page lists
        changed = [hand("8h" if number % 2 else "9l", end=played((80, 71), A))]
        store.save_hands(mid, hands, changed, f"Change {number}", "test")
        hands = changed
    page = table.get(f"/m/{mid}")
    assert "Change 59" in page.text and "Change 5 " not in page.text
    assert f'href="/m/{mid}/changes"' in page.html
    view = store.load(mid).view_token
    for token in (mid, view):
        everything = table.get(f"/m/{token}/changes")
        assert everything.status == 200
        assert all(f"Change {n} " in everything.text for n in range(60))
    assert mid not in table.get(f"/m/{view}/changes").html


def poll_url(page_html: str, typed: bool = True) -> str:
    """The live poll of a page; ``typed``: as sent while something is typed into its editor
    (warned of a change elsewhere, not brought the editor as it now stands)."""
    found = re.search(r'<div id="scoreboard"[^>]*hx-get="([^"]+)"', page_html)
    assert found
    return found.group(1).replace("&amp;", "&") + f"&typed={int(typed)}"


def another_phone(app: Flask, csrf_token: Callable[..., str]) -> Table:
    """A second phone at the table: its own browser session (cookie, device id)."""
    client = app.test_client()
    return Table(app, client, lambda url="/", other=None: csrf_token(url, other or client))


def test_the_live_poll_warns_an_editor_whose_hand_another_phone_changed(
        app: Flask, table: Table, csrf_token: Callable[..., str]) -> None:
    mid = table.seed([SAME, OTHER])
    other = another_phone(app, csrf_token)
    editing_1 = poll_url(table.get(f"/m/{mid}/hands/1").html)
    new_hand = poll_url(table.get(f"/m/{mid}").html)          # the editor of hand 3 (new)
    assert "hand=1" in editing_1 and "hand=3" in new_hand
    quiet = table.get(editing_1, htmx=True)
    assert quiet.status == 200 and "just changed on another phone" not in quiet.text
    # another phone finishes hand 1 differently: only the editor of hand 1 is warned
    assert other.finish(mid, 1, 100, last=A).status == 302
    warned = table.get(editing_1, htmx=True)
    assert "Hand 1 was just changed on another phone" in warned.text
    assert "just changed on another phone" not in table.get(new_hand, htmx=True).text
    # ... and the editor of the new hand 3 once another phone starts hand 3
    assert other.indicator(mid, 3, "9l").status == 302
    assert "Hand 3 was just changed on another phone" in table.get(new_hand, htmx=True).text


def test_the_live_poll_never_warns_a_phone_of_its_own_change(
        app: Flask, table: Table, csrf_token: Callable[..., str]) -> None:
    """Issue 11, item 8: a poll this phone sent before the answer to its own change came
    back (a slow network) asks with the old base; only a change made elsewhere warns."""
    mid = table.seed([SAME, OTHER])
    new_hand = poll_url(table.get(f"/m/{mid}").html)          # the editor of hand 3 (new)
    assert table.indicator(mid, 3, "9l").status == 302       # this phone starts hand 3
    late = table.get(new_hand, htmx=True)                     # the poll sent meanwhile
    assert late.status == 200 and "Trumps" not in late.text   # the new scoreboard ...
    assert "just changed on another phone" not in late.text   # ... and no alarm
    editing_1 = poll_url(table.get(f"/m/{mid}/hands/1").html)
    assert table.finish(mid, 1, 100, last=A).status == 302
    assert "just changed on another phone" not in table.get(editing_1, htmx=True).text
    # Once another phone's change is the latest, the same old polls warn.
    other = another_phone(app, csrf_token)
    assert other.finish(mid, 1, 90, last=A).status == 302
    assert "Hand 1 was just changed on another phone" in table.get(editing_1, htmx=True).text
    assert "Hand 3 was just changed on another phone" in table.get(new_hand, htmx=True).text
