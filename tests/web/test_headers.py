"""Every response carries the security headers; pages hold no inline script."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize("url", ["/", "/new/tartli", "/new/stovkahra", "/new/marjolet",
                                 "/m/does-not-exist"])
def test_security_headers(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_no_inline_script_or_style(client: FlaskClient) -> None:
    page = client.get("/new/tartli").get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert " style=" not in page and "<style" not in page
    assert re.search(r"<script[^>]*src=\"/static/vendor/htmx-2\.\d+\.\d+\.min\.js\"", page)
