"""The server as a process: health, reflection, token, TLS, caps, deadlines, errors, metrics,
graceful shutdown, worker processes and client-side round robin over two replicas."""

from __future__ import annotations

import datetime
import ipaddress
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from svc_helpers import Counter, hand, hold_calls, release_held, slow_call, start, tile

from service import convert
from service.config import parse_config
from service.observability import metrics
from service.pb import SERVICE_NAME, pb2, pb2_grpc

ROOT = Path(__file__).resolve().parents[2]

# The retry policy the README recommends for clients of several replicas.
SERVICE_CONFIG = json.dumps(
    {
        "loadBalancingConfig": [{"round_robin": {}}],
        "healthCheckConfig": {"serviceName": "mahjong.v1.MahjongRules"},
        "methodConfig": [
            {
                "name": [{"service": "mahjong.v1.MahjongRules"}],
                "retryPolicy": {
                    "maxAttempts": 5,
                    "initialBackoff": "0.05s",
                    "maxBackoff": "1s",
                    "backoffMultiplier": 2,
                    "retryableStatusCodes": ["UNAVAILABLE"],
                },
            }
        ],
    }
)

SCORE = pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))


def _stub(target: str, **kw: object) -> tuple[grpc.Channel, pb2_grpc.MahjongRulesStub]:
    ch = grpc.insecure_channel(target, **kw)  # type: ignore[arg-type]
    return ch, pb2_grpc.MahjongRulesStub(ch)


# ------------------------------------------------------------------ health, reflection


def test_health(channel: grpc.Channel) -> None:
    h = health_pb2_grpc.HealthStub(channel)
    for name in ("", SERVICE_NAME):
        r = h.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert r.status == health_pb2.HealthCheckResponse.SERVING
    with pytest.raises(grpc.RpcError) as ei:
        h.Check(health_pb2.HealthCheckRequest(service="nosuch"), timeout=5)
    assert ei.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection(channel: grpc.Channel) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    reqs = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE_NAME),
    ]
    replies = list(stub.ServerReflectionInfo(iter(reqs), timeout=5))
    names = {s.name for s in replies[0].list_services_response.service}
    assert {SERVICE_NAME, "grpc.health.v1.Health"} <= names
    from google.protobuf import descriptor_pb2

    files = [
        descriptor_pb2.FileDescriptorProto.FromString(b)
        for b in replies[1].file_descriptor_response.file_descriptor_proto
    ]
    assert any(f.name == "mahjong/v1/mahjong_rules.proto" and f.package == "mahjong.v1" for f in files)


# ------------------------------------------------------------------ token


def test_bearer_token() -> None:
    r = start(auth_token="s3cret-token")
    try:
        ch, stub = _stub(r.target)
        with pytest.raises(grpc.RpcError) as ei:
            stub.ListRulesets(pb2.ListRulesetsRequest(), timeout=5)
        assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.RpcError) as ei:
            stub.Score(SCORE, timeout=5, metadata=[("authorization", "Bearer wrong")])
        assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        ok = stub.Score(SCORE, timeout=5, metadata=[("authorization", "Bearer s3cret-token")])
        assert ok.result.multiplier == 1
        # ScoreStream is checked too
        with pytest.raises(grpc.RpcError) as ei:
            list(stub.ScoreStream(iter([pb2.ScoreStreamRequest(ruleset="sichuan")]), timeout=5))
        assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        # health checks need no token (load balancers and kubelet probes send none)
        h = health_pb2_grpc.HealthStub(ch)
        assert h.Check(health_pb2.HealthCheckRequest(), timeout=5).status == 1
        ch.close()
    finally:
        r.stop(0)


# ------------------------------------------------------------------ TLS


