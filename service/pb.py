"""The generated protobuf and gRPC modules, generated on first import when missing or stale."""

from __future__ import annotations

from . import _codegen

_codegen.ensure()

from ._gen.mahjong.v1 import mahjong_rules_pb2 as pb2  # noqa: E402
from ._gen.mahjong.v1 import mahjong_rules_pb2_grpc as pb2_grpc  # noqa: E402

SERVICE_NAME: str = pb2.DESCRIPTOR.services_by_name["MahjongRules"].full_name

__all__ = ["SERVICE_NAME", "pb2", "pb2_grpc"]
