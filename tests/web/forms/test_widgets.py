"""The app writes WTForms' fields' attributes with its own ``html_params`` (issue 12:
referee/web/forms/widgets.py): the very HTML WTForms' own writes, for any attributes."""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup
from wtforms import widgets as wtforms_widgets
from wtforms.widgets import core

from referee.web.forms import widgets

NAMES = st.from_regex(r"\A(data_|aria_)?[a-z][a-z_]{0,8}\Z") | st.sampled_from(
    ["class_", "for_", "id", "name", "value", "checked", "hx_post", "data_x_y_"])
VALUES = (st.booleans() | st.none() | st.integers() | st.text(max_size=12)
          | st.text(alphabet='<>&"\' a', max_size=6)
          | st.text(alphabet='<>&"\' a', max_size=6).map(Markup))


@given(st.dictionaries(NAMES, VALUES, max_size=6))
def test_the_same_attributes_as_wtforms_writes(attributes: dict[str, Any]) -> None:
    ours = widgets.html_params(**attributes)
    assert isinstance(ours, Markup)
    assert ours == widgets.ORIGINAL(**attributes)


def test_every_widget_and_label_writes_with_it(app: Flask) -> None:
    assert app is not None                                  # the app installs it
    for written in (core.html_params, wtforms_widgets.html_params, core.Input.html_params,
                    core.Button.html_params):
        assert written is widgets.html_params
