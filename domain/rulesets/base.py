"""The contract every game system implements: sheet and settings models, derived stats, resources.

Pure code: no I/O, no event store, no web framework. Bad input raises ``InvalidInput``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from copy import deepcopy
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Generic, Literal, Protocol, TypeVar, cast, overload

from pydantic import BaseModel, ConfigDict, Field, RootModel, StringConstraints, ValidationError
from pydantic_core import ErrorDetails

from domain.dice.roller import Face, Roller
from domain.errors import InvalidInput

SIDES = ("hero", "villain", "opponent", "minion", "other")
REFRESHES = ("page", "round", "turn", "scene", "issue", "story", "encounter", "rest", "never")

MAX_ITEMS = 100
"""Upper bound of every list or mapping on a sheet, so a sheet cannot be used to exhaust memory."""

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Text = Annotated[str, StringConstraints(max_length=2000)]
ROLL_PURPOSE = "What the roll is for."


def purpose_field(description: str = ROLL_PURPOSE) -> Any:
    """A request's free-text `purpose` (as long as a `Text`): what the roller says the roll is
    for, shown with it."""
    return Field("", max_length=2000, description=description)


class SheetModel(BaseModel):
    """Base of every sheet and settings model: unknown keys are typos; ``"3"`` and ``true`` are no
    numbers."""

    model_config = ConfigDict(extra="forbid", strict=True)


PlayerSide = Literal["hero", "villain", "opponent", "minion", "other"]


def _heroes_only() -> list[PlayerSide]:
    return ["hero"]


class CampaignSettings(SheetModel):
    """The settings every campaign has, whatever its ruleset: how far players are trusted with
    numbers (situational modifiers, their own sheets, which sides they may create)."""

    player_modifiers: Literal["gm_approval", "trusted", "refused"] = Field(
        "gm_approval",
        description="Situational modifiers a player declares on a roll: 'gm_approval' (they count "
        "only once the GM approves or changes them), 'trusted' (applied, recorded as the "
        "player's) or 'refused'.",
    )
    player_sheet_changes: Literal["outside_scenes", "gm_approval"] = Field(
        "outside_scenes",
        description="When a player may change its own character's sheet: only while no scene of "
        "the campaign is open ('outside_scenes'), or only with the GM's approval ('gm_approval').",
    )
    player_sides: list[PlayerSide] = Field(
        default_factory=_heroes_only,
        description="The sides of the characters a player may create (the GM creates any).",
    )


@dataclass(frozen=True)
class StatSpec:
    """Describes a derived stat or a resource for front ends."""

    name: str
    description: str
    rule: str | None
    refresh: str | None = None


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a sheet; ``field`` is a dotted path in it ("" for the whole sheet)."""

    field: str
    message: str
    rule: str | None = None


ModelT = TypeVar("ModelT", bound=BaseModel)
OtherT = TypeVar("OtherT", bound=BaseModel)
RequestT = TypeVar("RequestT", bound=BaseModel)


