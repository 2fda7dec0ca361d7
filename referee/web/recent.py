"""What a process keeps of what it rendered lately (rows, charts), by a key that says all it
shows; the least recently used go first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class Recent(Generic[Value]):
    """At most ``kept`` values by key, the least recently used dropped first."""

    def __init__(self, kept: int) -> None:
        self._kept = kept
        self._values: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Value | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def __len__(self) -> int:
        return len(self._values)

    def values(self) -> list[Value]:
        with self._lock:
            return list(self._values.values())

    def put(self, key: Hashable, value: Value) -> None:
        with self._lock:
            self._values[key] = value
            while len(self._values) > self._kept:
                self._values.popitem(last=False)
