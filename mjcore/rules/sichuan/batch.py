"""Sichuan's ``batch_scorer`` (``mjcore.rules.common.ruleset.Ruleset``): ``score`` answers
every hand the compiled table scores with the table's result, so every context qualifies."""

from __future__ import annotations

from collections.abc import Mapping

from mjcore.errors import MahjongError
from mjcore.rules.common import compiled
from mjcore.rules.common.ruleset import BatchScorer
from mjcore.rules.sichuan.options import SichuanOptions
from mjcore.rules.sichuan.scoring import _TABLES, _compiled_context, _compiled_table, _parse_context


def batch_scorer(o: SichuanOptions) -> BatchScorer | None:
    if compiled.PURE:
        return None
    t = _TABLES.get(o) or _compiled_table(o)

    def context(mapping: Mapping[str, object] | None, self_drawn: bool) -> compiled.CompiledContext | None:
        try:
            c = _parse_context(mapping, self_drawn)
        except MahjongError:  # ``score`` says what is wrong, hand by hand
            return None
        if c.kong_feeder >= 0:  # checked against each hand's melds (``_check_feeder``)
            return None
        return t.context(c) or _compiled_context(t, c, o)

    return BatchScorer(t, context)
