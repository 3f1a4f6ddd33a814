"""This module builds the web application of ``referee serve`` (Starlette): it serves the page
(``GET /``), ``POST api/check`` and ``api/audit`` (JSON ``{"log", "lang", "ruleset"}``) and
``POST report`` (a form: ``log`` text or a ``file``), every request bounded by :class:`Limits`
(docs/serve.md).
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from functools import lru_cache, partial
from importlib import resources

from referee.run.commands import EXIT_UNREADABLE, UsageError, language
from referee.serve.checkers import Busy, Checkers, Overrun
from referee.util import i18n
from referee.util.message import msg
from referee.util.terminal import escaped

MAX_BODY_BYTES = 2 * 1024 * 1024
# the log's name on its report page (text only: nothing looks for a file by it)
LOG_NAME, MAX_NAME = "log", 100
# the report page has inline styles and no script; the page's one script is page.js
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; connect-src 'self'; "
                                 b"style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
                                 b"base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


@dataclass(frozen=True)
class Limits:
    """Limits says how much a request may send and how long its job may take."""

    body_bytes: int = MAX_BODY_BYTES
    body_seconds: float = 30.0
    check_seconds: float = 10.0  # a check (a log of 2 MB: about 1 s)
    report_seconds: float = 30.0  # a report (of 2 MB: about 7 s, a page of 15 MB)
    audit_seconds: float = 15.0  # the audit keeps its own budget of 10 s (AUDIT_SECONDS)
    wait_seconds: float = 30.0  # for a free checker
    waiting: int = 64  # requests waiting for a checker at most
    checkers: int = 2


class Refused(Exception):
    """Refused marks a request the server does not serve: it holds its status and its message in
    ``language``."""

    def __init__(self, status: int, message: str, language: str) -> None:
        super().__init__(i18n.translate(message, language))
        self.status = status


def create_app(limits: Limits | None = None):
    """Make the application (uvicorn's factory): its checker processes start with it."""
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from starlette.routing import Route

    limits = limits or Limits()
    checkers = Checkers(limits.checkers, limits.wait_seconds, limits.waiting)

    @asynccontextmanager
    async def lifespan(_app):
        await checkers.start()
        try:
            yield
        finally:
            await checkers.stop()

    handlers = Handlers(checkers, limits)
    routes = [Route("/", handlers.page), Route("/page.js", handlers.script),
              Route("/healthz", handlers.health),
              Route("/api/check", partial(handlers.json_job, "check", limits.check_seconds),
                    methods=["POST"]),
              Route("/api/audit", partial(handlers.json_job, "audit", limits.audit_seconds),
                    methods=["POST"]),
              Route("/report", handlers.report, methods=["POST"])]
    app = Starlette(routes=routes, lifespan=lifespan)
    return Guard(app, limits)


class Handlers:
    """Handlers holds the endpoints, which share the checkers and the limits."""

    def __init__(self, checkers: Checkers, limits: Limits) -> None:
        self.checkers, self.limits = checkers, limits

    async def page(self, request):
        from starlette.responses import HTMLResponse

        try:
            language = _language(request.query_params.get("lang"), request)
        except Refused:
            language = _language(None, request)
        return HTMLResponse(_page(language))

    async def script(self, _request):
        from starlette.responses import Response

        return Response(_static("page.js"), media_type="text/javascript; charset=utf-8")

    async def health(self, _request):
        from starlette.responses import PlainTextResponse

        return PlainTextResponse("ok")

    async def json_job(self, name: str, seconds: float, request):
        from starlette.responses import JSONResponse

        language = _language(None, request)
        try:
            body = await self._body(request.body(), language)
            try:
                document = json.loads(body)
            except (ValueError, UnicodeDecodeError):
                document = None
            if not isinstance(document, dict) or not isinstance(document.get("log"), str):
                raise Refused(400, msg('the request is not a JSON object with a "log" text'),
                              language)
            language = _language(_text(document.get("lang")), request)
            ruleset = _ruleset(_text(document.get("ruleset")), language)
            data = document["log"].encode("utf-8", "surrogatepass")
            answer = await self._run(name, (data, language, ruleset), seconds, language)
        except Refused as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        return JSONResponse(answer)

    async def report(self, request):
        from starlette.responses import HTMLResponse

        language = _language(None, request)
        try:
            data, language, ruleset, name = await self._form_request(request, language)
            page, place = await self._run("report", (data, language, ruleset, name),
                                          self.limits.report_seconds, language)
        except Refused as refused:
            return HTMLResponse(_problem_page(str(refused), language),
                                status_code=refused.status)
        if place is not None:
            text = i18n.translate(msg("not a log ({place}): {reason}", place=place, reason=page),
                                  language)
            return HTMLResponse(_problem_page(text, language), status_code=422)
        return HTMLResponse(page)

    async def _form_request(self, request, language: str) -> tuple[bytes, str, str, str]:
        from starlette.datastructures import UploadFile

        try:
            form = await self._body(request.form(max_files=1, max_fields=5,
                                                 max_part_size=self.limits.body_bytes), language)
        except Refused:
            raise
        except Exception:  # noqa: BLE001 - the multipart parser's own errors: a bad request
            raise Refused(400, msg("the request is not a form with a log"), language) from None
        try:
            asked = _language(_text(form.get("lang")), request)
            ruleset = _ruleset(_text(form.get("ruleset")), asked)
            upload, text = form.get("file"), form.get("log")
            name = _text(form.get("name"))[:MAX_NAME] or LOG_NAME
            if isinstance(upload, UploadFile) and upload.size:
                name = (upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1][:MAX_NAME]
                return await upload.read(), asked, ruleset, name or LOG_NAME
            if isinstance(text, str):
                return text.encode("utf-8", "surrogatepass"), asked, ruleset, name
        finally:
            await form.close()
        raise Refused(400, msg("the request is not a form with a log"), asked)

    async def _body(self, reading, language: str):
        """Await ``reading`` within the time a body may take to arrive."""
        try:
            return await asyncio.wait_for(reading, self.limits.body_seconds)
        except _TooLarge:
            raise Refused(413, _larger(self.limits.body_bytes), language) from None
        except TimeoutError:
            raise Refused(408, msg("the request took too long to arrive"), language) from None

    async def _run(self, name: str, args: tuple, seconds: float, language: str):
        try:
            return await self.checkers.run(name, args, seconds)
        except Busy:
            raise Refused(503, msg("the referee is busy: try again in a moment"),
                          language) from None
        except Overrun:
            raise Refused(504, msg("the log took longer than {seconds} seconds to check "
                                   "and was left", seconds=f"{seconds:g}"), language) from None
        except RuntimeError as failure:
            raise Refused(500, msg("the check failed: {reason}", reason=str(failure)),
                          language) from None


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def _language(asked: str | None, request) -> str:
    """Choose the language: ``asked`` when it is one of the catalogs (400 when it is something
    else), else the first of the browser's languages there is a catalog for, else English."""
    if asked:
        code = asked.strip().lower()
        if code in i18n.LANGUAGES:
            return code
        raise Refused(400, msg("no translation for {asked}: choose one of {choices}",
                               asked=escaped(asked[:40]), choices=", ".join(i18n.LANGUAGES)),
                      _language(None, request))
    return _browser_language(request.headers.get("accept-language", ""))


def _browser_language(accepted: str) -> str:
    """Find the first language of an Accept-Language header there is a catalog for, or
    English."""
    for part in accepted[:200].split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in i18n.LANGUAGES:
            return code
    return i18n.SOURCE_LANGUAGE


def _ruleset(name: str, language: str) -> str:
    """Return ``name`` when it is empty or a bundled ruleset's (400 otherwise)."""
    from referee.rules.ruleset_files import bundled_names

    if not name or name in bundled_names():
        return name
    raise Refused(400, msg("unknown ruleset {name}: choose one of {choices}",
                           name=escaped(name[:40]), choices=", ".join(bundled_names())), language)


@lru_cache(maxsize=4)
def _static(name: str) -> bytes:
    return resources.files("referee.serve").joinpath("static", name).read_bytes()


@lru_cache(maxsize=len(i18n.LANGUAGES))
def _page(language: str) -> str:
    from referee.output.html import template
    from referee.rules.ruleset_files import bundled_names

    return template("page.html.j2", language, "referee.serve").render(
        language=language, languages=i18n.LANGUAGES, rulesets=bundled_names(),
        max_bytes=MAX_BODY_BYTES)


def _problem_page(text: str, language: str) -> str:
    from referee.output.html import template

    return template("problem.html.j2", language, "referee.serve").render(language=language,
                                                                          text=text)


class Guard:
    """This ASGI middleware refuses a body larger than the limit with 413 (by its declared
    length at once, else as soon as it grows past it), and gives every response the security
    headers."""

    def __init__(self, app, limits: Limits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.body_bytes
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit, scope)
            return
        started, seen = False, 0

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        async def guarded(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except _TooLarge:
            if not started:
                await _too_large(send, limit, scope)


class _TooLarge(Exception):
    pass


def _larger(limit: int) -> str:
    return msg("the request is larger than {size}: check a shorter log",
               size=format(limit / 1024 / 1024, "g") + " MB")


async def _too_large(send, limit: int, scope) -> None:
    accepted = dict(scope["headers"]).get(b"accept-language", b"").decode("latin-1")
    body = json.dumps({"error": i18n.translate(_larger(limit),
                                               _browser_language(accepted))}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


APP = "referee.serve.app:create_app"
# each worker serves at most this many connections at once (each may hold a body of 2 MB);
# past it uvicorn answers 503 at once
MAX_CONNECTIONS = 128


def missing_extra() -> str | None:
    """Find the first module of the serve extra that is not installed, or None."""
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
        print(i18n.translate(msg("referee serve needs {module}, which is not installed: "
                            "pip install 'referee[serve]'", module=missing), speak),
              file=sys.stderr)
        return EXIT_UNREADABLE
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, not {args.port}")
    if args.workers < 1:
        raise UsageError(f"--workers must be 1 or more, not {args.workers}")
    import uvicorn

    for address in _addresses(args.host):
        print(i18n.translate(msg("referee serve: open http://{address}:{port}/ on a phone or a "
                            "laptop", address=address, port=args.port), speak), file=sys.stderr)
    uvicorn.run(APP, factory=True, host=args.host, port=args.port, workers=args.workers,
                proxy_headers=True,
                forwarded_allow_ips=args.forwarded_allow_ips, limit_concurrency=MAX_CONNECTIONS,
                timeout_keep_alive=5, server_header=False, log_level="info")
    return 0


def _addresses(host: str) -> list[str]:
    """List the addresses a reader can open: the host's, or for ``0.0.0.0`` this machine's on
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
