"""Static files (issue 12): pages link them under versioned addresses that may be kept a year;
htmx, the style sheets and the scripts go gzipped to a browser that takes it; the plain address
still answers, with a short cache."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.web.assets import StaticFiles

STATIC = Path(__file__).resolve().parents[2] / "static"
YEAR = "public, max-age=31536000, immutable"


def linked(client: FlaskClient) -> dict[str, str]:
    """Each static file the home page links, by name: the address it links."""
    page = client.get("/").get_data(as_text=True)
    return {m[1]: m[0] for m in re.findall(r'(?:href|src)="(/static/([^"?]+)(?:\?[^"]*)?)"',
                                             page)}


def test_pages_link_each_static_file_under_the_version_of_its_content(
        client: FlaskClient) -> None:
    links = linked(client)
    assert {"css/referee.css", "css/night.css", "js/table.js"} <= set(links)
    assert any(name.startswith("vendor/htmx-") for name in links)
    for name, address in links.items():
        digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
        assert address == f"/static/{name}?v={digest}"


@pytest.mark.parametrize("kind", ["vendor/htmx-", "css/referee.css", "css/night.css",
                                  "js/table.js"])
def test_a_versioned_file_is_kept_a_year_and_sent_gzipped_when_asked(
        client: FlaskClient, kind: str) -> None:
    name, address = next((n, a) for n, a in linked(client).items() if n.startswith(kind))
    content = (STATIC / name).read_bytes()
    zipped = client.get(address, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert zipped.status_code == 200
    assert zipped.headers["Cache-Control"] == YEAR
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.vary
    assert gzip.decompress(zipped.get_data()) == content
    assert len(zipped.get_data()) < len(content)
    assert zipped.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")
    assert zipped.headers["X-Content-Type-Options"] == "nosniff"
    # A browser that takes no gzip gets the file itself, as long.
    plain = client.get(address)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert plain.get_data() == content
    assert plain.headers["Cache-Control"] == YEAR and "Accept-Encoding" in plain.vary
    # Asked again with the tag it was given: nothing to send.
    again = client.get(address, headers={"Accept-Encoding": "gzip",
                                         "If-None-Match": zipped.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""


def test_the_plain_address_and_a_stale_version_answer_with_a_short_cache(
        client: FlaskClient) -> None:
    content = (STATIC / "js" / "table.js").read_bytes()
    for address in ("/static/js/table.js", "/static/js/table.js?v=000000000000"):
        response = client.get(address, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        assert gzip.decompress(response.get_data()) == content
        cache = response.headers["Cache-Control"]
        assert "immutable" not in cache
        short = re.fullmatch(r"public, max-age=(\d+)", cache)
        assert short is not None and int(short[1]) <= 3600


def test_no_file_outside_static_and_none_that_is_missing(client: FlaskClient) -> None:
    for address in ("/static/nothing.css", "/static/../referee/__init__.py",
                    "/static/%2e%2e/pyproject.toml"):
        assert client.get(address, headers={"Accept-Encoding": "gzip"}).status_code == 404


def test_a_changed_file_gets_a_new_version(tmp_path: Path) -> None:
    """Edited while the server runs (as in development): its address changes with it, so no
    browser keeps the old content under the new version."""
    (tmp_path / "a.css").write_text("p { color: red }")
    files = StaticFiles(tmp_path)
    first = files.version("a.css")
    (tmp_path / "a.css").write_text("p { color: blue; }")
    second = files.version("a.css")
    assert first and second and first != second
    assert second == hashlib.sha256(b"p { color: blue; }").hexdigest()[:12]
    assert files.version("missing.css") is None
