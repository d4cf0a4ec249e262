"""Run by bench/load/probes.py with a checkout's own Python, in that checkout: reads the whole log of
the store in CHRONICLE_* in pages of 500, decodes every event, and prints the best of three rates
(events/s) on its last line. The floor a views worker is compared with."""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.getcwd())  # the checkout measured, not the one this file lives in

from api.main import build_application
from api.settings import Settings

PAGE = 500


def read_all(app) -> int:  # type: ignore[no-untyped-def]  # either checkout's Chronicle
    start, decoded = 1, 0
    while True:
        page = app.recorder.select_notifications(start=start, limit=PAGE)
        for notification in page:
            app.mapper.to_domain_event(notification)
        decoded += len(page)
        if len(page) < PAGE:
            return decoded
        start = page[-1].id + 1


def main() -> None:
    app = build_application(Settings())
    try:
        rates = []
        for _ in range(3):
            started = time.perf_counter()
            decoded = read_all(app)
            rates.append(decoded / (time.perf_counter() - started))
    finally:
        app.close()
    print(decoded, max(rates))


if __name__ == "__main__":
    main()
