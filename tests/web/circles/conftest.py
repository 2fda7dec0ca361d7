"""The circles' tests' shared fixture: a form posted by the test client's browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from webtools import Page


@pytest.fixture
def post(client: FlaskClient, csrf_token: Callable[..., str]) -> Callable[..., Page]:
    """``post(path, data, csrf=True)``: a form posted by this browser, read."""
    token = csrf_token("/")

    def send(path: str, data: dict[str, Any] | None = None, csrf: bool = True,
             **kwargs: Any) -> Page:
        form = dict(data or {})
        if csrf:
            form["csrf_token"] = token
        return Page.of(client.post(path, data=form, **kwargs))
    return send
