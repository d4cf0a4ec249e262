"""One Settings class for the service: CHRONICLE_* environment variables, overridden by CLI flags."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import unquote, urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

SQLITE_FILENAME = "chronicle.sqlite3"
KEY_FILENAME = "chronicle.key"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CHRONICLE_", extra="ignore")

    data_dir: Path = Field(
        default=Path("."),
        description="Where the embedded SQLite store and the server key live (created if missing).",
    )
    database_url: str | None = Field(
        default=None,
        description="postgresql://user[:password]@host[:port]/dbname switches the store to PostgreSQL.",
    )
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535, description="0 picks a free port.")
    secret_key: str | None = Field(
        default=None,
        description="64 hex digits (32 bytes) that seal secrets at rest; default: a key file in data_dir.",
    )
    max_body_bytes: int = Field(default=1_000_000, ge=1024)
    command_attempts: int = Field(default=10, ge=1, le=50)
    postgres_pool_size: int = Field(default=10, ge=2)
    postgres_connect_timeout: int = Field(
        default=3,
        ge=1,
        le=60,
        description="Seconds a request waits for a PostgreSQL connection before the store counts "
        "as unreachable (503 with Retry-After): the first request of an outage answers after about "
        "this plus one plain connection attempt (eventsourcing's further retries then fail at "
        "once), and the next ones at once while a plain connection still fails "
        "(domain/postgres.py, api/store_gate.py).",
    )
    # NoDecode: the variable is a plain comma-separated list, not the JSON pydantic-settings expects.
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origins a browser front end may call the API from, comma-separated "
        "(e.g. https://table.example.org,http://localhost:5173); none by default (docs/front-ends.md).",
    )
    command_threads: int = Field(
        default=8,
        ge=1,
        le=200,
        description="Commands a server process runs at once; the others wait their turn without "
        "holding a thread (more only contend for the interpreter and the store's write lock).",
    )
    request_threads: int = Field(
        default=4,
        ge=1,
        le=200,
        description="Threads a server process runs the rest of its blocking work in at once "
        "(reads, /health, a read's token): anyio's 40 contend for the interpreter; the waits "
        "for min_position have threads of their own. While the store stalls, this many stuck "
        "requests hold every other read back.",
    )
    workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Server processes of `chronicle serve` (uvicorn workers): more than one spreads "
        "the commands over the cores (PostgreSQL); the views then run in one `chronicle project` "
        'process beside them, never once per worker (docs/performance.md, "Write path").',
    )
    projections: Literal["embedded", "external"] = Field(
        default="embedded",
        description="embedded: `chronicle serve` runs the view runner itself; external: `chronicle "
        "project` workers do (the PostgreSQL deployment).",
    )

    ready_max_lag: int = Field(
        default=1000,
        ge=0,
        description="GET /ready answers 503 while the views are more than this many log "
        "positions behind the log's head (docs/operations.md).",
    )
    metrics_token: str | None = Field(
        default=None,
        description="A bearer token that lets a scraper read /metrics from another host; without "
        "it /metrics answers only clients on the loopback interface (docs/operations.md).",
    )
    log_format: Literal["json", "text"] = Field(
        default="json",
        description="json: one JSON object a line (for log collectors); text: plain lines for a "
        "terminal. Both carry each request's id.",
    )
    webhook_attempts: int = Field(
        default=8, ge=1, le=50, description="Tries of one webhook delivery before it is failed."
    )
    webhook_retry_seconds: float = Field(
        default=10.0,
        gt=0,
        le=3600,
        description="Wait after a webhook delivery's first failure; it doubles after each next "
        'one, up to an hour (docs/front-ends.md, "Webhooks").',
    )
    webhook_timeout_seconds: float = Field(
        default=5.0,
        gt=0,
        le=60,
        description="How long one webhook delivery waits for its receiver.",
    )

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        if urlsplit(value).scheme not in ("postgresql", "postgres"):
            raise ValueError("database_url must start with postgresql://")
        return value

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _origins(cls, value: object) -> object:
        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if isinstance(value, list):
            for origin in value:
                if isinstance(origin, str):  # anything else pydantic refuses as not a string
                    _check_origin(origin)
        return value

    @property
    def backend(self) -> str:
        return "postgres" if self.database_url else "sqlite"

    def eventsourcing_env(self) -> dict[str, str]:
        """The environment that configures eventsourcing's persistence module."""
        if self.database_url is None:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                # Its writes wake the views runner of this process at once.
                "APPLICATION_RECORDER_TOPIC": "domain.sqlite_recorder:Recorder",
                "SQLITE_DBNAME": str(self.data_dir / SQLITE_FILENAME),
                "SQLITE_LOCK_TIMEOUT": "10",
            }
        url = urlsplit(self.database_url)
        return {
            # eventsourcing's, failing at once while the server is known unreachable.
            "PERSISTENCE_MODULE": "domain.postgres",
            # Replicas and views runners starting together create the schema one at a time.
            "APPLICATION_RECORDER_TOPIC": "domain.pg_schema:LockedApplicationRecorder",
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_POOL_SIZE": str(self.postgres_pool_size),
            "POSTGRES_MAX_OVERFLOW": str(self.postgres_pool_size),
            "POSTGRES_CONNECT_TIMEOUT": str(self.postgres_connect_timeout),
            "POSTGRES_LOCK_TIMEOUT": "10",
        }

    def webhook_policy(self) -> dict[str, float]:
        """What projections/webhooks.py `Policy` takes."""
        return {
            "attempts": self.webhook_attempts,
            "first_retry_seconds": self.webhook_retry_seconds,
            "timeout_seconds": self.webhook_timeout_seconds,
        }

    def key_source(self) -> str:
        """Where key_bytes() takes the key from, for messages about it."""
        if self.secret_key:
            return "CHRONICLE_SECRET_KEY"
        return f"the key file {self.data_dir / KEY_FILENAME} (CHRONICLE_SECRET_KEY unset)"

    def key_bytes(self) -> bytes:
        """The 32-byte server key: from settings, else from (or first written to) the key file."""
        if self.secret_key:
            try:
                key = bytes.fromhex(self.secret_key)
            except ValueError:
                raise ValueError("CHRONICLE_SECRET_KEY must be 64 hex digits") from None
            if len(key) != 32:
                raise ValueError("CHRONICLE_SECRET_KEY must be 64 hex digits")
            return key
        path = self.data_dir / KEY_FILENAME
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
        return bytes.fromhex(path.read_text().strip())


def _check_origin(origin: str) -> None:
    """An origin is scheme://host[:port] and nothing else: the browser sends exactly that, so a
    path, a trailing slash or a wildcard would simply never match (and `*` would open the API to
    every page on the web, which a bearer-token API must choose on purpose, not by accident)."""
    parts = urlsplit(origin)
    parts.port  # noqa: B018 - raises ValueError on a port that is not a number in range
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise ValueError(
            f"CORS origin {origin!r} must be scheme://host[:port], e.g. https://table.example.org"
        )
