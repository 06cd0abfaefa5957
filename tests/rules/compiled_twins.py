"""What the compiled-scoring tests share: the core's feature bits of a set of names, and the
check that the compiled path's answer is the Python path's, value and types alike."""

from __future__ import annotations

from typing import Any

from mjcore.rules.common import compiled


def feature_flags(names: set[str]) -> int:
    """The bits of ``compiled.FEATURES`` named in ``names``."""
    out = 0
    for i, name in enumerate(compiled.FEATURES):
        if name in names:
            out |= 1 << i
    return out


def same_result(a: Any, b: Any) -> None:
    """Equal answers of the same types (a NamedTuple equals a plain tuple of its items)."""
    assert a == b
    if hasattr(a, "decomposition"):  # "qidui" is a str, a decomposition a tuple: both kinds
        assert type(a.decomposition) is type(b.decomposition)
        assert [type(h) for h in a.patterns] == [type(h) for h in b.patterns]
        assert type(a) is type(b)
