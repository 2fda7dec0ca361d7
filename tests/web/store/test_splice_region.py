"""``splice.region``, the run of hands a change differs in, is the same whether the hands on
both sides are the very same objects (the stored hands a request kept) or equal copies (issue
12: found without looking into the unchanged hands)."""

from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

from referee.web.store.splice import Facts, region

HANDS = st.lists(st.integers(0, 3), max_size=12)


def naive(before: list[Facts], after: list[Facts], removes: int | None,
          inserts: int | None) -> tuple[int, int, int]:
    """region as written out hand by hand."""
    n, m = len(before), len(after)
    start = 0
    while start < min(n, m) and before[start] == after[start]:
        start += 1
    if removes is not None and 0 <= removes < n:
        start = min(start, removes)
    if inserts is not None and 0 <= inserts < m:
        start = min(start, inserts)
    limit = min(n, m) - start
    if removes is not None and 0 <= removes < n:
        limit = min(limit, n - 1 - removes)
    if inserts is not None and 0 <= inserts < m:
        limit = min(limit, m - 1 - inserts)
    same = 0
    while same < limit and before[n - 1 - same] == after[m - 1 - same]:
        same += 1
    return start, n - same, m - same


@given(HANDS, HANDS, st.none() | st.integers(0, 12), st.none() | st.integers(0, 12),
       st.booleans())
def test_region_of_shared_or_copied_hands(old: list[int], new: list[int], removes: int | None,
                                          inserts: int | None, shared: bool) -> None:
    pool = [{"dealer": k, "end": {"points": k * 10}} for k in range(4)]
    before = [pool[k] for k in old]
    after = [pool[k] if shared else copy.deepcopy(pool[k]) for k in new]
    assert region(before, after, removes=removes, inserts=inserts) == naive(
        before, after, removes, inserts)
