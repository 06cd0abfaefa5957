"""``python -m service``: run the gRPC server (``--help`` lists the flags)."""

from service.server import main

raise SystemExit(main())
