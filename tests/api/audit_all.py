"""Opt-in: audit every campaign an API test leaves behind (CHRONICLE_AUDIT_ALL=1).

The audit must never cry wolf: every rolling command's log has to verify. Run
`CHRONICLE_AUDIT_ALL=1 .venv/bin/pytest -n 2 -k sqlite tests/api` after adding a command or an event
that rolls, changes a sheet or reveals a seed; each test then fails if its campaigns do not verify.
"""

from __future__ import annotations

import os
from uuid import UUID

from domain.audit import verify_export
from domain.export import campaign_entries
from tests.client import TestClient

ENABLED = os.environ.get("CHRONICLE_AUDIT_ALL") == "1"
PAGE = 500


def audit_every_campaign(client: TestClient) -> None:
    app = client.app.state.chronicle  # type: ignore[attr-defined]
    for campaign_id in _campaign_ids(app):
        report = verify_export(campaign_entries(app, campaign_id))
        assert report.intact, [p.describe() for p in report.problems][:10]


def _campaign_ids(app: object) -> set[UUID]:
    ids: set[UUID] = set()
    start = 1
    while True:
        notifications = app.recorder.select_notifications(start=start, limit=PAGE)  # type: ignore[attr-defined]
        ids.update(n.originator_id for n in notifications if n.topic.endswith(":Campaign.Created"))
        if len(notifications) < PAGE:
            return ids
        start = notifications[-1].id + 1
