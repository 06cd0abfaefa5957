"""What the compiled-scoring tests share: the core's feature bits of a set of names, a worked
case's options, and the check that the compiled path's answer is the Python path's, value and
types alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mjcore import MahjongError
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled


def feature_flags(names: set[str]) -> int:
    """The bits of ``compiled.FEATURES`` named in ``names``."""
    out = 0
    for i, name in enumerate(compiled.FEATURES):
        if name in names:
            out |= 1 << i
    return out


def case_options(ruleset: str, case: dict[str, Any]) -> Any:
    """A worked case's resolved options (its ``preset`` among them); None for a case whose
    options are refused (no scoring path runs)."""
    options = dict(case["options"])
    preset = options.pop("preset", None)
    try:
        return resolve_options(ruleset, options or None, preset)
    except MahjongError:
        return None


def both_paths(monkeypatch: pytest.MonkeyPatch, clear_caches: Callable[[], object],
               ask: Callable[..., Any], *args: Any) -> list[Any]:
    """[Python path, compiled path] answers of ``ask(*args)``, every memo cleared before each:
    a result, or the error's (code, text)."""
    out = []
    for pure in (True, False):
        monkeypatch.setattr(compiled, "PURE", pure)
        clear_caches()
        try:
            out.append(ask(*args))
        except MahjongError as exc:
            out.append((exc.code, str(exc)))
    return out


def same_result(a: Any, b: Any) -> None:
    """Equal answers of the same types (a NamedTuple equals a plain tuple of its items)."""
    assert a == b
    if hasattr(a, "decomposition"):  # "qidui" is a str, a decomposition a tuple: both kinds
        assert type(a.decomposition) is type(b.decomposition)
        assert [type(h) for h in a.patterns] == [type(h) for h in b.patterns]
        assert type(a) is type(b)
