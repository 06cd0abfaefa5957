"""Fuzzing the input boundary: random and mutated inputs to ``Hand.parse`` and every core
entry point. Only ``mjcore.MahjongError`` may come out: never another exception, a crash or a
hang. At least 100,000 inputs (``MJ_FUZZ_N`` overrides; ``make test`` sets 20,000, ``make
test-long`` 100,000), seeded, well under a minute.
"""

from __future__ import annotations

import array
import os
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
import reference as R

import mjcore
from mjcore import Hand, MahjongError, Meld

N = int(os.environ.get("MJ_FUZZ_N", "100000"))
SEED = int(os.environ.get("MJ_FUZZ_SEED", "4242"))

ALPHABET = "0123456789mpsz :" + "chipenganbu" + "xyzMPSZ-_,;:\t\n\u4e07\u00e9\x00"
MELD_WORDS = ["chi", "peng", "gang", "angang", "bugang", "pong", "kong", "", "CHI", "chi "]
VALID = ["123m456p789s11z", "1112345678999m", "19m19p19s1234567z", "11m chi:123m peng:555p",
         "234m345m66p peng:888p angang:9999p", "147s258m369p13467z", "5m peng:555m",
         "99s gang:1111m gang:2222p angang:3333s bugang:4444z", "22334455667788p",
         "123456789m123p456p11s", "1m", "", "7z bugang:7777p"]


class Guard:
    """Call ``fn``; anything but a MahjongError is recorded as a failure."""

    def __init__(self) -> None:
        self.calls = 0
        self.errors: dict[str, int] = {}
        self.bad: list[str] = []

    def __call__(self, what: str, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        self.calls += 1
        try:
            return fn(*args, **kw)
        except MahjongError as e:
            assert isinstance(e.code, str) and e.code and isinstance(e.message, str)
            self.errors[e.code] = self.errors.get(e.code, 0) + 1
            return None
        except Exception as e:  # noqa: BLE001 - the point of the test
            if len(self.bad) < 20:
                self.bad.append(f"{what}({args!r:.120} {kw!r}): {type(e).__name__}: {e}")
            return None

    def check(self) -> None:
        if self.bad:
            pytest.fail("non-MahjongError exceptions:\n  " + "\n  ".join(self.bad))


def _mutate(rng: random.Random, s: str) -> str:
    chars = list(s)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        pos = rng.randint(0, len(chars))
        if op == 0:
            chars.insert(pos, rng.choice(ALPHABET))
        elif op == 1 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif op == 2 and chars:
            chars[min(pos, len(chars) - 1)] = rng.choice(ALPHABET)
        elif op == 3:
            chars[pos:pos] = list(rng.choice(VALID))
        else:
            chars[pos:pos] = list(f" {rng.choice(MELD_WORDS)}:{rng.choice(VALID)[:rng.randint(0, 6)]}")
    return "".join(chars)


def _random_text(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:  # random bytes decoded
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
        return raw.decode(rng.choice(["latin-1", "utf-8"]), errors="replace")
    if kind == 1:  # random characters from the notation's alphabet
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))
    if kind == 2:  # a mutated valid hand
        return _mutate(rng, rng.choice(VALID))
    if kind == 3:  # random meld prefixes and bodies
        parts = ["".join(rng.choice("123456789") for _ in range(rng.randint(0, 14)))
                 + rng.choice("mpsz")]
        for _ in range(rng.randint(0, 5)):
            body = "".join(rng.choice("1234567890") for _ in range(rng.randint(0, 5)))
            parts.append(f"{rng.choice(MELD_WORDS)}:{body}{rng.choice('mpsz')}")
        return " ".join(parts)
    if kind == 4:  # plausible hands of every size (many valid, many wrong sizes)
        tiles = [rng.randrange(34) for _ in range(rng.randint(0, 20))]
        return "".join(R.tile_text(t) for t in tiles)
    # long inputs
    return rng.choice(VALID) * rng.randint(1, 200)


