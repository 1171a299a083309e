"""One page of a longer list: the arithmetic every paginated page shows ("21–40 of 57, page 2 of 3")."""
from __future__ import annotations


class Paged:
    """For a dataclass with `total`, `page` (from 1) and `per_page`."""

    total: int
    page: int
    per_page: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def first(self) -> int:
        return (self.page - 1) * self.per_page + 1 if self.total else 0

    @property
    def last(self) -> int:
        return min(self.total, self.page * self.per_page)
