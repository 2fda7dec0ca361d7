"""Money games keep a ledger: one signed amount per player per hand, balances that add up to 0,
and a settle-up (Troggu 7.5).

``settle_up`` is the rule of Troggu 7.5.3: while a balance is not 0, the largest debt pays the
largest credit the smaller of the two amounts, ties to the earlier seat. It never needs more
than one payment fewer than the players with a non-zero balance. It is not always the fewest
possible (when the balances split into groups that each add up to 0, every group could save a
payment): ``fewest_transfers`` and ``zero_sum_groups`` give that minimum for comparison, but the
settle-up follows the rule as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import RuleViolation
from .words import T

Transfer = tuple[int, int, int]
"""``(payer, payee, amount)``: seats (indexes into the balances) and a positive amount."""

MAX_SETTLED = 16      # the exact split looks at 2^n groups of the players with a balance


def _check(balances: Sequence[int]) -> list[int]:
    values = list(balances)
    if any(isinstance(b, bool) or not isinstance(b, int) for b in values):
        raise RuleViolation("settle.number", T("Every balance must be a whole number"), "7.5")
    if sum(values) != 0:
        raise RuleViolation(
            "settle.sum",
            T("The balances add up to %(sum)s, not 0: nothing to settle", sum=sum(values)),
            "7.5.2",
        )
    if sum(1 for b in values if b) > MAX_SETTLED:
        raise RuleViolation(
            "settle.players",
            T("A settle-up takes at most %(most)s players with a balance", most=MAX_SETTLED),
            "7.5.3",
        )
    return values


def _greedy(values: list[int], group: list[int] | None = None) -> list[Transfer]:
    """Troggu 7.5.3: while a balance is not 0, the largest debt pays the largest credit the
    smaller of the two amounts; ties go to the earlier seat. With ``group`` (a group number per
    seat) a debtor pays only a creditor of his own group."""
    left = list(values)
    transfers: list[Transfer] = []
    while any(left):
        payer = min(range(len(left)), key=lambda s: (left[s], s))          # largest debt
        payees = [s for s in range(len(left)) if left[s] > 0
                  and (group is None or group[s] == group[payer])]
        payee = min(payees, key=lambda s: (-left[s], s))                     # largest credit
        amount = min(-left[payer], left[payee])
        transfers.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return transfers


def zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """The players with a non-zero balance split into as many groups as possible that each
    add up to 0 (seats in each group ascending; groups by their first seat)."""
    seats = [s for s, b in enumerate(values) if b]
    n = len(seats)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + values[seats[low]]
    # best[mask]: the most zero-sum groups into which the players of ``mask`` can be put in
    # some order (a chain of removals); a mask counts once more when its own sum is 0.
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        best[mask] = max(best[mask & ~(1 << i)] for i in range(n) if mask >> i & 1) + (
            1 if total[mask] == 0 else 0
        )
    groups: list[list[int]] = []
    mask, current = full, []
    while mask:
        drop = max(
            (i for i in range(n) if mask >> i & 1),
            key=lambda i: (best[mask & ~(1 << i)], -i),
        )
        current.append(seats[drop])
        mask &= ~(1 << drop)
        if total[mask] == 0:           # what was removed since the last zero sum is a group
            groups.append(sorted(current))
            current = []
    return sorted(groups)


def fewest_transfers(balances: Sequence[int]) -> int:
    values = _check(balances)
    return sum(1 for b in values if b) - len(zero_sum_groups(values))


def settle_up(balances: Sequence[int]) -> list[Transfer]:
    """The payments ``(payer, payee, amount)`` of Troggu 7.5.3 after which every balance is 0.

    The balances are one whole number per seat (Rappen), adding up to 0; a RuleViolation
    otherwise. Never more than (players with a balance) − 1 payments."""
    return _greedy(_check(balances))


__all__ = ["Transfer", "fewest_transfers", "settle_up", "zero_sum_groups"]
