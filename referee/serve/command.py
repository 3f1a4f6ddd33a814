"""``referee serve``: start the page on uvicorn.  Without the ``serve`` extra it says how to
install it (exit 2)."""

from __future__ import annotations

import sys

from referee.run.commands import EXIT_UNREADABLE, UsageError, language
from referee.util.i18n import translate
from referee.util.message import msg

APP = "referee.serve.app:create_app"
# connections served at once by each worker (each may hold a body of 2 MB); past it uvicorn
# answers 503 at once
MAX_CONNECTIONS = 128


def missing_extra() -> str | None:
    """The first module of the serve extra that is not installed, or None."""
    import importlib.util

    for module in ("starlette", "uvicorn"):
        if importlib.util.find_spec(module) is None:
            return module
    if not any(importlib.util.find_spec(name) for name in ("python_multipart", "multipart")):
        return "python-multipart"
    return None


def run_serve(args) -> int:
    speak = language(args)
    missing = missing_extra()
    if missing is not None:
        print(translate(msg("referee serve needs {module}, which is not installed: "
                            "pip install 'referee[serve]'", module=missing), speak),
              file=sys.stderr)
        return EXIT_UNREADABLE
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, not {args.port}")
    if args.workers < 1:
        raise UsageError(f"--workers must be 1 or more, not {args.workers}")
    import uvicorn

    for address in _addresses(args.host):
        print(translate(msg("referee serve: open http://{address}:{port}/ on a phone or a "
                            "laptop", address=address, port=args.port), speak), file=sys.stderr)
    uvicorn.run(APP, factory=True, host=args.host, port=args.port, workers=args.workers,
                proxy_headers=True,
                forwarded_allow_ips=args.forwarded_allow_ips, limit_concurrency=MAX_CONNECTIONS,
                timeout_keep_alive=5, server_header=False, log_level="info")
    return 0


def _addresses(host: str) -> list[str]:
    """The addresses a reader can open: the host's, or for ``0.0.0.0`` this machine's on
    the local network (as routing would choose it; no packet is sent)."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"[{host}]" if ":" in host else host]
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent by connect()
            return [probe.getsockname()[0]]
    except OSError:
        return ["127.0.0.1"]