def _pki(tmp: Path) -> dict[str, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)

    def key() -> ec.EllipticCurvePrivateKey:
        return ec.generate_private_key(ec.SECP256R1())

    def name(cn: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    ca_key = key()
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("test CA"))
        .issuer_name(name("test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True
        )
        .sign(ca_key, hashes.SHA256())
    )

    def leaf(cn: str, usage: x509.ObjectIdentifier) -> tuple[bytes, bytes]:
        k = key()
        cert = (
            x509.CertificateBuilder()
            .subject_name(name(cn))
            .issuer_name(ca.subject)
            .public_key(k.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(
                x509.SubjectAlternativeName(
                    [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
                ),
                critical=False,
            )
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .sign(ca_key, hashes.SHA256())
        )
        pem_key = k.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        return cert.public_bytes(serialization.Encoding.PEM), pem_key

    out: dict[str, Path] = {}
    files = {"ca.pem": ca.public_bytes(serialization.Encoding.PEM)}
    files["server.pem"], files["server.key"] = leaf("localhost", ExtendedKeyUsageOID.SERVER_AUTH)
    files["client.pem"], files["client.key"] = leaf("client", ExtendedKeyUsageOID.CLIENT_AUTH)
    for fname, data in files.items():
        p = tmp / fname
        p.write_bytes(data)
        out[fname] = p
    return out


def test_tls_and_mutual_tls(tmp_path: Path) -> None:
    pki = _pki(tmp_path)
    ca = pki["ca.pem"].read_bytes()
    opts = [("grpc.ssl_target_name_override", "localhost")]
    r = start(tls_cert=str(pki["server.pem"]), tls_key=str(pki["server.key"]))
    try:
        creds = grpc.ssl_channel_credentials(root_certificates=ca)
        with grpc.secure_channel(r.target, creds, options=opts) as ch:
            assert pb2_grpc.MahjongRulesStub(ch).Score(SCORE, timeout=5).result.multiplier == 1
        with grpc.insecure_channel(r.target) as ch:  # plaintext to a TLS port fails
            with pytest.raises(grpc.RpcError) as ei:
                pb2_grpc.MahjongRulesStub(ch).Score(SCORE, timeout=3)
            assert ei.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        r.stop(0)
    r = start(
        tls_cert=str(pki["server.pem"]),
        tls_key=str(pki["server.key"]),
        tls_client_ca=str(pki["ca.pem"]),
    )
    try:
        no_cert = grpc.ssl_channel_credentials(root_certificates=ca)
        with grpc.secure_channel(r.target, no_cert, options=opts) as ch:
            with pytest.raises(grpc.RpcError) as ei:
                pb2_grpc.MahjongRulesStub(ch).Score(SCORE, timeout=3)
            assert ei.value.code() == grpc.StatusCode.UNAVAILABLE
        with_cert = grpc.ssl_channel_credentials(
            root_certificates=ca,
            private_key=pki["client.key"].read_bytes(),
            certificate_chain=pki["client.pem"].read_bytes(),
        )
        with grpc.secure_channel(r.target, with_cert, options=opts) as ch:
            assert pb2_grpc.MahjongRulesStub(ch).Score(SCORE, timeout=5).result.multiplier == 1
    finally:
        r.stop(0)


# ------------------------------------------------------------------ caps and deadlines


def test_message_size_cap() -> None:
    r = start(max_message_bytes=64 * 1024)
    try:
        ch, stub = _stub(r.target)
        small = pb2.ScoreBatchRequest(
            ruleset="sichuan",
            items=[
                pb2.ScoreItem(id=str(i), hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))
                for i in range(100)
            ]
        )
        assert len(stub.ScoreBatch(small, timeout=10).outcomes) == 100
        big = pb2.ScoreBatchRequest(
            ruleset="sichuan",
            items=[pb2.ScoreItem(id="x" * 100, hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))] * 1000
        )
        assert big.ByteSize() > 64 * 1024
        with pytest.raises(grpc.RpcError) as ei:
            stub.ScoreBatch(big, timeout=10)
        assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        ch.close()
    finally:
        r.stop(0)


def test_concurrency_cap() -> None:
    r = start(max_concurrent_calls=2, threads=4)
    try:
        ch, stub = _stub(r.target)
        busy = hold_calls(ch, 2)
        with pytest.raises(grpc.RpcError) as ei:
            stub.Score(SCORE, timeout=5)
        assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        release_held()
        assert [f.result() for f in busy] == [b"ok", b"ok"]
        assert stub.Score(SCORE, timeout=5).result.multiplier == 1  # room again
        ch.close()
    finally:
        r.stop(0)


