"""The batch entry points against hostile buffers: another thread rewriting the counts while
the GIL is released, and buffers whose items are not uint8.

The race used to crash the interpreter (a count checked, then read again from the caller's
buffer and used as a table index), so it runs in a child process: a crash there is a failed
test, not a dead test run.
"""

from __future__ import annotations

import array
import subprocess
import sys
import textwrap

import pytest

import mjcore
from mjcore import Hand, MahjongError

# One hand per function, and the byte the other thread flips between a valid count and 200.
# With the valid count every hand of the batch has one known answer; with 200 it is invalid.
RACES = {
    # 11123456789999m: complete (win, shanten -1); byte 8 is 9m, 4 copies
    "is_win_batch": ("11123456789999m", 4, "set(out) == {1}"),
    "shanten_batch": ("11123456789999m", 4, "set(out) == {255}"),
    # 1112345678999m: the nine-gates wait on 1m-9m; byte 8 is 9m, 3 copies
    "wait_mask_batch": ("1112345678999m", 3,
                        "out == (0x1FF).to_bytes(8, sys.byteorder) * N"),
}

RACE_SCRIPT = """
import sys, threading, time
import mjcore

fn = getattr(mjcore, {name!r})
hand = bytes(mjcore.Hand.parse({hand!r}).counts)
N = 20000
buf = bytearray(hand * N)
stop = False

def flip():
    while not stop:
        for value in (200, {good}):
            for i in range(N):
                buf[i * 34 + 8] = value

t = threading.Thread(target=flip)
t.start()
calls = answers = errors = 0
end = time.monotonic() + {seconds}
try:
    while time.monotonic() < end:
        calls += 1
        try:
            out = fn(buf)
        except mjcore.MahjongError as e:
            assert e.code == "wrong_tile_count", e
            errors += 1
            continue
        # a consistent snapshot of every hand: the one answer of the valid hand
        assert {check}, "a wrong answer under the race"
        answers += 1
finally:
    stop = True
    t.join()
print(calls, answers, errors)
"""


@pytest.mark.parametrize("name", sorted(RACES))
def test_batch_survives_a_thread_rewriting_the_buffer(name: str) -> None:
    hand, good, check = RACES[name]
    script = textwrap.dedent(RACE_SCRIPT).format(name=name, hand=hand, good=good, check=check,
                                                 seconds=1.5)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"child exited {proc.returncode}:\n{proc.stderr[-2000:]}"
    calls, answers, errors = map(int, proc.stdout.split())
    assert calls == answers + errors and calls > 0


def test_batch_answers_unchanged_for_a_still_buffer() -> None:
    # the per-hand copy changes nothing for a buffer nobody touches
    hands = ["11123456789999m", "123m456p789s11z2z3z5z", "1112345678999m1z"]
    buf = b"".join(bytes(Hand.parse(h).counts) for h in hands)
    assert list(mjcore.is_win_batch(buf)) == [1, 0, 0]
    assert list(mjcore.is_win_batch(buf, shapes=mjcore.SHAPES)) == [1, 0, 0]


@pytest.mark.parametrize("fn", [mjcore.is_win_batch, mjcore.wait_mask_batch, mjcore.shanten_batch])
@pytest.mark.parametrize("typecode", ["H", "h", "i", "I", "q", "Q", "b", "f", "d"])
def test_batch_refuses_items_that_are_not_uint8(fn: object, typecode: str) -> None:
    # 34 items of a wider or signed type: read as bytes they would be answered, wrongly
    arr = array.array(typecode, [1] * 34)
    with pytest.raises(MahjongError) as e:
        fn(arr)  # type: ignore[operator]
    assert e.value.code == "bad_argument"
    assert "uint8" in e.value.message


def test_batch_refuses_char_and_non_contiguous_views() -> None:
    with pytest.raises(MahjongError) as e:
        mjcore.is_win_batch(memoryview(bytes(34)).cast("c"))
    assert e.value.code == "bad_argument"
    with pytest.raises(MahjongError) as e:
        mjcore.is_win_batch(memoryview(bytes(68))[::2])
    assert e.value.code == "bad_argument"
    with pytest.raises(MahjongError) as e:
        mjcore.is_win_batch(12)
    assert e.value.code == "bad_argument"


def test_batch_accepts_every_uint8_buffer() -> None:
    one = bytes(Hand.parse("11123456789999m").counts)
    for buf in (one, bytearray(one), memoryview(one), array.array("B", one),
                memoryview(one * 2).cast("B", (2, 34)), memoryview(one).cast("B")):
        assert mjcore.is_win_batch(buf)[0] == 1
        assert mjcore.shanten_batch(buf)[0] == 255  # -1 as int8


def test_batch_accepts_numpy_uint8() -> None:
    np = pytest.importorskip("numpy")
    counts = np.array([Hand.parse("11123456789999m").counts] * 3, dtype=np.uint8)
    assert mjcore.is_win_batch(counts) == b"\x01" * 3
    with pytest.raises(MahjongError) as e:
        mjcore.is_win_batch(counts.astype(np.int8))
    assert e.value.code == "bad_argument"
    with pytest.raises(MahjongError) as e:
        mjcore.is_win_batch(counts.astype(np.uint16))
    assert e.value.code == "bad_argument"
