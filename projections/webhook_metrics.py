"""The count of webhook deliveries this process attempted, for `/metrics`.

The delivery code (`projections.webhooks.Outbox.record`) calls `count_webhook_delivery` once per
attempt it notes, with what became of it: "delivered" (a 2xx answer), "retrying" (failed, tried again after the backoff) or "failed"
(given up). It runs in the views runner's process (`chronicle serve` embedded, or `chronicle
project`), so this lives below the API, in the process-wide registry of prometheus_client.
"""

from __future__ import annotations

from typing import Literal

from prometheus_client import Counter

DeliveryOutcome = Literal["delivered", "retrying", "failed"]

WEBHOOK_DELIVERIES = Counter(
    "chronicle_webhook_deliveries",
    "Webhook delivery attempts made by this process, by what became of them.",
    ["outcome"],
)


def count_webhook_delivery(outcome: DeliveryOutcome) -> None:
    WEBHOOK_DELIVERIES.labels(outcome=outcome).inc()