def _entry_points(g: Guard, hand: Any, rng: random.Random) -> None:
    jokers = rng.choice([0, 0, 0, 1, 2])
    shapes = rng.choice([None, mjcore.SHAPES, ("standard",), ("qidui", "shisanyao"),
                         ("quanbukao", "qixingbukao", "zuhelong"), ("qidui_distinct",)])
    kw: dict[str, Any] = {"jokers": jokers}
    if shapes is not None:
        kw["shapes"] = shapes
    g("is_win", mjcore.is_win, hand, **kw)
    g("win_shapes", mjcore.win_shapes, hand, **kw)
    g("waits", mjcore.waits, hand, **kw)
    g("wait_mask", mjcore.wait_mask, hand, **kw)
    g("shanten", mjcore.shanten, hand, **kw)
    g("decompose", mjcore.decompose, hand)


def test_fuzz_text_inputs() -> None:
    rng = random.Random(SEED)
    g = Guard()
    start = time.monotonic()
    parsed = 0
    for i in range(N):
        text = _random_text(rng)
        h = g("Hand.parse", Hand.parse, text)
        if h is not None:
            parsed += 1
            assert isinstance(h, Hand)
            # a parsed hand prints and re-parses to itself
            assert Hand.parse(h.to_text()) == h
            _entry_points(g, h, rng)
        elif i % 4 == 0:
            _entry_points(g, text, rng)  # the functions parse text themselves
    g.check()
    elapsed = time.monotonic() - start
    assert elapsed < 60, f"{N} fuzz inputs took {elapsed:.1f}s"
    assert parsed > N // 20  # the mutations keep enough inputs valid to reach the core
    assert {"bad_notation", "bad_tile", "bad_meld", "too_many_copies"} <= set(g.errors), g.errors


WRONG_VALUES: list[Any] = [None, 0, -1, 1.5, True, b"123m", bytearray(b"1m"), ["123m"],
                           ("123m",), {"123m": 1}, object(), 10**30, "", "x" * 5000]


def test_fuzz_wrong_types_everywhere() -> None:
    g = Guard()
    good = Hand.parse("1112345678999m")
    for bad in WRONG_VALUES:
        for name in ("is_win", "win_shapes", "waits", "wait_mask", "shanten", "decompose"):
            g(name, getattr(mjcore, name), bad)
        g("Hand.parse", Hand.parse, bad)
        g("Hand", Hand, bad)
        g("Hand.melds", Hand, [0] * 34, bad)
        g("Hand.from_tiles", Hand.from_tiles, bad)
        g("Meld.of", Meld.of, bad, bad)
        g("Meld.of chi", Meld.of, "chi", bad)
        g("tile_to_text", mjcore.tile_to_text, bad)
        g("tile_from_text", mjcore.tile_from_text, bad)
        for kw in ("jokers", "shapes"):
            for name in ("is_win", "win_shapes", "waits", "wait_mask", "shanten"):
                g(f"{name} {kw}", getattr(mjcore, name), good, **{kw: bad})
        for name in ("is_win_batch", "wait_mask_batch", "shanten_batch"):
            g(name, getattr(mjcore, name), bad)
            g(name, getattr(mjcore, name), bytes(34), jokers=bad)
            g(name, getattr(mjcore, name), bytes(34), shapes=bad)
    for j in (-1, 9, 100, -(2**70)):
        g("is_win jokers", mjcore.is_win, good.with_tile(0), jokers=j)
        g("shanten jokers", mjcore.shanten, good, jokers=j)
    g("shapes unknown", mjcore.is_win, "11m", shapes=("standard", "pinghu"))
    g("shapes str", mjcore.is_win, "11m", shapes="standard")
    g("zuhelong shanten", mjcore.shanten, good, shapes=("zuhelong",))
    # melds as odd objects, and Meld instances built without Meld.of's checks
    for melds in ([5], [("peng",)], [("peng", 5)], [("peng", (4, 4, 4), 1)], [("peng", "abc")],
                  [Meld("peng", (40, 40, 40))], [Meld("peng", (-1, -1, -1))],
                  [Meld("peng", (4, 4))], [Meld("pong", (4, 4, 4))], [Meld("chi", (1, 5, 9))],
                  [Meld("peng", (4.0, 4.0, 4.0))]):  # type: ignore[arg-type]
        h = g("Hand melds", Hand, Hand.parse("11m").counts, melds)
        if h is not None:
            # accepted: then it must be a real meld, which prints and parses back
            try:
                ok = Hand.parse(h.to_text()) == h
            except MahjongError:
                ok = False
            if not ok:
                g.bad.append(f"Hand accepted the invalid melds {melds!r} ({h.to_text()!r})")
    g.check()


