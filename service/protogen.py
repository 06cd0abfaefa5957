"""The rule sets' part of ``protos/mahjong/v1/mahjong_rules.proto``, generated from their Python
declarations, so that each option, context key and view field is declared once.

``python -m service.protogen`` prints the generated blocks, ``--write`` puts them into the
proto file (between ``// @generated begin NAME`` and ``// @generated end NAME``) and
``--check`` exits 1 when the file differs (tests/service/test_protogen.py runs it).

Per rule set ``x`` (its Python declarations → its messages):
  ``Ruleset.options.specs()`` → ``XOptions``   ``Ruleset.context_keys`` → ``XContext``
  ``Ruleset.view`` fields     → ``XView``      ``Ruleset.events``       → ``XEvent`` + one
                                                                           message per event
and the ``oneof``s that carry them (``RulesetOptions``, ``WinContext``, ``TableView.rules``,
``Event.event``). service/convert.py maps these messages to the engine's dicts by field name.

Field numbers follow declaration order and oneof members follow ``WIRE_RULESETS``: add options,
keys, fields and rule sets at the end, or the numbers of the ones after them change.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import sys
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mjcore import MahjongError, rules
from mjcore.rules.common.options import Options, OptionSpec
from mjcore.rules.common.ruleset import ContextKey

# The rule sets the wire carries, in oneof order (append only: the order gives field numbers).
# A rule set may be on the wire before it is registered: its declarations are then read from
# mjcore/rules/<name>/{options,context,view}.py.
WIRE_RULESETS: tuple[str, ...] = ("sichuan", "guangdong", "hangzhou", "taiwan", "wuhan")

PROTO = Path(__file__).resolve().parent.parent / "protos" / "mahjong" / "v1" / "mahjong_rules.proto"

# A context key's kind (or a view/event field's, see _field_kind) -> its proto type. Scalars
# are `optional` so that "unset" always means "the default"; enums have *_UNSPECIFIED = unset;
# lists are wrapper messages, so that an empty list differs from an unset one.
KIND_TYPES: dict[str, str] = {
    "bool": "optional bool",
    "seat": "optional uint32",
    "seats": "SeatList",
    "relative_seat": "RelativeSeat",
    "relative_seats": "RelativeSeatList",
    "position": "Position",
    "seat_counts": "RelativeSeatCounts",
    "seat_melds": "RelativeSeatMelds",
    "wind": "Wind",
    "suit": "Suit",
    "tile": "Tile",
    "tiles": "TileList",
    "int": "optional int64",
    # kinds of view and event fields only (see _field_kind)
    "ints": "IntList",
    "text": "optional string",
    "texts": "TextList",
}


@dataclass(frozen=True)
class Declared:
    """What the wire needs from one rule set's declarations."""

    name: str
    options: type[Options]
    context_keys: tuple[ContextKey, ...]
    view: type | None
    events: tuple[type, ...]


def declared(name: str) -> Declared:
    """The declarations of rule set ``name``: from the registry, or (not registered yet) from
    its package's ``options``, ``context`` and ``view`` modules."""
    try:
        rs = rules.get_ruleset(name)
    except MahjongError:
        pass
    else:
        return Declared(name, rs.options, rs.context_keys, rs.view, rs.events)
    base = f"mjcore.rules.{name}"
    opts = importlib.import_module(f"{base}.options")
    options = next(v for v in vars(opts).values() if isinstance(v, type) and issubclass(v, Options)
                   and v is not Options and v.__module__ == opts.__name__)
    keys = importlib.import_module(f"{base}.context").CONTEXT_KEYS
    view_mod = importlib.import_module(f"{base}.view")
    view = next(v for v in vars(view_mod).values() if isinstance(v, type)
                and dataclasses.is_dataclass(v) and v.__module__ == view_mod.__name__)
    return Declared(name, options, tuple(keys), view, ())


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _comment(text: str, indent: str) -> list[str]:
    text = text.replace("``", "")
    text = text[:1].upper() + text[1:]
    return [f"{indent}// {line}" for line in textwrap.wrap(text, 96 - len(indent))]


