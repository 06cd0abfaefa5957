"""Worker processes: a dead worker is replaced while the others serve, a crash loop ends the
parent with exit 1, and a port already taken makes a second server fail loudly. Servers are
real processes on 127.0.0.1; the load is bounded in calls and seconds."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
from svc_helpers import Counter
from test_server import ROOT, SCORE, SERVICE_CONFIG, _launch

from service.pb import pb2_grpc


def _children(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return set()
    return {int(c) for c in text.split()}


def _wait_for(cond, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return False


def _stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    _, err = proc.communicate()
    return code, err


def test_a_killed_worker_is_replaced_and_clients_barely_notice() -> None:
    """kill -9 of one of two workers under load: round_robin clients with the documented retry
    policy lose at most a handful of calls, the parent starts a new worker and keeps going."""
    proc, port = _launch("--port", "0", "--workers", "2", "--drain-seconds", "0", "--grace-seconds", "2")
    counter = Counter()
    stop = threading.Event()
    channels = [
        grpc.insecure_channel(
            f"ipv4:127.0.0.1:{port}",
            options=[
                ("grpc.service_config", SERVICE_CONFIG),
                ("grpc.enable_retries", 1),
                ("grpc.use_local_subchannel_pool", 1),  # a connection each: both workers get some
            ],
        )
        for _ in range(4)
    ]
    try:
        assert _wait_for(lambda: len(_children(proc.pid)) == 2, 10)
        before = _children(proc.pid)

        def work(ch: grpc.Channel) -> None:
            stub = pb2_grpc.MahjongRulesStub(ch)
            for _ in range(20_000):  # bounded; stops when told
                if stop.is_set():
                    return
                try:
                    assert stub.Score(SCORE, timeout=5).result.multiplier == 1
                    counter.add_ok()
                except grpc.RpcError as e:
                    counter.add_err(f"{e.code()}: {e.details()}")

        threads = [threading.Thread(target=work, args=(ch,)) for ch in channels]
        for t in threads:
            t.start()
        assert _wait_for(lambda: counter.ok > 300, 15)
        victim = min(before)
        os.kill(victim, signal.SIGKILL)
        ok_at_kill = counter.ok
        assert _wait_for(lambda: len(_children(proc.pid) - before) == 1 and len(_children(proc.pid)) == 2, 10)
        assert _wait_for(lambda: counter.ok > ok_at_kill + 1000, 20)
        stop.set()
        for t in threads:
            t.join(30)
        assert proc.poll() is None, "the parent must keep serving"
        assert len(counter.errors) <= 5, counter.errors[:10]
        failed = f"{len(counter.errors)} failed {sorted(set(counter.errors))}"
        print(f"{counter.ok} calls, {failed}, {ok_at_kill} before the kill")
    finally:
        stop.set()
        for ch in channels:
            ch.close()
        code, err = _stop(proc)
    assert code == 0, err[-2000:]
    assert "starting another" in err


def test_a_crash_loop_stops_the_parent_with_exit_1() -> None:
    proc, port = _launch(
        "--port", "0", "--workers", "2", "--max-restarts-per-minute", "2", "--drain-seconds", "0",
        "--grace-seconds", "1",
    )
    try:
        assert _wait_for(lambda: len(_children(proc.pid)) == 2, 10)
        for i in range(3):  # three deaths within a minute, two allowed
            kids = _children(proc.pid)
            os.kill(min(kids), signal.SIGKILL)
            if i < 2:  # replaced (after 0.5 s, then 1 s)
                assert _wait_for(lambda k=kids: len(_children(proc.pid) - k) == 1, 10)  # type: ignore[misc]
        assert proc.wait(20) == 1
    finally:
        code, err = _stop(proc)
    assert code == 1
    assert "--max-restarts-per-minute" in err


def _launch_fails(*args: str) -> tuple[int, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-m", "service", *args], cwd=ROOT, env=e, capture_output=True, text=True, timeout=30
    )
    assert "LISTENING" not in done.stdout
    return done.returncode, done.stderr


def test_a_second_server_on_a_taken_port_fails_loudly() -> None:
    """SO_REUSEPORT is on only with several workers: a second single-worker server on the same
    port would otherwise share it silently (half the calls to whichever server)."""
    proc, port = _launch("--port", "0", "--workers", "1")
    try:
        code, err = _launch_fails("--port", str(port), "--workers", "1")
        assert code != 0 and "in use" in err, err[-2000:]
        code, err = _launch_fails("--port", str(port), "--workers", "2")
        assert code != 0 and "in use" in err, err[-2000:]
    finally:
        _stop(proc)
    proc, port = _launch("--port", "0", "--workers", "2")  # workers share, strangers do not
    try:
        code, err = _launch_fails("--port", str(port), "--workers", "2")
        assert code != 0 and "in use" in err, err[-2000:]
    finally:
        assert _stop(proc)[0] == 0


def _listening(port: int) -> set[str]:
    """Local addresses listening on ``port`` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        host, p = local.split(":")
        if state == "0A" and int(p, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(host)[::-1]))
    return found


def test_metrics_bind_loopback_unless_told() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        mport = s.getsockname()[1]
    proc, _ = _launch("--port", "0", "--workers", "1", "--metrics-port", str(mport))
    try:
        assert _wait_for(lambda: bool(_listening(mport)), 10)
        assert _listening(mport) == {"127.0.0.1"}
    finally:
        _stop(proc)
    env = {"MAHJONG_METRICS_HOST": "0.0.0.0"}
    proc, _ = _launch("--port", "0", "--workers", "1", "--metrics-port", str(mport), env=env)
    try:
        assert _wait_for(lambda: bool(_listening(mport)), 10)
        assert _listening(mport) == {"0.0.0.0"}
    finally:
        _stop(proc)
