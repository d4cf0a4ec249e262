"""What every game system's commands build on: the component base the application holds, its
boundary interface, and `Turn`, the working set of one command (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from pydantic import BaseModel

from domain.aggregates import Campaign, Character, Issue, Roll, RollChain, Scene, Story
from domain.commands import Actor, CommandContext, Component, Outcome
from domain.errors import Conflict, Forbidden, InvalidInput
from domain.rolls import CheckRoll, Declared
from domain.rulesets import Ruleset, get_ruleset
from domain.rulesets.base import Check, CheckOutcome
from domain.service import Service

if TYPE_CHECKING:
    from domain.application import Chronicle

A = TypeVar("A", bound=Aggregate)


@dataclass
class Sheeted:
    """A character with its parsed sheet: what a ruleset's fight verbs work with."""

    character: Character
    sheet: BaseModel

    @property
    def id(self) -> UUID:
        return self.character.id

    @property
    def key(self) -> str:
        return str(self.character.id)

    @property
    def name(self) -> str:
        return self.character.name

    def level(self, resource: str) -> int:
        return int(self.character.resources.get(resource, 0))


class Loaded:
    """The aggregates one command has loaded, by id, so that each is loaded and saved once."""

    def __init__(self, aggregates: dict[UUID, Aggregate] | None = None) -> None:
        self.aggregates: dict[UUID, Aggregate] = dict(aggregates or {})

    def get(
        self, app: Service, actor: Actor, cls: type[A], aggregate_id: UUID, field: str = ""
    ) -> A:
        """The aggregate, loaded once; with a `field`, an unknown id is that field's fault."""
        found = self.aggregates.get(aggregate_id)
        if found is None:
            found = (
                app.named(actor, cls, aggregate_id, field)
                if field
                else app.get(actor, cls, aggregate_id)
            )
            self.aggregates[aggregate_id] = found
        assert isinstance(found, cls)
        return found

    def character(
        self, app: Service, actor: Actor, character_id: UUID, field: str = ""
    ) -> Character:
        return self.get(app, actor, Character, character_id, field)

    def touched(self, *already: Aggregate) -> list[Aggregate]:
        """The loaded aggregates with new events, except those the command saves anyway."""
        skip = {a.id for a in already}
        return [a for a in self.aggregates.values() if a.pending_events and a.id not in skip]


def open_scene_named(app: Chronicle, actor: Actor, scene_id: UUID) -> Scene:
    """The open scene of the actor's campaign a body names in `scene_id` (a command that acts on
    a character, not on a scene, and takes the scene from its body)."""
    scene = app.named(actor, Scene, scene_id, "scene_id")
    if scene.closed:
        raise Conflict("the scene is closed", field="scene_id", code="scene_closed")
    return scene


# ---- boundaries: what the lifecycle tells the campaign's own system -----------------------------


@dataclass(frozen=True)
class IssueBoundary:
    """A game Issue started or ended (its open scenes were closed first, each a SceneBoundary)."""

    actor: Actor
    issue: Issue
    story: Story
    loaded: Loaded


@dataclass(frozen=True)
class SceneBoundary:
    """A scene opened or closed (on closing, its seed is revealed and its effects ended, WCBH-36)."""

    actor: Actor
    scene: Scene
    issue: Issue
    loaded: Loaded


@dataclass(frozen=True)
class PageBoundary:
    """A scene moved to its next page (`scene.page` is the new page; effects have ticked)."""

    actor: Actor
    scene: Scene
    loaded: Loaded


class GameSystem(Component):
    """The commands of one game system: the component the application holds for it.

    The lifecycle (domain/application.py) tells only the campaign's own system about a boundary;
    the system changes aggregates through ``at.loaded`` and they are saved with the lifecycle
    command. The roll hooks let a system add to the shared roll commands (only WCBH uses them)."""

    ruleset_id: ClassVar[str]

    @property
    def parts(self) -> tuple[object, ...]:
        """The objects that hold this system's commands besides itself (its areas of play, if it
        splits them): a roll request's command is looked up on each (`_command_named`)."""
        return ()

    @cached_property
    def rules(self) -> Ruleset:
        """The system's ruleset, looked up once (the registry does not change while it runs)."""
        return get_ruleset(self.ruleset_id)

    def turn(
        self, ctx: CommandContext, scene_id: UUID, *, gm: bool = False, field: str = "scene_id"
    ) -> Turn:
        """Start a command of this system on a scene of one of its campaigns."""
        app = self.app
        actor = app._gm(ctx) if gm else app._member(ctx)
        scene = app._target(ctx, actor, Scene, scene_id)
        campaign = app.campaign_of(actor)
        if campaign.ruleset != self.ruleset_id:
            raise InvalidInput(
                f"{get_ruleset(campaign.ruleset).name} has no such command "
                f"(it is a {self.rules.name} command)",
                field=field,
                code="wrong_ruleset",
            )
        settings = self.rules.parse_settings(campaign.settings)
        return Turn(app, ctx, actor, campaign, self.rules, settings, scene)

    # ---- boundaries (nothing by default) ----------------------------------------------------

    def issue_started(self, at: IssueBoundary) -> None:
        """A game Issue started (WCBH-17, WCBH-21)."""

    def issue_ended(self, at: IssueBoundary) -> None:
        """A game Issue ended."""

    def scene_opened(self, at: SceneBoundary) -> None:
        """A scene opened in a running game Issue."""

    def scene_closed(self, at: SceneBoundary) -> None:
        """A scene closed."""

    def page_advanced(self, at: PageBoundary) -> None:
        """A scene moved to its next page."""

    def resource_adjusted(self, character: Character, resource: str, reason: str) -> None:
        """The GM changed a resource of the character (`Chronicle.adjust_resource`), after the
        ruleset's `status_after`: what else it changes on the character, recorded on it in the
        same save (WCBH-36: an effect may now defeat it)."""

    # ---- roll hooks (what a system adds to the shared roll commands) -------------------------

    def with_page_dice(self, ask: CheckRoll, check: Check) -> Mapping[str, Any]:
        """The roll's request with the dice the page adds to the character's roll (WCBH-25, 41)."""
        return ask.request

    def followed_up(self, actor: Actor, scene: Scene, original: Roll, follow: Roll) -> list[Any]:
        """What a direct follow-up changes besides its roll and its cost (WCBH-20b, 20c)."""
        return []

    def rolled(
        self, actor: Actor, scene: Scene, request: BaseModel, character: Character, roll_id: UUID
    ) -> list[Any]:
        """What a character's roll changes besides its limits and costs (WCBH-16)."""
        return []


