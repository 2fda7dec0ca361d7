"""The rows of the history of changes are rendered once for what they show (issue 12:
matches/rows.py): a process that has shown them before shows them as a process that never saw
them does, and a row's Restore form always carries the CSRF token of the answer that shows
it, so that it can be posted."""

from __future__ import annotations

import re

from flask import Flask
from markupsafe import Markup
from webtools import A, B, Table, hand, played

from referee import create_app
from referee.web.recent import Recent

X = hand("8h", end=played((80, 71), A))
Y = hand("9l", end=played((100, 51), A))
Z = hand("Ab", end=played((60, 91), B))
RESTORE = re.compile(r'<form method="post" action="(/m/[\w-]+/changes/\d+/restore)"[^>]*>'
                     r'<input name="csrf_token" type="hidden" value="([^"]+)">')
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="[^"]+"')


def changes(html: str) -> str:
    found = re.search(r'<section class="changes".*?</section>', html, re.S)
    assert found is not None
    return found.group(0)


def page_token(html: str) -> str:
    found = re.search(r'"X-CSRFToken": "([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_the_changes_are_shown_as_a_new_process_shows_them(app: Flask, table: Table) -> None:
    mid = table.seed([X, Y, Z])
    for n in (3, 1):
        urls = re.findall(rf'hx-post="(/m/{mid}/hands/{n}/delete\?base=[^"]+)"',
                          table.get(f"/m/{mid}").html)
        assert table.post(urls[0].replace("&amp;", "&")).status == 302
    kept: Recent[Markup] = app.extensions["referee.change_rows"]
    first = table.get(f"/m/{mid}").html
    rendered = len(kept)
    assert rendered == 3                       # seeded, and the two deletes
    shown = app.test_client().get(f"/m/{mid}").get_data(as_text=True)    # another phone
    assert len(kept) == rendered         # every row taken from the kept ones
    fresh = create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"],
                        "SECRET_KEY": app.config["SECRET_KEY"]})
    try:
        new = fresh.test_client().get(f"/m/{mid}").get_data(as_text=True)
    finally:
        fresh.extensions["referee.store"].engine.dispose()
    assert TOKEN.sub("", changes(shown)) == TOKEN.sub("", changes(new)) \
        == TOKEN.sub("", changes(first))
    # each answer's Restore forms carry its own session's token (never one kept), and the
    # form can be posted
    forms = RESTORE.findall(changes(shown))
    assert len(forms) == 2
    assert {token for _, token in forms} == {page_token(shown)} != {page_token(first)}
    assert not any(page_token(first) in row for row in kept.values())
    url, token = RESTORE.findall(changes(table.get(f"/m/{mid}").html))[-1]   # hand 3's delete
    assert table.post(url, token=token).status == 302
    assert len(table.hands(mid)) == 2
