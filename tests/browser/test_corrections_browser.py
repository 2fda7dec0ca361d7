"""A correction across a tie through the real pages in Debian's chromium: the refusal is
swapped in by htmx (422) with its ways out, and one tap saves the edit with the correction."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "web"))
from webtools import TIE_HANDS, A, B, decider, hand, played  # noqa: E402

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

LATER = hand("8h", "", None, played((80, 71), B))


def test_an_edit_that_removes_a_tie_and_its_decider(page: object, server: str,
                                                    tmp_path: Path) -> None:
    expect = playwright_api.expect
    file = tmp_path / "tartli.json"
    file.write_text(json.dumps({
        "format": "referee-match", "version": 1, "game": "tartli", "created": "2026-03-14",
        "settings": {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0},
        "hands": TIE_HANDS + [decider(B), LATER],
    }))
    page.goto(server)  # type: ignore[attr-defined]
    page.set_input_files("form[action='/import'] input[type=file]", str(file))  # type: ignore[attr-defined]
    page.click("button:text-is('Import')")  # type: ignore[attr-defined]
    expect(page.locator(".notice")).to_contain_text("Match imported")  # type: ignore[attr-defined]
    match_url = re.sub(r"\?.*", "", page.url)  # type: ignore[attr-defined]

    page.goto(f"{match_url}/hands/2")  # type: ignore[attr-defined]
    page.fill("#finish-pile", "70")  # type: ignore[attr-defined]
    page.check("#finish-last-0")  # type: ignore[attr-defined]
    page.click("text=Score the hand")  # type: ignore[attr-defined]
    expect(page.locator("#rule-error")).to_contain_text(  # type: ignore[attr-defined]
        "a later hand no longer fits. Hand 3: A decider hand follows only a tie of 501 or more")
    expect(page.locator("#finish-pile")).to_have_value("70")  # type: ignore[attr-defined]
    url_before = page.url  # type: ignore[attr-defined]
    page.click("button:has-text('Save and remove hand 3')")  # type: ignore[attr-defined]
    expect(page.locator(".notice").first).to_contain_text(  # type: ignore[attr-defined]
        "Corrected with it: remove hand 3")
    assert page.url == url_before  # type: ignore[attr-defined]  # htmx: no page load
    expect(page.locator("#undo")).to_contain_text(  # type: ignore[attr-defined]
        "Undo: Hand 2 edited (hand finished), with correction: remove hand 3")
    body = page.request.get(f"{match_url}/match.json").json()  # type: ignore[attr-defined]
    assert [h["end"]["kind"] for h in body["hands"]] == ["played", "played", "played"]
    assert body["hands"][1]["end"]["piles"] == [70, 81] and body["hands"][1]["end"]["last"] == A
