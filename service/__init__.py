"""The gRPC service ``mahjong.v1.MahjongRules`` over the ``mjcore`` engine.

The servicer only translates protobuf to engine calls and back; the engine keeps no state,
so any number of replicas can serve any call.
"""

from .config import ServerConfig

__all__ = ["ServerConfig"]
