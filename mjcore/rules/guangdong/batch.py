"""Guangdong's ``batch_scorer`` (``mjcore.rules.common.ruleset.Ruleset``): the contexts whose
hands without melds ``score`` answers with the compiled table's result as it is (§9-§11: no
抢杠/杠上开花/first-turn flags to check against the hand, no second winner under first_only,
no min_fan; a liability then needs melds; the table checks meld_from itself)."""

from __future__ import annotations

from collections.abc import Mapping

from mjcore.errors import MahjongError
from mjcore.rules.common import compiled
from mjcore.rules.common.ruleset import BatchScorer
from mjcore.rules.guangdong.options import GuangdongOptions
from mjcore.rules.guangdong.scoring import _TABLES, _compiled_context, _compiled_table, parsed_context


def batch_scorer(o: GuangdongOptions) -> BatchScorer | None:
    if compiled.PURE or o.min_fan:
        return None
    t = _TABLES.get(o) or _compiled_table(o)

    def context(mapping: Mapping[str, object] | None, self_drawn: bool) -> compiled.CompiledContext | None:
        try:
            c = parsed_context(mapping, self_drawn)
        except MahjongError:  # ``score`` says what is wrong, hand by hand
            return None
        f = c.facts
        if c.flagged or f.qiang_gang or f.gang_fed or (
                f.winners > 1 and o.multi_ron == "first_only"):
            return None
        return t.context(c.cid) or _compiled_context(t, c, o)

    return BatchScorer(t, context)
