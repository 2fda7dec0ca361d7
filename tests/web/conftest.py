"""Fixtures of the web tests: drivers of the pages (see webtools.py): ``table`` (Tartli),
``series`` (Stovkahra) and ``game`` (Marjolet)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import Marjolet, Series, Table


@pytest.fixture
def table(app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> Table:
    return Table(app, client, csrf_token)


@pytest.fixture
def series(app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> Series:
    return Series(app, client, csrf_token)


@pytest.fixture
def game(app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> Marjolet:
    return Marjolet(app, client, csrf_token)
