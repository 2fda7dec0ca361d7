"""A trusted hand's ``detail`` made when first read (issue 12): what the two-player games
(Tartli, Marjolet) share.

A long match's stored hands are folded for their scores; their facts and the checks' verdicts
(``detail``) are read by a page only on demand. ``LaterDetail`` is that ``detail``: a dict
whose entries given at once are there already and whose others a game's subclass makes on the
first read of any of them (by key, ``get``, ``in``, iteration or comparison). An entry set on
it meanwhile (``detail["claim_right"] = ...``) stays as set.
"""

from __future__ import annotations

from _collections_abc import dict_items, dict_keys, dict_values
from collections.abc import Iterator
from typing import Any


class LaterDetail(dict[str, Any]):
    """The subclass makes its entries in ``_make`` (once: ``_made`` tells whether it has),
    each with ``dict.setdefault`` so that an entry set meanwhile stays."""

    __slots__ = ()

    def _made(self) -> bool:
        raise NotImplementedError

    def _make(self) -> None:
        raise NotImplementedError

    def _filled(self) -> LaterDetail:
        if not self._made():
            self._make()
        return self

    def __missing__(self, key: str) -> Any:
        if self._made():
            raise KeyError(key)
        return dict.__getitem__(self._filled(), key)

    def get(self, key: str, default: Any = None) -> Any:
        return dict.get(self._filled(), key, default)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self._filled(), key)

    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self._filled())

    def __len__(self) -> int:
        return dict.__len__(self._filled())

    def keys(self) -> dict_keys[str, Any]:
        return dict.keys(self._filled())

    def values(self) -> dict_values[str, Any]:
        return dict.values(self._filled())

    def items(self) -> dict_items[str, Any]:
        return dict.items(self._filled())

    def copy(self) -> dict[str, Any]:
        return dict(dict.items(self._filled()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LaterDetail):
            other._filled()
        return dict.__eq__(self._filled(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        return dict.__repr__(self._filled())