class SceneState(Protocol):
    """One area of a game system's state on a scene (its fight, its contests…), kept as JSON and
    changed one named change at a time, in pure code: the Scene aggregate applies a change when it
    happens and again when it is replayed, and the scene view applies the same to its doc."""

    view_key: str
    """Where the scene's view shows this state (e.g. ``"nwod"``)."""

    def state_of(self, raw: Mapping[str, Any] | None, page: int) -> dict[str, Any]:
        """The state as its users see it on this page (from nothing, the state before play)."""
        ...

    def apply(
        self, raw: Mapping[str, Any] | None, page: int, change: str, details: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The state after one change; refuses nothing (the commands' rules check first)."""
        ...

    def describe(self, change: str, details: Mapping[str, Any], name: str) -> str:
        """The change in words, for the scene's replay (`name`: the actor's name, if any)."""
        ...


class Ruleset(ABC):
    """One game system. Instances are stateless; one per system lives in ``RULESETS``."""

    id: ClassVar[str]
    rules_version: ClassVar[str]
    """Names the logic of the checks: bump it when a change reads the same dice differently, and keep
    the old logic (a ruleset of the old version) in the rules package's `RETIRED` tuple so that old
    roll records still verify (`domain.rulesets.versions_of`)."""
    name: ClassVar[str]
    Sheet: ClassVar[type[BaseModel]]
    Settings: ClassVar[type[BaseModel]]
    derived_specs: ClassVar[tuple[StatSpec, ...]]
    resource_specs: ClassVar[tuple[StatSpec, ...]]
    field_rules: ClassVar[Mapping[str, str]] = {}
    """Top-level sheet field -> the rule its schema constraints come from, for schema errors."""
    checks: ClassVar[dict[str, Check]] = {}
    """Check name -> the check (a roll of this system), e.g. ``"trait"``."""
    follow_ups: ClassVar[dict[str, FollowUp]] = {}
    """Follow-up name -> a second roll linked to a first, e.g. ``"resolve_reroll"``."""
    mission_rest: ClassVar[str | None] = None
    """The check a rest on a mission rolls to restore Health and Will (CD-22), if the system
    has one: missions are shared, their rest is the system's."""
    side_forms: ClassVar[Mapping[str, tuple[str, str]]] = {}
    """Side -> the form (`kind`) its sheets must have, and the rule that says so: a sheet of that
    side that names no form is judged as that form, not as the main one (WCBH minions)."""
    scene_states: ClassVar[Mapping[str, SceneState]] = {}
    """Area name -> the system's state of that kind on a scene, e.g. ``"fight"`` (the one way a
    scene keeps a system's state: `Scene.change_state`, event `Scene.StateChanged`)."""

    # -- parsing ---------------------------------------------------------------------------

    def parse_settings(self, raw: Mapping[str, Any] | None) -> BaseModel:
        """Validate campaign settings; ``None`` means all defaults."""
        if raw is None:
            raw = {}
        try:
            return self.Settings.model_validate(raw)
        except ValidationError as exc:
            raise _invalid("settings", _schema_problems(exc, strip_tag=False)) from None

    def parse_sheet(self, raw: Any, settings: BaseModel, *, side: str) -> BaseModel:
        """Validate a sheet for a character on ``side``.

        Returns the sheet's form model (for a ``RootModel`` over a union, the chosen member, not the
        wrapper). Schema problems are reported together; rules that need the settings or the side
        are checked once the schema passes, and are also reported together.
        """
        if side not in SIDES:
            raise InvalidInput(
                f"unknown side {side!r}", field="side", details={"known": list(SIDES)}
            )
        settings = self._settings(settings)
        try:
            sheet = unwrap(self.Sheet.model_validate(raw))
        except ValidationError as exc:
            raise _invalid("sheet", self._sheet_problems(raw, side, exc)) from None
        problems = list(self.check_sheet(sheet, settings, side))
        if problems:
            raise _invalid("sheet", problems)
        return sheet

    def _sheet_problems(self, raw: Any, side: str, exc: ValidationError) -> list[Problem]:
        """The schema's problems; for a side whose form is fixed and not named, first that the
        form is missing, then the problems of that form (the main form's would mislead)."""
        strip_tag = issubclass(self.Sheet, RootModel)
        form = self.side_forms.get(side)
        missing: list[Problem] = []
        if form is not None and isinstance(raw, dict) and "kind" not in raw:
            kind, rule = form
            missing = [
                Problem("kind", f'a {side} sheet is the "{kind}" form: give "kind": "{kind}"', rule)
            ]
            try:
                self.Sheet.model_validate({**raw, "kind": kind})
            except ValidationError as as_form:
                exc = as_form
            else:
                return missing
        return missing + [
            Problem(p.field, p.message, p.rule or self._rule_for(p.field))
            for p in _schema_problems(exc, strip_tag=strip_tag)
        ]

    @abstractmethod
    def check_sheet(self, sheet: BaseModel, settings: BaseModel, side: str) -> Iterable[Problem]:
        """Rules across fields, settings and side that a schema cannot express."""

    # -- computed values -------------------------------------------------------------------

    @abstractmethod
    def derived_stats(self, sheet: BaseModel, settings: BaseModel) -> dict[str, Any]:
        """Stats computed from the sheet; keys are the names in ``derived_specs``."""

    @abstractmethod
    def resources(self, sheet: BaseModel, settings: BaseModel) -> dict[str, dict[str, Any]]:
        """Spendable pools; keys are the names in ``resource_specs``, for every form of sheet,
        then any pools a sheet itself defines (WCBH: a Power's uses per game Issue, `uses:<Power>`;
        a pool refreshing at "issue" goes back to its start when a game Issue starts)."""

    @abstractmethod
    def example_sheet(self) -> dict[str, Any]:
        """A valid hero sheet under default settings."""

    other_sides: ClassVar[Mapping[str, dict[str, Any]]] = {}
    """Side -> a valid sheet for it under default settings, for the sides but the hero's (whose
    sheet is `example_sheet`); every installed system gives the four others."""

    def example_sheets(self) -> dict[str, dict[str, Any]]:
        """A valid sheet, under default settings, for each side of ``SIDES`` (side -> sheet), so
        that a GM sees how the system writes its villains, minions or monster groups, not only its
        heroes: the hero's, then `other_sides` (fresh copies: a caller may change them)."""
        return {"hero": self.example_sheet(), **deepcopy(dict(self.other_sides))}

    def example_settings(self) -> dict[str, Any]:
        return self.Settings().model_dump(mode="json")

    def order_of_action(
        self,
        combatants: list[tuple[str, str, BaseModel]],
        acting_first: set[str],
        settings: BaseModel,
    ) -> list[list[str]] | None:
        """Groups of character ids in acting order, for (id, side, sheet) combatants; None if the
        ruleset has no fixed order."""
        return None

    def attack_request(
        self, attacker: BaseModel, target: BaseModel, **options: Any
    ) -> dict[str, Any] | None:
        """The request of the ruleset's `attack` check, resolved from both sheets; None where the
        ruleset has no attack command."""
        return None

    def status_after(
        self,
        status: str,
        resources: Mapping[str, int],
        effects: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> tuple[str, str] | None:
        """The status a character's levels call for once something other than a hit changed them
        (a rest, a GM's award), with the rule that says so; None: the status stays. `effects`: the
        character's special effects, where the ruleset's status depends on them (WCBH-36). Every
        installed system decides by Health alone: see `status_for_health`."""
        health = resources.get("health")
        if health is None:
            return None
        return self.status_for_health(status, health, effects or {})

    def status_for_health(
        self, status: str, health: int, effects: Mapping[str, Mapping[str, Any]]
    ) -> tuple[str, str] | None:
        """`status_after` for a character that has Health: the status its level calls for, with
        the rule; None (the default): the status stays."""
        return None

    def check_rest(self, scene_states: Mapping[str, Mapping[str, Any]]) -> None:
        """Refuse a rest in a scene whose system states (`Scene.states`) say it cannot be had
        there now (Class D: not while a fight is under way, CD-22); nothing by default."""

    def issue_pools(self, players: int, settings: BaseModel) -> dict[str, int]:
        """The GM's pools when a game Issue starts, for the number of players whose heroes play
        (none unless the ruleset has some)."""
        return {}

    def check_resource_change(self, resource: str, change: int) -> None:
        """Refuse (InvalidInput) a GM's change of a character's resource the rules do not allow,
        e.g. an award larger than the rules give; anything goes unless the ruleset says."""

    def describe(self) -> dict[str, Any]:
        """Everything a front end needs to render and fill in sheets of this system (JSON-able)."""
        settings = self.parse_settings(self.example_settings())
        example = self.example_sheet()
        sheet = self.parse_sheet(example, settings, side="hero")
        examples = self.example_sheets()
        for side, other in examples.items():  # a broken example fails here, not in a front end
            self.parse_sheet(other, settings, side=side)
        return {
            "id": self.id,
            "name": self.name,
            "sheet_schema": self.Sheet.model_json_schema(),
            "settings_schema": self.Settings.model_json_schema(),
            "example_sheet": example,
            "example_sheets": examples,
            "example_settings": self.example_settings(),
            "derived_stats": [
                {"name": s.name, "description": s.description, "rule": s.rule}
                for s in self.derived_specs
            ],
            "resources": [
                {"name": s.name, "description": s.description, "rule": s.rule, "refresh": s.refresh}
                for s in self.resource_specs
            ],
            "example_derived": self.derived_stats(sheet, settings),
            "example_resources": self.resources(sheet, settings),
            "checks": [check.describe() for check in self.checks.values()],
            "follow_ups": [follow_up.describe() for follow_up in self.follow_ups.values()],
        }

    # -- helpers for subclasses ------------------------------------------------------------

    def _settings(self, settings: BaseModel) -> Any:
        if not isinstance(settings, self.Settings):
            raise TypeError(f"expected {self.Settings.__name__}, got {type(settings).__name__}")
        return settings

    def _rule_for(self, field: str) -> str | None:
        return self.field_rules.get(field.split(".", 1)[0])


def unwrap(sheet: BaseModel) -> BaseModel:
    """The form model inside a ``RootModel`` sheet; any other model unchanged."""
    root = getattr(sheet, "root", None) if isinstance(sheet, RootModel) else None
    return root if isinstance(root, BaseModel) else sheet


@overload
def form_of(sheet: BaseModel, form: type[ModelT], /) -> ModelT: ...


@overload
def form_of(sheet: BaseModel, form: type[ModelT], other: type[OtherT], /) -> ModelT | OtherT: ...


def form_of(sheet: BaseModel, *forms: type[BaseModel]) -> BaseModel:
    """``sheet`` (unwrapped) if it is one of ``forms``; a programming error otherwise."""
    inner = unwrap(sheet)
    if not isinstance(inner, forms):
        names = ", ".join(f.__name__ for f in forms)
        raise TypeError(f"expected one of {names}, got {type(inner).__name__}")
    return inner


def kind_of(default: str) -> Callable[[Any], str | None]:
    """A discriminator for sheets with several forms: ``kind`` picks one, absent means ``default``.

    Anything that is not a mapping goes to the default form, whose validation then reports it.
    """

    def discriminate(value: Any) -> str | None:
        if isinstance(value, Mapping):
            kind = value.get("kind", default)
            return kind if isinstance(kind, str) else None
        return getattr(value, "kind", default)

    return discriminate


def resource(maximum: int | None, start: int, refresh: str) -> dict[str, Any]:
    """One entry of ``Ruleset.resources``; ``maximum`` None means no cap."""
    return {"max": maximum, "start": start, "refresh": refresh}


def _schema_problems(exc: ValidationError, *, strip_tag: bool) -> list[Problem]:
    return [_schema_problem(error, strip_tag=strip_tag) for error in exc.errors(include_url=False)]


def _schema_problem(error: ErrorDetails, *, strip_tag: bool) -> Problem:
    loc = [str(part) for part in error["loc"]]
    message = error["msg"]
    ctx = error.get("ctx", {})
    if error["type"] == "union_tag_invalid":
        return Problem("kind", f"unknown kind {ctx['tag']!r}; expected {ctx['expected_tags']}")
    if error["type"] == "union_tag_not_found":
        return Problem("kind", "a string naming the form of the sheet is required")
    if strip_tag and loc:
        loc = loc[1:]  # a tagged union puts the tag first; front ends know no such key
    if error["type"] == "value_error":
        message = str(ctx.get("error", message))
    if loc[-1:] == ["[key]"]:  # a bad name in a name -> value mapping: blame the mapping
        message = f"name {loc[-2]!r}: {message}"
        loc = loc[:-2]
    return Problem(".".join(loc), message)


def _invalid(prefix: str, problems: list[Problem]) -> InvalidInput:
    fields = [f"{prefix}.{p.field}" if p.field else prefix for p in problems]
    first, first_field = problems[0], fields[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return InvalidInput(
        f"invalid {prefix}: {first_field}: {first.message}{more}",
        field=first_field,
        rule=first.rule,
        details={
            "errors": [
                {"field": field, "message": p.message}
                for field, p in zip(fields, problems, strict=True)
            ]
        },
    )


# -- checks ----------------------------------------------------------------------------------


class RequestModel(BaseModel):
    """Base of every check and follow-up request: unknown keys are typos; ``"3"`` is no number."""

    model_config = ConfigDict(extra="forbid", strict=True)


@dataclass(frozen=True)
class CheckOutcome:
    """What a check (or a follow-up) came to.

    ``score`` is the ordinal the odds are about: a higher score is a better result for the roller.
    ``success`` is None where the check has no notion of success (e.g. initiative).
    """

    result: dict[str, Any]
    score: int
    success: bool | None


@dataclass(frozen=True)
class Odds:
    """Exact chances for the same request: of success, and of a score at least this outcome's."""

    success: float | None
    at_least: float


def request_as(request: BaseModel, model: type[ModelT]) -> ModelT:
    """A parsed request as the model its check parses (a check handed another's is a bug)."""
    if not isinstance(request, model):
        raise TypeError(f"expected {model.__name__}, got {type(request).__name__}")
    return request


def parse_request(model: type[ModelT], raw: Any, prefix: str) -> ModelT:
    """Validate ``raw`` against ``model``; every problem is reported with a ``<prefix>.`` path."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise _invalid(prefix, _schema_problems(exc, strip_tag=False)) from None


@dataclass(frozen=True)
class Once:
    """A use that a roll makes and that is limited: once per character per story, once per scene…"""

    scope: str  # "story" or "scene"
    key: str  # e.g. "decisive_moment"
    rule: str  # the rule id that limits it
    exclusive: bool = False  # True: only one character per scope, not one use per character
    # True (scene scope): the same character's later uses in the scene continue the first one and
    # are neither refused nor recorded again, its other limits included (a long Decisive Moment,
    # WCBH-14).
    continues: bool = False


ATTACK_CHECK = "attack"
"""The name of the check that `POST /v1/scenes/{id}/attacks` rolls (see Ruleset.attack_request)."""


@dataclass(frozen=True)
class Asked(Generic[RequestT]):
    """What a check reads besides the dice: its own request model (checked once, by
    `Check.asked`), the roller's sheet (None: a GM's raw roll, whose request must then carry
    explicit numbers) and the campaign's settings."""

    request: RequestT
    sheet: BaseModel | None
    settings: BaseModel


class Check(ABC, Generic[RequestT]):
    """One kind of roll of a system, generic in its request model (`Request`, whose class it
    names again: a ClassVar cannot hold a type variable). Checks never touch randomness: they
    only call the Roller."""

    name: ClassVar[str]
    description: ClassVar[str]
    rules: ClassVar[tuple[str, ...]]
    Request: ClassVar[type[BaseModel]]
    sheet_fields: ClassVar[tuple[str, ...]] = ()
    """Request fields that the sheet or the recorded scene supplies (ranks, pools, stats, damage,
    armour, defences): only the GM sends them, and the record says it did (``set_by_gm``)."""
    modifier_fields: ClassVar[tuple[str, ...]] = ()
    """Situational modifiers a roller may declare (modifier dice, advantage steps, a difficulty);
    a player's follow the campaign's ``player_modifiers``."""
    verb: ClassVar[str | None] = None
    """Set where a verb builds the request from the record: the endpoint a player uses instead
    of ``POST /v1/scenes/{id}/rolls`` (the GM may still roll the check there)."""

    @abstractmethod
    def example(self) -> dict[str, Any]:
        """A valid request against the ruleset's example sheet."""

    def parse(self, raw: Mapping[str, Any]) -> RequestT:
        """The request model; ``InvalidInput(field="request.<path>")`` on errors."""
        return cast(RequestT, parse_request(self.Request, raw, "request"))

    def asked(
        self, request: BaseModel, sheet: BaseModel | None, settings: BaseModel
    ) -> Asked[RequestT]:
        """What `roll` and `odds` read, the request checked to be this check's model (a check
        handed another's is a bug): the one place a check's request is typed."""
        return Asked(cast(RequestT, request_as(request, self.Request)), sheet, settings)

    def declared_modifiers(self, request: RequestT) -> dict[str, Any]:
        """The situational modifiers ``request`` sets to something other than their default."""
        return declared(request, self.modifier_fields)

    def once(self, request: RequestT, side: str) -> list[Once]:
        """The limited uses this request (a parsed or asked one) makes (none unless the ruleset
        says so)."""
        return []

    def cost(self, request: RequestT) -> dict[str, int]:
        """Resources spent by the request (a parsed or asked one) itself (names from
        ``resource_specs``), e.g. Resolve bought before the roll."""
        return {}

    @abstractmethod
    def roll(self, asked: Asked[RequestT], roller: Roller) -> CheckOutcome:
        """Draw the dice from ``roller`` and read them."""

    @abstractmethod
    def odds(self, asked: Asked[RequestT], outcome: CheckOutcome) -> Odds:
        """Exact odds for the request asked; ``at_least`` reads only ``outcome.score``."""

    def reads(self, request: Mapping[str, Any]) -> str:
        """How a recorded request of this check reads in a chat line (api/roll_text.py): its name
        and the request's values that say something (defaults such as 0, null and "" say nothing)."""
        told = ", ".join(
            f"{k} {v}" for k, v in request.items() if v not in (None, 0, "", False, [], {})
        )
        return f"{self.name}: {told}" if told else self.name

    def describe(self) -> dict[str, Any]:
        return {
            **_described(self),
            "example": self.example(),
            "sheet_fields": list(self.sheet_fields),
            "modifier_fields": list(self.modifier_fields),
            "via": self.verb,
        }


# -- who may send which numbers (the campaign setting `player_modifiers`) ---------------------

PLAYER_MODIFIERS = "player_modifiers"
"""The rule id of refusals under the campaign setting of that name."""


def named_or_given(
    name: str | None,
    given: int | None,
    sheet: BaseModel | None,
    value_of: Callable[[BaseModel, str], int],
    *,
    fields: tuple[str, str],
    named: str,
) -> tuple[str | None, int]:
    """The value a check rolls: the one the sheet holds under ``name``, or the ``given`` one of a
    GM's raw roll; exactly one of the two request ``fields`` (the name's, the given value's), and
    a roll without a character needs the given one. Returns the name (None if given) and value."""
    name_field, given_field = fields
    if given is not None:
        if name is not None:
            raise InvalidInput(
                f"give the {named} or a {given_field}, not both", field=f"request.{given_field}"
            )
        return None, given
    if name is None:
        raise InvalidInput(
            f"name the {named} to roll, or give a {given_field}", field=f"request.{name_field}"
        )
    if sheet is None:
        raise InvalidInput(
            f"a roll without a character needs an explicit {given_field}",
            field=f"request.{name_field}",
        )
    return name, value_of(sheet, name)


def declared(request: BaseModel, fields: Iterable[str]) -> dict[str, Any]:
    """The ``fields`` of ``request`` whose value is not their default (what a roller declared)."""
    model_fields = type(request).model_fields
    found: dict[str, Any] = {}
    for name in fields:
        value = getattr(request, name)
        if value != model_fields[name].get_default(call_default_factory=True):
            found[name] = value
    return found


def refuse_player_numbers(check: Check, raw: Mapping[str, Any]) -> None:
    """A player names what is rolled, never the numbers: a check a verb builds goes through the
    verb, and no sheet number may be sent (the server reads it from the sheet)."""
    if check.verb is not None:
        raise InvalidInput(
            f"a player rolls {check.name!r} through {check.verb}, which reads every number from "
            "the record",
            field="check",
            rule=PLAYER_MODIFIERS,
        )
    for name in check.sheet_fields:
        if raw.get(name) is not None:
            raise InvalidInput(
                f"{name} is a number of the sheet: the server reads it from the character's "
                "sheet, a player does not send it",
                field=f"request.{name}",
                rule=PLAYER_MODIFIERS,
            )


def gm_set(check: Check, raw: Mapping[str, Any]) -> list[str]:
    """The sheet numbers a GM's request gives itself (the record lists them as set by the GM)."""
    return [name for name in check.sheet_fields if raw.get(name) is not None]


def player_modifiers_verdict(
    policy: str, declared_values: Mapping[str, Any], prefix: str = ""
) -> Literal["roll", "ask_gm"]:
    """What a player's declared situational modifiers allow under the campaign's
    ``player_modifiers``: roll now (none declared, or ``trusted``), ask the GM first
    (``gm_approval``); ``refused`` is a 422 naming the first one."""
    if not declared_values or policy == "trusted":
        return "roll"
    first = next(iter(declared_values))
    if policy == "refused":
        raise InvalidInput(
            f"this campaign refuses modifiers declared by players ({first}); the GM sets them",
            field=f"{prefix}{first}",
            rule=PLAYER_MODIFIERS,
        )
    return "ask_gm"


def modifier_entry(
    field: str, value: Any, *, by: str | None, role: str, rule: str, **more: Any
) -> dict[str, Any]:
    """One item of a roll record's ``modifiers``: who gave the number and under which rule."""
    return {"field": field, "value": value, "by": by, "role": role, "rule": rule, **more}


@dataclass(frozen=True)
class FollowUpRoll:
    """One follow-up as its rules see it: the first roll's request and faces (fresh copies, which
    ``apply`` may mark not kept; ``odds`` then sees them so), the follow-up's own request, and the
    roller's sheet (None for a raw roll) and the campaign's settings."""

    original: BaseModel
    faces: list[Face]
    request: BaseModel
    sheet: BaseModel | None
    settings: BaseModel


@dataclass(frozen=True)
class FollowUp:
    """A second roll linked to a first, e.g. Resolve dice added after seeing the roll (WCBH-20b).

    ``apply(roll, roller for the new dice)`` returns the combined outcome; ``odds(roll, that
    outcome)`` its chances. ``allowed(original request, outcome)`` is None or the reason it is
    refused; the outcome is that of the last follow-up of the same name already made on the roll,
    else the roll's own (a Will reroll is judged on the reroll before it, CD-6).
    """

    name: str
    description: str
    rules: tuple[str, ...]
    Request: type[BaseModel]
    cost: Callable[[BaseModel], dict[str, int]]
    apply: Callable[[FollowUpRoll, Roller], CheckOutcome]
    allowed: Callable[[BaseModel, CheckOutcome], str | None]
    odds: Callable[[FollowUpRoll, CheckOutcome], Odds] | None = None
    direct: bool = True  # offered by POST /v1/rolls/{id}/follow-ups; else only through `via`
    via: str = ""
    example: Mapping[str, Any] | None = None  # a request for the docs and the contract tests
    # Chained follow-ups read the dice as the roll's earlier follow-ups left them (their records
    # name those in `after`); unchained ones read the original's dice only (WCBH-20b, 20c).
    chained: bool = False
    # The character who pays and for whom the caller must act, when not the roller (a WCBH
    # target's Resolve on its defence): its id from (original request, follow-up request).
    payer: Callable[[BaseModel, BaseModel], str | None] | None = None

    def parse(self, raw: Mapping[str, Any]) -> BaseModel:
        """The request model; ``InvalidInput(field="follow_up.<path>")`` on errors."""
        return parse_request(self.Request, raw, "follow_up")

    def describe(self) -> dict[str, Any]:
        return {**_described(self), "via": None if self.direct else self.via}


class _RecordedSource:
    """The faces a follow-up record shows, drawn again in order: replaying an earlier follow-up
    needs no seed (its own record is recomputed from its seed on its own)."""

    def __init__(self, faces: Iterable[Face]) -> None:
        self._faces = [f.face for f in faces]

    def die(self, sides: int) -> int:
        if not self._faces:
            raise InvalidInput("an earlier follow-up's record has too few faces", field="after")
        return self._faces.pop(0)


@dataclass(frozen=True)
class EarlierFollowUp:
    """A follow-up already made on a roll, as its record has it."""

    follow_up: FollowUp
    request: BaseModel
    faces: list[Face]
    sheet: BaseModel | None
    settings: BaseModel


def faces_after(
    original: BaseModel, faces: list[Face], earlier: Iterable[EarlierFollowUp]
) -> list[Face]:
    """The roll's dice as its earlier follow-ups left them, in order: each one marks the dice it
    replaced not kept and adds its own, renumbered after those before (``index`` and
    ``exploded_from`` shifted by the dice before them; ``reroll_of`` already names those)."""
    state = list(faces)
    for made in earlier:
        roller = Roller(_RecordedSource(made.faces))  # type: ignore[arg-type]
        made.follow_up.apply(
            FollowUpRoll(original, state, made.request, made.sheet, made.settings), roller
        )
        state = state + _shifted(roller.faces, len(state))
    return state


def _shifted(faces: list[Face], by: int) -> list[Face]:
    return [
        Face(
            f.index + by,
            f.sides,
            f.face,
            kept=f.kept,
            exploded_from=None if f.exploded_from is None else f.exploded_from + by,
            reroll_of=f.reroll_of,
            label=f.label,
        )
        for f in faces
    ]


def _described(roll: Check | FollowUp) -> dict[str, Any]:
    """What a check and a follow-up both tell about themselves (rules, request schema)."""
    return {
        "name": roll.name,
        "description": roll.description,
        "rules": list(roll.rules),
        "request_schema": roll.Request.model_json_schema(),
    }


__all__ = [
    "ATTACK_CHECK",
    "MAX_ITEMS",
    "PLAYER_MODIFIERS",
    "REFRESHES",
    "SIDES",
    "Asked",
    "CampaignSettings",
    "Check",
    "CheckOutcome",
    "EarlierFollowUp",
    "FollowUp",
    "Name",
    "Odds",
    "Once",
    "Problem",
    "RequestModel",
    "Ruleset",
    "SheetModel",
    "StatSpec",
    "Text",
    "declared",
    "faces_after",
    "form_of",
    "gm_set",
    "kind_of",
    "modifier_entry",
    "parse_request",
    "player_modifiers_verdict",
    "purpose_field",
    "refuse_player_numbers",
    "resource",
    "unwrap",
]


def full_pools(sheet: BaseModel, specs: Iterable[StatSpec]) -> dict[str, dict[str, Any]]:
    """``Ruleset.resources`` for pools that start full at the sheet's field of the same name (Class
    D's Health and Will, nWoD's Health and Will Power), refreshing as their spec says: the specs
    are then the one place that names them and their refresh."""
    pools = {}
    for spec in specs:
        level = getattr(sheet, spec.name)
        pools[spec.name] = resource(level, level, spec.refresh or "never")
    return pools


__all__ += ["full_pools"]

OPPOSING_SIDES = ("villain", "opponent", "minion")
"""The sides that fight the heroes, whatever a system calls them (Class D's villains, Nimble's
monsters)."""

__all__ += ["OPPOSING_SIDES"]
