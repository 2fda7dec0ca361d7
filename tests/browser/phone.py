"""A phone at the table, for the tap-counting tests (issue 11, items 1 and 2): a 390×844 touch
viewport, every tap and every number typed counted, and the check that what the table needs to
see after an action is on the screen without scrolling."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from flask import Flask
from werkzeug.serving import make_server

WIDTH, HEIGHT = 390, 844


@contextlib.contextmanager
def served(app: Flask) -> Iterator[str]:
    """``app`` served on a free port of this computer by a thread (as phones reach it): its
    address, while the block runs."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=5)


def touch_phone(browser: Any, *, javascript: bool = True) -> Any:
    """A page in a fresh context the size of a phone held in one hand, tapped with a finger."""
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True, is_mobile=True,
        java_script_enabled=javascript, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


class Hand:
    """Counts what the table does to enter a hand: ``tap`` a control, ``type`` a number.
    A tap on a link or a submit button that loads a page waits for it (htmx swaps included:
    it waits for the network to be idle)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.numbers = 0

    def tap(self, locator: Any) -> None:
        locator.tap()           # scrolls it into view first; waits while a swap replaces it
        self.taps += 1
        self.page.wait_for_load_state("networkidle")

    def type(self, locator: Any, number: int) -> None:
        locator.fill(str(number))
        self.numbers += 1

    @property
    def count(self) -> tuple[int, int]:
        return self.taps, self.numbers


def in_view(locator: Any) -> bool:
    """The element is shown and wholly inside the viewport as it is now (not scrolled to)."""
    page = locator.page
    if not locator.is_visible():
        return False
    box = locator.bounding_box()
    viewport = page.viewport_size
    return (box is not None and box["y"] >= 0 and box["x"] >= 0
            and box["y"] + box["height"] <= viewport["height"]
            and box["x"] + box["width"] <= viewport["width"] + 0.5)


def page_height(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollHeight"))


def new_series(page: Any, server: str) -> None:
    """A new Stovkahra series of Anna and Cilka (north, south) against Boris and David."""
    page.goto(f"{server}/new/stovkahra")
    for field, name in (("north", "Anna"), ("east", "Boris"), ("south", "Cilka"),
                        ("west", "David")):
        page.fill(f"#{field}", name)
    page.click("text=Start the series")


FIVE = ["Anna", "Beat", "Carla", "Dario", "Elsa"]


def new_troggu(page: Any, server: str, names: list[str] = FIVE) -> None:
    """A new Troggu match of ``names`` (five by default), in the order of its seats."""
    page.goto(f"{server}/new/troggu")
    seats = page.locator("input[name='players']")
    for seat, name in enumerate(names):
        seats.nth(seat).fill(name)
    page.click("text=Start the match")
