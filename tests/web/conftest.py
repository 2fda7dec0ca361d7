"""Fixtures of the web tests: ``table``, a driver of the Tartli pages (see webtools.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import Table


@pytest.fixture
def table(app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> Table:
    return Table(app, client, csrf_token)
