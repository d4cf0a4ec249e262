"""A progress bar with a rate and an ETA for long CLI work, on standard error (rich)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

# Told how far the work is: (done, total), in whatever unit the work counts (log positions...).
Update = Callable[[int, int], None]


@contextmanager
def progress_bar(description: str) -> Iterator[Update]:
    """Shows `description`, a bar, done/total, the percentage, the elapsed time and the time
    left. On a terminal it redraws in place; elsewhere rich prints it when the work ends."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=max(total, done))

        yield update
