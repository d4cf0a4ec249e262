"""Generated plays of the four rulesets on the in-memory store: random sequences of rolling commands.

A `Script` is the ruleset, a seed for the scenes' dice and a list of `Step`s (an action's name and
the numbers it reads its choices from). `run(script)` sets up a campaign (characters of every side
the ruleset has, a story, a game Issue, a scene) on a `tests.app.table.Table` and runs every step;
a step the domain refuses (any `DomainError`) writes nothing and is only counted. `scripts(ruleset)`
is the Hypothesis strategy. Each step rolls through one verb of the application, so that an export
of the play holds every kind of roll record the service writes::

    play = run(script)
    entries = play.table.export()

The choices are read from the step's numbers in turn (`Pick`); 0 is always the plainest choice, so
that Hypothesis shrinks a failing play to the plainest steps that still fail.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from domain.errors import DomainError
from tests.app.plays import classd, nimble, nwod, wcbh
from tests.app.plays.core import COMMON, PICKS, Action, Pick, Play, Script, Step
from tests.app.table import Table

__all__ = ["ACTIONS", "RULESETS", "Play", "Script", "Step", "run", "scripts"]

RULESETS = ("wcbh", "classd", "nimble", "nwod-micro")
SETUPS: dict[str, Callable[[Play], None]] = {
    "wcbh": wcbh.setup,
    "classd": classd.setup,
    "nimble": nimble.setup,
    "nwod-micro": nwod.setup,
}
ACTIONS: dict[str, dict[str, Action]] = {
    "wcbh": wcbh.ACTIONS | COMMON,
    "classd": classd.ACTIONS | COMMON,
    "nimble": nimble.ACTIONS | COMMON,
    "nwod-micro": nwod.ACTIONS | COMMON,
}


def start(script: Script) -> Play:
    settings = {"player_modifiers": script.player_modifiers}
    table = Table(script.ruleset, settings, seed=script.seed)
    issue = table.issue()
    play = Play(table, issue, table.scene(issue))
    SETUPS[script.ruleset](play)
    play.read_new_rolls()
    return play


def run(script: Script) -> Play:
    """Play the script on a fresh table; refused steps are counted in `play.refused`. When the
    GM approves players' modifiers, it settles the requests a step left pending now and then right
    away (otherwise only when a `settle_roll_requests` step comes, maybe pages later)."""
    play = start(script)
    actions = ACTIONS[script.ruleset]
    for index, step in enumerate(script.steps):
        _step(play, step.action, actions[step.action], Pick(step.picks, index))
        if script.player_modifiers == "gm_approval" and step.picks[-1] % 2:
            settle = "settle_roll_requests"
            _step(play, settle, actions[settle], Pick(step.picks[::-1], index))
    if script.close_at_end:
        play.gm("close_scene", play.scene)
    return play


def _step(play: Play, name: str, action: Action, pick: Pick) -> None:
    try:
        action(play, pick)
    except DomainError as refusal:
        play.refused[(name, refusal.code)] += 1
        play.reasons.setdefault((name, refusal.code), refusal.message)
    else:
        play.done[name] += 1
    for record in play.read_new_rolls():
        play.rolled[name] += 1
        play.made_by[record["roll_id"]] = name


def scripts(ruleset: str, max_steps: int = 30) -> st.SearchStrategy[Script]:
    # The rolling actions come first so that shrinking leans towards them, not to page turns.
    steps = st.builds(
        Step,
        st.sampled_from(sorted(ACTIONS[ruleset], key=lambda a: a in COMMON)),
        st.tuples(*[st.integers(0, 2**16)] * PICKS),
    )
    return st.builds(
        Script,
        st.just(ruleset),
        st.binary(min_size=8, max_size=8),
        st.lists(steps, min_size=1, max_size=max_steps).map(tuple),
        st.booleans(),
        st.sampled_from(("trusted", "gm_approval")),
    )