def _plain(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return str(value)


# ------------------------------------------------------------------ options


def option_type(spec: OptionSpec) -> str:
    """The proto type of an option (``enum`` of text: the option's own nested enum)."""
    kind = spec.kind
    numbers = kind == "int" or (kind == "enum" and all(
        isinstance(c, int) and not isinstance(c, bool) for c in spec.choices or ()))
    if spec.none_allowed and not numbers:
        raise ValueError(f"option {spec.name}: none is only supported for integer options")
    if kind == "bool":
        return "optional bool"
    if numbers:  # an enum of numbers reads badly as a proto enum: the engine checks the choices
        return "IntOrNone" if spec.none_allowed else "optional int64"
    if kind == "enum":
        if all(isinstance(c, str) for c in spec.choices or ()):
            return camel(spec.name)
        raise ValueError(f"option {spec.name}: choices mix text and numbers")
    if kind == "int_list":
        return "IntList"
    if kind == "ratio":
        return "Ratio"
    raise ValueError(f"option {spec.name}: unknown kind {kind}")


def _option_doc(spec: OptionSpec) -> str:
    text = spec.description.rstrip(".") + "."
    if spec.choices is not None:
        shown = [_plain(c) for c in spec.choices]
        if len(shown) > 12:  # a long run of numbers (the powers of two of a cap): its ends
            shown = [*shown[:3], f"… {shown[-1]} ({len(shown)} values)"]
        text += " One of " + ", ".join(shown) + "."
    elif spec.minimum is not None or spec.maximum is not None:
        what = "Each item" if spec.kind == "int_list" else "Range"
        text += f" {what} {_plain(spec.minimum)}..{_plain(spec.maximum)}."
    if spec.length is not None:
        text += f" {spec.length} items" + (", non-decreasing." if spec.nondecreasing else ".")
    if spec.none_allowed:
        text += " Set without a value: none."
    return text + f" Default: {_plain(spec.default)}."


def _enum_lines(name: str, choices: Iterable[object], indent: str) -> list[str]:
    """A nested enum of text choices: NAME_UNSPECIFIED = 0 ("not set"), then one value each."""
    prefix = snake(name).upper()
    out = [f"{indent}enum {name} {{", f"{indent}  // Not set: the preset's or the default value.",
           f"{indent}  {prefix}_UNSPECIFIED = 0;"]
    for i, c in enumerate(choices, 1):
        if not re.fullmatch(r"[a-z][a-z0-9_]*", str(c)):
            raise ValueError(f"{name}: choice {c!r} is not lower_snake")
        out += [f"{indent}  // \"{c}\".", f"{indent}  {prefix}_{str(c).upper()} = {i};"]
    return out + [f"{indent}}}"]


def options_message(d: Declared) -> list[str]:
    title = camel(d.name)
    out = [
        f"// Options of the \"{d.name}\" rule set (DescribeRuleset lists them with their bounds and",
        "// defaults). Unset fields take the preset's value, or the default without a preset.",
        f"message {title}Options {{",
    ]
    for spec in d.options.specs():
        typ = option_type(spec)
        if typ == camel(spec.name):
            out += _comment(f"Values of {spec.name}.", "  ")
            out += _enum_lines(typ, spec.choices or (), "  ")
    for number, spec in enumerate(d.options.specs(), 1):
        out += _comment(_option_doc(spec), "  ")
        out.append(f"  {option_type(spec)} {spec.name} = {number};")
    out.append("}")
    return out


# ------------------------------------------------------------------ context, view, events


def _context_doc(key: ContextKey) -> str:
    text = key.description.rstrip(".") + "."
    if key.kind == "int":
        text += f" Range {_plain(key.minimum)}..{_plain(key.maximum)}."
    return text


def context_message(d: Declared) -> list[str]:
    title = camel(d.name)
    out = [
        f"// The win context of the \"{d.name}\" rule set: how the hand was won and the seats for",
        "// payments. Unset fields take the rule set's default.",
        f"message {title}Context {{",
    ]
    for key in d.context_keys:
        if key.kind == "choice":
            out += _comment(f"Values of {key.id}.", "  ")
            out += _enum_lines(camel(key.id), key.choices, "  ")
    for number, key in enumerate(d.context_keys, 1):
        out += _comment(_context_doc(key), "  ")
        typ = camel(key.id) if key.kind == "choice" else KIND_TYPES[key.kind]
        out.append(f"  {typ} {key.id} = {number};")
    out.append("}")
    return out


def _field_kind(name: str, annotation: object, context_kinds: dict[str, str]) -> str:
    """The kind of a view or event dataclass field. A context key of the same name gives it
    when its values fit the annotation (a wind, a tile, a list of tiles ...); otherwise the
    annotation does: bool, int (a seat when named ``seat``/``*_seat``), text (a suit or a wind
    by the name's ending, else plain text the rule set checks), a tuple of seats where ``None``
    is allowed, a fixed-size tuple of integers (counts per seat), a tuple of tiles or of texts."""
    base = str(annotation).replace(" ", "").replace("|None", "").replace("None|", "")
    same = context_kinds.get(name, "")
    if base == "bool":
        return "bool"
    if base == "int":
        return "seat" if name == "seat" or name.endswith("_seat") else "int"
    if base == "str":
        if same in ("suit", "wind", "relative_seat", "position"):
            return same
        for ending in ("suit", "wind"):
            if name.endswith(ending):
                return ending
        return "text"  # e.g. a view's declaration state: it may take more values than a key
    if base in ("int|str", "str|int") and same == "tile":
        return "tile"
    if base.startswith("tuple[int") and base.endswith("]"):
        items = base[len("tuple["):-1].split(",")
        if "None" in str(annotation):
            return "seats"
        if items == ["int", "..."]:
            return "tiles"  # ids or text, as every tile argument
        if set(items) == {"int"}:
            return "ints"
    if base == "tuple[str,...]":
        return "texts"
    raise ValueError(f"field {name}: no wire kind for {annotation!r}")


def _dataclass_fields(cls: type, d: Declared) -> list[tuple[str, str, str]]:
    """(name, proto type, comment) of each field of a view or event dataclass."""
    kinds = {k.id: k.kind for k in d.context_keys}
    doc = cls.__doc__ or ""
    out = []
    for f in dataclasses.fields(cls):
        kind = _field_kind(f.name, f.type, kinds)
        # the class docstring describes each field as "name: text" (to the next field)
        m = re.search(rf"(?:^|\n)\s*{f.name}:\s*(.*?)(?=\n\s*\w+:\s|\Z)", doc, re.S)
        what = " ".join(m.group(1).split()) if m else f"the {f.name.replace('_', ' ')}"
        what = what.rstrip(".") + "."
        if kind == "seats" and "None" in str(f.type):
            what += " An entry -1 stands for None."
        if f.default is not dataclasses.MISSING:
            what += f" Default: {_plain(f.default)}."
        out.append((f.name, KIND_TYPES[kind], what))
    return out


def view_message(d: Declared) -> list[str]:
    assert d.view is not None
    title = camel(d.name)
    out = [f"// The \"{d.name}\" rule set's part of a TableView. Unset fields take their default.",
           f"message {title}View {{"]
    for number, (name, typ, what) in enumerate(_dataclass_fields(d.view, d), 1):
        out += _comment(what, "  ")
        out.append(f"  {typ} {name} = {number};")
    out.append("}")
    return out


def event_messages(d: Declared) -> list[str]:
    title = camel(d.name)
    out = [f"// An event of the \"{d.name}\" rule set's own, in a Settle log.",
           f"message {title}Event {{", "  // Exactly one is set.", "  oneof event {"]
    for number, cls in enumerate(d.events, 1):
        out += _comment(" ".join((cls.__doc__ or cls.__name__).split()), "    ")
        out.append(f"    {title}{cls.__name__} {snake(cls.__name__)} = {number};")
    out += ["  }", "}"]
    for cls in d.events:
        out += ["", *_comment(" ".join((cls.__doc__ or cls.__name__).split()), ""),
                f"message {title}{cls.__name__} {{"]
        for number, (name, typ, what) in enumerate(_dataclass_fields(cls, d), 1):
            out += _comment(what, "  ")
            out.append(f"  {typ} {name} = {number};")
        out.append("}")
    return out


# ------------------------------------------------------------------ the blocks


def _members(names: Iterable[tuple[int, str]], suffix: str, first: int, indent: str,
             what: str) -> list[str]:
    out = []
    for i, name in names:
        out.append(f"{indent}// {what} of the \"{name}\" rule set.")
        out.append(f"{indent}{camel(name)}{suffix} {name} = {first + i};")
    return out


def blocks() -> dict[str, str]:
    """The generated text of each block of the proto file, by block name."""
    decl = [declared(name) for name in WIRE_RULESETS]
    every = list(enumerate(WIRE_RULESETS))
    messages: list[str] = [
        "// Which preset and options apply (the request's rule set must match the typed options).",
        "message RulesetOptions {",
        "  // Named preset (DescribeRuleset lists them); empty means the rule set's defaults.",
        "  // Fields set in the typed options below override the preset.",
        "  string preset = 1;",
        "  // The typed options of the request's rule set; another rule set's are bad_option.",
        "  oneof options {",
        *_members(every, "Options", 2, "    ", "Options"),
        "  }",
        "}",
        "",
        "// The win context: the typed context of the request's rule set (another rule set's is",
        "// bad_context). Unset means no context: the rule set's defaults.",
        "message WinContext {",
        "  // At most one is set.",
        "  oneof context {",
        *_members(every, "Context", 1, "    ", "Context"),
        "  }",
        "}",
    ]
    for d in decl:
        messages += ["", *options_message(d), "", *context_message(d)]
        if d.view is not None:
            messages += ["", *view_message(d)]
        if d.events:
            messages += ["", *event_messages(d)]
    views = [(i, d.name) for i, d in enumerate(decl) if d.view is not None]
    events = [(i, d.name) for i, d in enumerate(decl) if d.events]
    return {
        "rulesets": "\n".join(messages),
        "table_view_rules": "\n".join(_members(views, "View", 100, "    ", "The part")),
        "event_rules": "\n".join(_members(events, "Event", 100, "    ", "An event")),
    }


_BLOCK = re.compile(r"^([ \t]*)// @generated begin (\w+)\n(.*?)^[ \t]*// @generated end \2$",
                    re.M | re.S)


def render(text: str, generated: dict[str, str]) -> str:
    """``text`` with each generated block replaced by its generated content."""
    seen: list[str] = []

    def fill(m: re.Match[str]) -> str:
        indent, name = m.group(1), m.group(2)
        seen.append(name)
        body = generated[name]
        return f"{indent}// @generated begin {name}\n{body + chr(10) if body else ''}" \
               f"{indent}// @generated end {name}"

    out = _BLOCK.sub(fill, text)
    missing = set(generated) - set(seen)
    if missing:
        raise ValueError(f"the proto has no block {sorted(missing)}")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    generated = blocks()
    if "--write" in args or "--check" in args:
        text = PROTO.read_text()
        new = render(text, generated)
        if "--check" in args:
            if new != text:
                print(f"{PROTO} differs from the rule sets' declarations: run "
                      "`python -m service.protogen --write`", file=sys.stderr)
                return 1
            return 0
        PROTO.write_text(new)
        return 0
    for name, body in generated.items():
        print(f"// @generated begin {name}\n{body}\n// @generated end {name}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
