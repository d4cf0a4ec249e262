"""How far the views are behind the log: read by `GET /ready`, `/metrics` and `chronicle status`."""

from __future__ import annotations

from dataclasses import dataclass

from domain.application import Chronicle
from projections.runner import ViewReader


@dataclass(frozen=True)
class Lag:
    head: int  # the log's last position
    views: int  # the last position the views applied

    @property
    def events(self) -> int:
        """Positions the views have still to apply (an upper bound on PostgreSQL, where the log
        has gaps: every rejected save burns a position)."""
        return max(0, self.head - self.views)

    def within(self, bound: int) -> bool:
        return self.events <= bound


def lag_of(app: Chronicle, views: ViewReader) -> Lag:
    # The views first: a head read after them is never behind them, so the lag is never negative.
    position = views.position()
    return Lag(head=app.recorder.max_notification_id() or 0, views=position)
