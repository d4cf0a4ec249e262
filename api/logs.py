"""The logging of `chronicle serve`: one JSON object a line (python-json-logger) or plain text for
a terminal, every line of a request carrying its id; uvicorn's and ours through one handler."""

from __future__ import annotations

import logging
from typing import Any, Literal

from pythonjsonlogger.core import RESERVED_ATTRS

LogFormat = Literal["json", "text"]

TEXT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
# The record's own fields a JSON line keeps, under shorter names; python-json-logger adds every
# field a filter or `extra=` put on the record (request_id, an access line's method...).
JSON = "%(asctime)s %(levelname)s %(name)s %(message)s"
JSON_NAMES = {"asctime": "time", "levelname": "level", "name": "logger"}


class AccessFields(logging.Filter):
    """An access line's parts as fields of their own, so a collector need not parse the text."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5:
            record.client, record.method, record.path, _, record.status = args
        return True


def log_config(fmt: LogFormat, level: str) -> dict[str, Any]:
    """A logging.config.dictConfig for uvicorn's `log_config`."""
    formatter: dict[str, Any] = (
        {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": JSON,
            "rename_fields": JSON_NAMES,
            "json_ensure_ascii": False,
            # uvicorn's copy of the message with terminal colours in it
            "reserved_attrs": [*RESERVED_ATTRS, "color_message"],
        }
        if fmt == "json"
        else {"format": TEXT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "api.request_ids.RequestIdFilter"},
            "access_fields": {"()": "api.logs.AccessFields"},
        },
        "formatters": {"chosen": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "chosen",
                "filters": ["request_id"],
            }
        },
        # Everything reaches the root's one handler: uvicorn's loggers lose their own.
        "loggers": {
            "uvicorn": {"handlers": [], "propagate": True},
            "uvicorn.access": {"handlers": [], "propagate": True, "filters": ["access_fields"]},
        },
        "root": {"level": level.upper(), "handlers": ["stderr"]},
    }