def test_open_streams_leave_unary_calls_their_threads() -> None:
    """Open ScoreStream calls and a health Watch (one thread each while open) run on the
    stream pool: with 2 server threads and 6 streams open, unary calls are still answered."""
    r = start(threads=2)
    try:
        ch, stub = _stub(r.target)
        release = threading.Event()
        item = pb2.ScoreItem(id="a", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))

        def requests() -> Iterator[pb2.ScoreStreamRequest]:
            yield pb2.ScoreStreamRequest(ruleset="sichuan", items=[item])
            release.wait(60)  # the stream stays open, its server thread waiting for more

        streams = [stub.ScoreStream(requests(), timeout=8) for _ in range(6)]
        firsts = [next(s) for s in streams]  # every stream is being served now
        assert all(f.outcomes[0].result.multiplier == 1 for f in firsts)
        watch = health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(service=""), timeout=30)
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        for _ in range(20):
            assert stub.Score(SCORE, timeout=3).result.multiplier == 1
        release.set()
        for s in streams:
            assert list(s) == []
        watch.cancel()
        ch.close()
    finally:
        release.set()
        r.stop(0)


def _count(method: str, code: str) -> float:
    from prometheus_client import REGISTRY

    v = REGISTRY.get_sample_value(
        "mahjong_grpc_calls_total", {"method": f"/mahjong.v1.MahjongRules/{method}", "code": code}
    )
    return v or 0.0


def test_deadlines() -> None:
    r = start(threads=2)
    try:
        ch, stub = _stub(r.target)
        slow = slow_call(ch)
        t0 = time.monotonic()
        with pytest.raises(grpc.RpcError) as ei:
            slow(b"2000", timeout=0.2)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert time.monotonic() - t0 < 1.5
        # A call whose deadline passes while it waits for a thread is refused, not run.
        busy = [slow.future(b"700", timeout=10) for _ in range(2)]
        time.sleep(0.1)
        ok_before = _count("Score", "OK")
        with pytest.raises(grpc.RpcError) as ei:
            stub.Score(SCORE, timeout=0.2)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        for f in busy:
            f.result()
        time.sleep(0.2)
        assert _count("Score", "OK") == ok_before
        # A bulk call stops between items once its deadline has passed.
        items = [
            pb2.ScoreItem(id=str(i), hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))
            for i in range(convert.MAX_BATCH_ITEMS)
        ]
        with pytest.raises(grpc.RpcError) as ei:
            stub.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=items), timeout=0.001)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert stub.Score(SCORE, timeout=5).result.multiplier == 1
        ch.close()
    finally:
        r.stop(0)


