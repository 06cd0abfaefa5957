"""Claim priority on one discard (or robbable kong), shared by every rule set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PRIORITY = ("hu", "gang", "peng", "chi")
"""胡 > 杠/碰 > 吃: a claim of an earlier kind beats every claim of a later kind. Only one
seat can hold the pung/kong tiles, so gang and peng never compete with each other."""


def resolve_claims(discarder: int, claims: Mapping[int, Any], *, multi_hu: bool = True,
                   seats: int = 4) -> tuple[tuple[int, Any], ...]:
    """Which claims on one discard take effect. ``claims`` maps seat to its (validated) move
    (anything with a ``kind``; passes may be included). Every ``hu`` wins (一炮多响), in turn
    order after the discarder, or only the first one with ``multi_hu=False``; else the
    ``gang``/``peng``; else the ``chi``; else none."""
    order = sorted(claims, key=lambda s: (s - discarder) % seats)
    hus = tuple((s, claims[s]) for s in order if claims[s].kind == "hu")
    if hus:
        return hus if multi_hu else hus[:1]
    for kind in PRIORITY[1:]:
        for s in order:
            if claims[s].kind == kind:
                return ((s, claims[s]),)
    return ()
