"""The phone's language in Chromium at 390×844 (issue 22): one tap on a language in the footer's
menu shows the page in it, the choice survives a reload and another page, the menu's links
are 44 px targets, and it works without JavaScript too."""

from __future__ import annotations

from typing import Any

import pytest
from phone import new_troggu, touch_phone

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


def _menu_link(page: Any, name: str) -> Any:
    return page.locator("footer.languages").get_by_role("link", name=name, exact=True)


@pytest.mark.parametrize("javascript", [True, False])
def test_one_tap_on_magyar_switches_and_the_choice_survives_a_reload(
        chromium: Any, server: str, javascript: bool) -> None:
    page = touch_phone(chromium, javascript=javascript)
    page.goto(server + "/new/tartli")
    assert page.locator("html").get_attribute("lang") == "en"
    magyar = _menu_link(page, "Magyar")
    box = magyar.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    magyar.tap()
    page.wait_for_load_state("networkidle")
    assert page.url.startswith(server + "/new/tartli")
    assert page.locator("html").get_attribute("lang") == "hu"
    assert _menu_link(page, "Magyar").get_attribute("aria-current") == "true"
    assert _menu_link(page, "English").get_attribute("aria-current") is None
    page.goto(server + "/new/tartli")                     # no ?lang= any more: the cookie
    assert page.locator("html").get_attribute("lang") == "hu"
    page.reload()
    assert page.locator("html").get_attribute("lang") == "hu"
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "hu"


def test_the_menu_is_on_a_match_page_and_its_htmx_requests_keep_the_language(
        chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_troggu(page, server)
    match = page.url
    _menu_link(page, "Deutsch (Schweiz)").tap()
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == "de-CH"
    asked: list[str] = []
    page.on("requestfinished", lambda request: asked.append(
        request.all_headers().get("cookie", "")) if request.headers.get("hx-request") else None)
    page.goto(match)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)                          # the live scoreboard asks every second
    assert asked and all("lang=de_CH" in cookie for cookie in asked)
    links = page.locator("footer.languages a")
    assert links.count() == 5
    for index in range(5):
        box = links.nth(index).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
