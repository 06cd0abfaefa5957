"""``python -m service``: run the gRPC server (``--help`` lists the flags)."""

from .server import main

raise SystemExit(main())