def test_internal_error_is_logged_with_request(
    stub: pb2_grpc.MahjongRulesStub, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(convert, "score_result_bytes", boom)
    with caplog.at_level(logging.ERROR, logger="service"):
        with pytest.raises(grpc.RpcError) as ei:
            stub.Score(SCORE, timeout=5)
    assert ei.value.code() == grpc.StatusCode.INTERNAL
    text = caplog.text
    assert "simulated bug" in text and "Score" in text
    assert 'text: "123m456m789m234p55p"' in text  # the request as a message, though it came as bytes


def test_metrics_recorded(stub: pb2_grpc.MahjongRulesStub) -> None:
    metrics()
    before = _count("Score", "OK")
    bad_before = _count("Score", "INVALID_ARGUMENT")
    stub.Score(SCORE, timeout=5)
    with pytest.raises(grpc.RpcError):
        stub.Score(pb2.ScoreRequest(ruleset="sichuan", hand=hand("1m"), win_tile=tile("1m")), timeout=5)
    assert _count("Score", "OK") == before + 1
    assert _count("Score", "INVALID_ARGUMENT") == bad_before + 1
    from prometheus_client import REGISTRY

    n = REGISTRY.get_sample_value(
        "mahjong_grpc_latency_seconds_count", {"method": "/mahjong.v1.MahjongRules/Score"}
    )
    assert n is not None and n >= 2
    errs = REGISTRY.get_sample_value(
        "mahjong_grpc_errors_total",
        {"method": "/mahjong.v1.MahjongRules/Score", "code": "INVALID_ARGUMENT"},
    )
    assert errs is not None and errs >= 1


# ------------------------------------------------------------------ shutdown


def test_graceful_shutdown_in_process() -> None:
    r = start(threads=10)
    ch, stub = _stub(r.target)
    slow = slow_call(ch)
    inflight = [slow.future(b"800", timeout=10) for _ in range(8)]
    inflight += [
        stub.ScoreBatch.future(
            pb2.ScoreBatchRequest(
                ruleset="sichuan",
                items=[
                    pb2.ScoreItem(id=str(i), hand=hand("11122233344455m"), win_tile=tile("5m"))
                    for i in range(2000)
                ]
            ),
            timeout=10,
        )
    ]
    time.sleep(0.3)
    done = r.server.stop(5)
    time.sleep(0.1)
    with pytest.raises(grpc.RpcError) as ei:  # no new calls once draining
        stub.Score(SCORE, timeout=2)
    assert ei.value.code() == grpc.StatusCode.UNAVAILABLE
    results = [f.result() for f in inflight]  # none lost
    assert results[:8] == [b"ok"] * 8
    assert len(results[8].outcomes) == 2000
    assert done.wait(10)
    ch.close()


def _launch(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int]:
    e = dict(os.environ)
    e.update(env or {})
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=e,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("LISTENING "):
            return proc, int(line.rsplit(":", 1)[1])
    proc.kill()
    out, err = proc.communicate()
    raise AssertionError(f"server did not start: {out}\n{err}")


def test_sigterm_drains_in_flight_stream_and_exits_0() -> None:
    proc, port = _launch("--port", "0", "--workers", "1", "--reuse-port", "false", "--grace-seconds", "10")
    try:
        ch, stub = _stub(f"127.0.0.1:{port}")
        stub.Score(SCORE, timeout=10)
        sent: list[pb2.ScoreStreamRequest] = []
        gate = threading.Semaphore(0)

        def requests():  # type: ignore[no-untyped-def]
            for i in range(6):
                gate.acquire()
                m = pb2.ScoreStreamRequest(
                    ruleset="sichuan",
                    items=[
                        pb2.ScoreItem(id=f"{i}-{j}", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))
                        for j in range(5)
                    ]
                )
                sent.append(m)
                yield m

        replies = stub.ScoreStream(requests(), timeout=30)
        got = []
        gate.release()
        got.append(next(replies))
        # an open health watch (a thread of the stream pool) must not keep the process alive
        watch = health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(service=""), timeout=60)
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        proc.send_signal(signal.SIGTERM)
        stopping = time.monotonic()
        assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        time.sleep(0.5)
        for _ in range(5):  # the stream in flight keeps working while the server drains
            gate.release()
            got.append(next(replies))
        assert [o.id for r in got for o in r.outcomes] == [it.id for m in sent for it in m.items]
        with pytest.raises(StopIteration):
            next(replies)
        assert list(watch) == []  # the watch was ended, not left to the grace period
        assert proc.wait(15) == 0
        assert time.monotonic() - stopping < 6  # drain (1 s) + the stream, not the 10 s grace
        ch.close()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_workers_share_port_and_serve_metrics() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        mport = s.getsockname()[1]
    proc, port = _launch("--port", "0", "--workers", "2", "--metrics-port", str(mport), "--json-logs")
    try:
        ch, stub = _stub(f"127.0.0.1:{port}")
        for _ in range(20):
            assert stub.Score(SCORE, timeout=10).result.multiplier == 1
        # several worker processes listen on the port (SO_REUSEPORT)
        out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True)
        if out.returncode == 0 and out.stdout:
            assert len(out.stdout.strip().splitlines()) >= 2
        time.sleep(0.2)
        body = urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics", timeout=5).read().decode()
        assert 'mahjong_grpc_calls_total{code="OK",method="/mahjong.v1.MahjongRules/Score"}' in body
        ch.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        _, err = proc.communicate()
    first = next(line for line in err.splitlines() if line.startswith("{"))
    assert json.loads(first)["level"] in {"INFO", "WARNING"}