class Part:
    """One area of a game system's commands, held by the system (`Wcbh.fight`, `Nimble.health`):
    it reaches the shared commands as `self.app` and the system's other parts through
    `self.system`, which each part narrows to its own system's class (`system: Wcbh`)."""

    def __init__(self, system: GameSystem) -> None:
        self.system = system

    @property
    def app(self) -> Chronicle:
        return self.system.app


@dataclass
class Turn:
    """The working set of one command of a game system: who acts, on which scene, in which
    campaign (its ruleset and parsed settings), and every aggregate it loaded, so that each is
    loaded once, parsed once and saved once (`save`)."""

    app: Chronicle
    ctx: CommandContext
    actor: Actor
    campaign: Campaign
    rules: Ruleset
    settings: BaseModel
    scene: Scene
    loaded: Loaded = field(default_factory=lambda: Loaded())
    _sheets: dict[UUID, Sheeted] = field(default_factory=dict)

    def character(self, character_id: UUID, field: str = "character_id") -> Sheeted:
        """A character of the campaign with its parsed sheet; an unknown id is the field's fault."""
        known = self._sheets.get(character_id)
        if known is not None:
            return known
        character = self.loaded.character(self.app, self.actor, character_id, field)
        sheet = self.rules.parse_sheet(character.sheet, self.settings, side=character.side)
        self._sheets[character_id] = Sheeted(character, sheet)
        return self._sheets[character_id]

    def acting(self, character_id: UUID, field: str = "character_id") -> Sheeted:
        """A character the sender may act for (its player, or the GM)."""
        sheeted = self.character(character_id, field)
        try:
            self.app._check_may_act_for(self.actor, sheeted.character)
        except Forbidden as exc:
            raise Forbidden(exc.message, field=field) from None
        return sheeted

    def roll(
        self,
        check: str,
        request: Mapping[str, Any],
        roller: Sheeted | Character | None,
        client_seed: str | None,
        *,
        chain: RollChain | None = None,
        action: bool = True,
        declared: Declared | None = None,
        earlier_modifiers: tuple[dict[str, Any], ...] = (),
    ) -> tuple[CheckOutcome, list[Aggregate]]:
        """A check rolled in this turn's scene by its actor (`RollCommands.roll_check`): the
        outcome, and what to save (the roll first). A `Sheeted` roller brings the sheet the
        command parsed already; a bare character's is parsed for the roll."""
        character, sheet = (
            (roller.character, roller.sheet) if isinstance(roller, Sheeted) else (roller, None)
        )
        ask = CheckRoll(
            self.actor,
            self.scene,
            self.campaign,
            check,
            request,
            character,
            client_seed,
            chain,
            action=action,
            declared=declared,
            sheet=sheet,
            earlier_modifiers=earlier_modifiers,
        )
        return self.app.roll_check(ask)

    def save(
        self, first: Aggregate | None = None, *others: Aggregate, result: object = None
    ) -> Outcome:
        """One atomic save: `first` (what the response presents; the scene by default), the
        others, and every loaded aggregate with new events; `result` is the command's typed
        answer to its presenter (`Outcome.result_as`)."""
        main = first if first is not None else self.scene
        rest = [*others, self.scene] if main is not self.scene else list(others)
        unique = list({a.id: a for a in rest if a.id != main.id}.values())
        touched = self.loaded.touched(main, *unique)
        return self.app._commit(self.ctx, main, *unique, *touched, result=result)


class PagedPart(Part):
    """An area of play that hears of each new page of a scene (a fight's round or turn)."""

    def page_advanced(self, at: PageBoundary) -> None:
        """The scene moved to its next page."""


class OneAreaSystem(GameSystem):
    """A game system whose one area of play is its fight, told of each new page (Class D, nWoD
    micro): a subclass names the area's class in `area` and narrows `fight` to it."""

    area: ClassVar[type[PagedPart]]
    fight: PagedPart

    def __init__(self, app: Chronicle) -> None:
        super().__init__(app)
        self.fight = self.area(self)

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.fight,)

    def page_advanced(self, at: PageBoundary) -> None:
        self.fight.page_advanced(at)
