"""The keys of a Guangdong win context (docs/rulesets/guangdong.md §13)."""

from __future__ import annotations

from mjcore.rules.common.ruleset import ContextKey

CONTEXT_KEYS: tuple[ContextKey, ...] = (
    ContextKey("seat_wind", "the winner's seat wind 门风, 1z-4z (required)", "wind"),
    ContextKey("round_wind", "the round wind 圈风, 1z-4z (required)", "wind"),
    ContextKey("winner", "the winner's seat 0-3 (default 0): payments name absolute seats from "
               "it", "seat"),
    ContextKey("discarder", "the discarder of a discard win, seen from the winner: left (上家), "
               "across, right; for 人和 it must be the dealer", "relative_seat"),
    ContextKey("qiang_gang", "抢杠: won on the tile another seat added as a bugang (not "
               "self-drawn)"),
    ContextKey("robbed", "with qiang_gang: whose bugang was robbed", "relative_seat"),
    ContextKey("gang_shang_kai_hua", "self-draw on a kong's replacement tile"),
    ContextKey("gang_fed_by", "with gang_shang_kai_hua: the kong was a 直杠 on this seat's discard",
               "relative_seat"),
    ContextKey("hai_di_lao_yue", "self-draw of the last wall tile"),
    ContextKey("winners_on_discard", "players winning on this discard (default 1)", "int", 1, 3),
    ContextKey("tianhe", "天和: the dealer's dealt 14 tiles win"),
    ContextKey("renhe", "人和: a non-dealer wins on the dealer's first discard"),
    ContextKey("dihe", "地和: a non-dealer self-draws a win on the first draw, nobody having "
               "claimed or konged"),
    ContextKey("meld_from", "one entry per meld, in the order made: the relative seat it was "
               "claimed from (null for an angang)", "relative_seats"),
    ContextKey("bao_exempt", "包先不包后: the feeder of the fourth exposed meld is already liable "
               "for another player's 十二张落地"),
)
