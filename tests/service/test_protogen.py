"""Each option is declared once: the rule sets' messages of the proto are generated from their
Python declarations (service.protogen), and the committed proto is exactly that text."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from mjcore import rules
from service import protogen
from service.pb import pb2

ROOT = Path(__file__).resolve().parents[2]


def test_committed_proto_is_the_generated_text() -> None:
    text = protogen.PROTO.read_text()
    assert protogen.render(text, protogen.blocks()) == text, (
        "the proto differs from the rule sets' declarations: run `python -m service.protogen --write`"
    )
    out = subprocess.run([sys.executable, "-m", "service.protogen", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_check_fails_on_a_stale_block(tmp_path: Path) -> None:
    text = protogen.PROTO.read_text().replace("optional bool tiandihu = 7;", "optional bool tiandihu = 8;")
    assert protogen.render(text, protogen.blocks()) != text
    with pytest.raises(ValueError, match="no block"):
        protogen.render("syntax = \"proto3\";\n", protogen.blocks())


def test_every_registered_rule_set_is_on_the_wire() -> None:
    assert set(rules.list_rulesets()) <= set(protogen.WIRE_RULESETS)


@pytest.mark.parametrize("ruleset", protogen.WIRE_RULESETS)
def test_messages_follow_the_declarations(ruleset: str) -> None:
    d = protogen.declared(ruleset)
    title = protogen.camel(ruleset)
    options = getattr(pb2, f"{title}Options").DESCRIPTOR
    assert [f.name for f in options.fields] == [s.name for s in d.options.specs()]
    assert [f.number for f in options.fields] == list(range(1, len(options.fields) + 1))
    for spec in d.options.specs():
        field = options.fields_by_name[spec.name]
        if field.enum_type is not None:  # an enum of text: one value per choice, 0 = not set
            assert [v.name for v in field.enum_type.values][1:] == [
                f"{protogen.snake(field.enum_type.name).upper()}_{str(c).upper()}" for c in spec.choices or ()
            ]
        elif field.message_type is None:  # a scalar: unset must differ from a zero
            assert field.has_presence, spec.name
    context = getattr(pb2, f"{title}Context").DESCRIPTOR
    assert [f.name for f in context.fields] == [k.id for k in d.context_keys]
    assert pb2.WinContext.DESCRIPTOR.fields_by_name[ruleset].message_type == context
    assert pb2.RulesetOptions.DESCRIPTOR.fields_by_name[ruleset].message_type == options
    if d.view is not None:
        view = getattr(pb2, f"{title}View").DESCRIPTOR
        assert [f.name for f in view.fields] == [f.name for f in dataclasses.fields(d.view)]
        assert pb2.TableView.DESCRIPTOR.fields_by_name[ruleset].message_type == view
    if d.events:
        event = getattr(pb2, f"{title}Event").DESCRIPTOR
        assert [f.name for f in event.fields] == [protogen.snake(c.__name__) for c in d.events]
        assert pb2.Event.DESCRIPTOR.fields_by_name[ruleset].message_type == event


def test_unsupported_declarations_are_refused() -> None:
    from mjcore.rules.common.options import OptionSpec

    with pytest.raises(ValueError, match="mix"):
        protogen.option_type(OptionSpec("x", 1, "", "enum", choices=(1, "a")))
    with pytest.raises(ValueError, match="none"):
        protogen.option_type(OptionSpec("x", True, "", "bool", none_allowed=True))
    with pytest.raises(ValueError, match="no wire kind"):
        protogen._field_kind("x", "dict[str, int]", {})
