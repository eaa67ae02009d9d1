"""Plan sizes are counted without listing the plan, and refused over their limits."""

import itertools

import pytest

from golfsim.runs.limits import MAX_TASKS, distinct_orders
from golfsim.runs.tasks import split_counts
from golfsim.tournament.planning import seat_orders


@pytest.mark.parametrize("seating", ["rotations", "permutations"])
def test_the_counted_seat_orders_are_the_ones_seat_orders_lists(seating):
    for p in range(2, 6):
        for table in itertools.product(range(3), repeat=p):
            assert distinct_orders(table, seating) == len(seat_orders(table, seating)), (table, seating)


def test_split_counts_refuses_more_tasks_than_the_limit_before_listing_them():
    assert len(split_counts(MAX_TASKS * 10, 10, 1, 1)) == MAX_TASKS
    with pytest.raises(ValueError, match=r"make 200,001 tasks, and that: 200,001 is more than the limit of 200,000"):
        split_counts(MAX_TASKS * 10 + 1, 10, 1, 1)
    with pytest.raises(ValueError, match="more than the limit"):
        split_counts(2**63, 1000, 2, 2)
