"""The one way request bodies revive the shapes roll requests recorded before issue #14 hold
(`domain.requests.Recorded`, in the `REVIVING` context): here WCBH's lists once stored as pairs,
and fields a new one replaced; a body sent to the API today in such a shape is refused.
The GM's approval of such requests runs through it (tests/app/test_wcbh_old_roll_requests.py,
tests/app/test_wcbh_roll_requests.py); these pin the reviver itself."""

from __future__ import annotations

from uuid import uuid4

import pytest
from pydantic import ValidationError

from domain.commands import REVIVING
from systems.wcbh.requests import AreaAttackCreate, AssistedRollCreate, AttackCreate


def test_helpers_stored_as_pairs_are_revived_into_helpers_wcbh_10() -> None:
    helped, helper = uuid4(), uuid4()
    body = AssistedRollCreate.model_validate(
        {"character_id": str(helped), "helpers": [[str(helper), "Strength"]]}, context=REVIVING
    )
    assert [(h.character_id, h.trait) for h in body.helpers] == [(helper, "Strength")]


def test_an_area_attacks_old_targets_and_active_defences_are_revived_wcbh_43() -> None:
    first, second = uuid4(), uuid4()
    body = AreaAttackCreate.model_validate(
        {
            "attacker_id": str(uuid4()),
            "trait": "Lightning Bolt",
            "targets": [[str(first), True], {"target_id": str(second)}],
            "active_defences": ["Agility"],
        },
        context=REVIVING,
    )
    assert [(t.target_id, t.skip_turn) for t in body.targets] == [(first, True), (second, False)]
    assert body.defences is None  # the attacker's old choice is dropped (WCBH-28, issue #15)


def test_a_body_naming_the_new_defences_may_not_name_the_old_ones_too() -> None:
    with pytest.raises(ValidationError, match="active_defences"):
        AttackCreate.model_validate(
            {
                "attacker_id": str(uuid4()),
                "target_id": str(uuid4()),
                "trait": "Punch",
                "defences": ["Agility"],
                "active_defences": ["Agility"],
            },
            context=REVIVING,
        )


def test_a_stored_pair_of_the_wrong_length_is_refused_as_invalid_not_a_crash() -> None:
    with pytest.raises(ValidationError):
        AssistedRollCreate.model_validate(
            {"character_id": str(uuid4()), "helpers": [[str(uuid4())]]}, context=REVIVING
        )


def test_a_body_sent_today_in_a_stored_shape_is_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError, match="active_defences"):
        AttackCreate.model_validate(
            {
                "attacker_id": str(uuid4()),
                "target_id": str(uuid4()),
                "trait": "Punch",
                "active_defences": ["Agility"],
            }
        )
    with pytest.raises(ValidationError, match="helpers"):
        AssistedRollCreate.model_validate(
            {"character_id": str(uuid4()), "helpers": [[str(uuid4()), "Strength"]]}
        )