def test_workers_exit_when_the_parent_is_killed() -> None:
    """A parent killed with SIGKILL (no chance to stop its workers) leaves no orphan workers
    holding the port: each notices within a second and stops."""
    proc, port = _launch("--port", "0", "--workers", "2", "--drain-seconds", "0", "--grace-seconds", "1")
    try:
        ch, stub = _stub(f"127.0.0.1:{port}")
        assert stub.Score(SCORE, timeout=10).result.multiplier == 1
        ch.close()
        proc.kill()
        proc.wait(5)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) != 0:
                    break
            time.sleep(0.2)
        else:
            raise AssertionError("workers still listen after their parent was killed")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


# ------------------------------------------------------------------ scale-out


def test_round_robin_two_replicas_one_stopped_mid_run() -> None:
    a, b = start(), start()
    target = f"ipv4:127.0.0.1:{a.port},127.0.0.1:{b.port}"
    ch = grpc.insecure_channel(
        target, options=[("grpc.service_config", SERVICE_CONFIG), ("grpc.enable_retries", 1)]
    )
    stub = pb2_grpc.MahjongRulesStub(ch)
    grpc.channel_ready_future(ch).result(timeout=10)
    counter = Counter()
    started = threading.Event()
    per_thread = 1500

    def work() -> None:
        for i in range(per_thread):
            if i == 20:
                started.set()
            try:
                r = stub.Score(SCORE, timeout=10)
                assert r.result.multiplier == 1
                counter.add_ok()
            except grpc.RpcError as e:
                counter.add_err(f"{e.code()}: {e.details()}")

    with futures.ThreadPoolExecutor(4) as pool:
        jobs = [pool.submit(work) for _ in range(4)]
        started.wait(10)
        a.stop(grace=2.0, drain=0.5)  # replica A goes away mid-run
        ok_when_a_gone = counter.ok
        for j in jobs:
            j.result()
    try:
        assert counter.errors == []
        assert counter.ok == 4 * per_thread
        assert ok_when_a_gone < counter.ok - 200, "calls must go on after replica A has stopped"
    finally:
        ch.close()
        b.stop(0)


def test_config_flags_and_env() -> None:
    cfg = parse_config([], env={"MAHJONG_PORT": "6000", "MAHJONG_AUTH_TOKEN": "t", "MAHJONG_JSON_LOGS": "1"})
    assert (cfg.port, cfg.auth_token, cfg.json_logs, cfg.host) == (6000, "t", True, "127.0.0.1")
    cfg = parse_config(
        ["--port", "7000", "--workers", "3", "--max-concurrent-calls", "9"], env={"MAHJONG_PORT": "6000"}
    )
    assert (cfg.port, cfg.workers, cfg.max_concurrent_calls) == (7000, 3, 9)
    assert parse_config([], env={}).port == 50051
    with pytest.raises(SystemExit):
        parse_config(["--tls-cert", "x.pem"], env={})
    assert parse_config([], env={}).gc_gen0 == 50_000
    assert parse_config([], env={"MAHJONG_GC_GEN0": "0"}).gc_gen0 == 0
    with pytest.raises(SystemExit):
        parse_config(["--gc-gen0", "-1"], env={})


def test_tune_gc_sets_the_young_threshold() -> None:
    import gc

    from service.server import tune_gc

    before = gc.get_threshold()
    try:
        tune_gc(parse_config(["--gc-gen0", "12345"], env={}))
        assert gc.get_threshold() == (12345, before[1], before[2])
        tune_gc(parse_config(["--gc-gen0", "0"], env={}))  # 0 leaves the threshold alone
        assert gc.get_threshold()[0] == 12345
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
