"""Forms of one button: a POST that carries only its CSRF token."""

from __future__ import annotations

from flask_wtf import FlaskForm


class ButtonForm(FlaskForm):
    """A POST-only button: only the CSRF token."""
