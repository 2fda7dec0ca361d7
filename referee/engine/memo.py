"""What is worked out once from an object that is never changed in place, remembered by the
object itself (issue 12: the stored hands a long match's requests pass again and again)."""

from __future__ import annotations

from typing import Generic, TypeVar

Value = TypeVar("Value")


class ByIdentity(Generic[Value]):
    """Values by the identity of the object they were worked out from. Each object is kept
    alive here with its value, so that no other object can take its id meanwhile; at ``most``
    objects everything is forgotten at once. Only for objects nobody changes in place."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._by_id: dict[int, tuple[object, Value]] = {}

    def get(self, thing: object) -> Value | None:
        found = self._by_id.get(id(thing))
        return found[1] if found is not None and found[0] is thing else None

    def put(self, thing: object, value: Value) -> None:
        if len(self._by_id) >= self._most:
            self._by_id.clear()
        self._by_id[id(thing)] = (thing, value)