def test_fuzz_counts_and_melds() -> None:
    """Random count vectors and melds given to the constructors directly."""
    rng = random.Random(SEED + 1)
    g = Guard()
    for _ in range(N // 10):
        n = rng.choice([34, 34, 34, 33, 35, 0])
        counts: list[Any] = [rng.choice([0, 0, 0, 1, 2, 3, 4, 5, -1]) for _ in range(n)]
        if counts and rng.random() < 0.05:
            counts[rng.randrange(len(counts))] = rng.choice([1.0, None, "1", True])
        melds = []
        for _ in range(rng.randint(0, 3)):
            kind = rng.choice(MELD_WORDS)
            t = rng.randrange(-2, 44)
            size = rng.choice([3, 4, 2, 5])
            melds.append((kind, tuple(rng.choice([t, t, t + 1, t + 2]) for _ in range(size))))
        h = g("Hand", Hand, counts, melds)
        if h is not None:
            assert max(h.all_counts()) <= 4 and min(h.counts) >= 0
            _entry_points(g, h, rng)
    g.check()


def test_fuzz_batch_buffers() -> None:
    rng = random.Random(SEED + 2)
    g = Guard()
    fns = (mjcore.is_win_batch, mjcore.wait_mask_batch, mjcore.shanten_batch)
    for _ in range(N // 20):
        size = rng.choice([0, 34, 68, 340, 33, 35, 1, 34 * 7 + 5])
        data = bytes(rng.choice([0, 0, 0, 1, 2, 3, 4, 5, 255]) for _ in range(size))
        fn = rng.choice(fns)
        kw: dict[str, Any] = {"jokers": rng.choice([0, 1, 2])}
        out = g(fn.__name__, fn, data, **kw)
        if out is not None:
            assert isinstance(out, bytes)
            per = 8 if fn is mjcore.wait_mask_batch else 1
            assert len(out) == per * (size // 34)
    # other buffer kinds: bytearray, memoryview, array of wider items, non-contiguous views
    for obj in (bytearray(34), memoryview(bytes(68)), array.array("H", [0] * 17),
                memoryview(bytes(68))[::2], memoryview(bytes(340)).cast("B", (10, 34)),
                array.array("d", [0.0] * 17)):
        for fn in fns:
            g(fn.__name__, fn, obj)
    # valid 13/14-tile hands in bulk answer like the per-hand calls
    hands = [R.random_hand(rng, 14, 0, melds_ok=False) for _ in range(500)]
    buf = bytes(c for h in hands for c in h.counts)
    wins = mjcore.is_win_batch(buf)
    assert [bool(x) for x in wins] == [mjcore.is_win(Hand(h.counts)) for h in hands]
    g.check()


def test_fuzz_tile_functions() -> None:
    rng = random.Random(SEED + 3)
    g = Guard()
    for _ in range(N // 10):
        g("tile_to_text", mjcore.tile_to_text, rng.randint(-5, 45))
        txt = "".join(rng.choice("0123456789mpszx ") for _ in range(rng.randint(0, 4)))
        t = g("tile_from_text", mjcore.tile_from_text, txt)
        if t is not None:
            assert mjcore.tile_from_text(mjcore.tile_to_text(t)) == t
    g.check()
