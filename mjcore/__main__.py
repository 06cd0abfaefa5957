"""``python -m mjcore``: type a hand, see its shapes, waits, shanten and decompositions."""

from __future__ import annotations

import sys

from . import SHAPES, Hand, MahjongError, decompose, mask_to_tiles, shanten, wait_mask, win_shapes
from .tiles import format_tiles, tile_to_text


def describe(text: str) -> str:
    hand = Hand.parse(text)
    lines = [f"hand: {hand.to_text()}  ({hand.concealed_count} concealed tiles)"]
    size = hand.concealed_count % 3
    if size == 2:
        shapes = sorted(win_shapes(hand))
        lines.append(f"wins as: {', '.join(shapes) if shapes else 'nothing'}")
        for d in decompose(hand):
            sets = [format_tiles((c, c + 1, c + 2)) for c in d.chows]
            sets += [format_tiles((p, p, p)) for p in d.pungs]
            lines.append(f"  {' '.join(sets)} + pair {tile_to_text(d.pair)}")
    elif size == 1:
        lines.append(f"waits: {' '.join(mask_to_tiles(wait_mask(hand, shapes=SHAPES))) or 'none'}")
    lines.append(f"shanten: {shanten(hand, shapes=('standard', 'qidui', 'shisanyao'))}")
    return "\n".join(lines)


def main() -> int:
    interactive = sys.stdin.isatty()
    if interactive:
        print("mjcore demo: type a hand such as 123m456p789s11z peng:555m (Ctrl-D to quit)")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            print(describe(line.strip()))
        except MahjongError as e:
            print(f"error {e.code}: {e.message}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
