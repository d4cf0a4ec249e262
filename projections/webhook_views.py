"""What a webhook's events change in the views: the document the dispatcher matches entries with
(its URL and sealed secret stay server-side; the log entry and the step show neither)."""

from __future__ import annotations

from projections.translation import Translation


def webhook(t: Translation) -> None:
    e = t.event
    if t.name == "Registered":
        doc = {
            "id": t.id,
            "campaign_id": str(e.campaign_id),
            "url": e.receiver_url,
            "types": list(e.types),
            "description": e.description,
            "sealed_secret": e.sealed_secret,
            "status": "active",
            # entries after this position and up to the removal are pushed (projections/webhooks.py)
            "registered_at": t.position,
            "removed_at": None,
        }
        text = f"The GM added a webhook for {', '.join(e.types)}"
    else:
        doc = t.load("webhook", t.id)
        doc.update(status="removed", removed_at=t.position)
        text = f"The GM removed the webhook for {', '.join(doc['types'])}"
    t.save("webhook", doc)
    t.changes.campaign_id = doc["campaign_id"]
    t.step(text)  # no changes listed: the document holds the URL and the sealed secret
