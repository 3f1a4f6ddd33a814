"""A fuzzing campaign: mutated logs, records, rulesets and scoresheets through every command.

    nice -n 10 python scripts/hostile_campaign.py --code . --count 100000 --out counts.json
    nice -n 10 python scripts/hostile_campaign.py --code ../base --count 100000 --out before.json

Each input is made from a seed (the logs, records and rulesets in ``examples/`` and the
bundled rulesets of this checkout) by a few random mutations, the same inputs for the same
``--seed`` whatever code runs them (``--code``: the checkout whose ``referee`` is imported),
and goes through one command, in this process (``referee.cli.main``, its standard output a
strict UTF-8 stream), one after another: one core.  ``--cli N`` also runs the first N inputs
through ``python -m referee`` in a child process (10 s each, its peak memory measured).

A run fails when it raises (a traceback), prints "internal error", exits with a code other
than 0, 1 or 2 (or, for ``check --format json``, one its verdicts do not give), takes more
than 10 s (hang), grows the peak memory past 1 GB (memory), or writes a raw control character
or invalid UTF-8 into JSON, JSON lines or SARIF (raw output).  The counts per command and per
failure class go to ``--out`` as JSON, with one reproducer per command and class under
``--keep DIR``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HANG_SECONDS = 10
MEMORY_BYTES = 1 << 30
CLASSES = ("traceback", "internal error", "wrong exit code", "hang > 10 s", "memory > 1 GB",
           "raw output")

# ---- seeds ---------------------------------------------------------------------------------
SHEET_NAMES = ("scoresheet-only.log", "scoresheet-game.log")


def seeds() -> dict[str, list[bytes]]:
    logs = sorted((HERE / "examples" / "logs").glob("*.log"))
    small = [p.read_bytes() for p in logs if p.stat().st_size < 12_000
             and p.name not in SHEET_NAMES]
    sheets = [(HERE / "examples" / "logs" / name).read_bytes() for name in SHEET_NAMES]
    sheets.append(_sheet_of(small[0]))
    records = [p.read_bytes() for p in sorted((HERE / "examples" / "records").glob("*.json"))]
    rulesets = [p.read_bytes() for p in sorted((HERE / "examples" / "rulesets").glob("*.toml"))]
    rulesets += [p.read_bytes() for p in sorted(
        (HERE / "referee" / "rules" / "rulesets").glob("*.toml"))]
    rulesets.append(b'base = "cancellation"\nname = "house"\nmoon_points = 52\n')
    return {"log": small, "record": records, "ruleset": rulesets, "sheet": sheets}


def _sheet_of(log: bytes) -> bytes:
    """The tags and score and total lines of a log: a scoresheet."""
    keep = [line for line in log.split(b"\n") if line.startswith((b"[", b"score", b"total",
                                                                  b"hand"))]
    return b"\n".join(keep) + b"\n"


# ---- mutations -----------------------------------------------------------------------------
TOKENS = [
    "\u202e", "\u2066", "\u2069", "\u2028", "\u2029", "\x9b", "\x85", "\x1b[2J", "\x07", "\x00",
    "\ufeff", "\t", "\r", "\x0c", "\u00a0", "\ufe0f", "²", "٣", "-", "—", "→", "=>", "->",
    "'", '"', "“", ",", ":", "#", "[", "]", "{", "}", "none", "nobody", "hand 1", "trick 1:",
    "score:", "total:", "deal Al:", "pass Al:", "kitty:", "moon Al add", "winner: Al",
    "[Ruleset \"x.toml\"]", "[Target \"0\"]", "[Players \"A A\"]", "10S", "QS", "2C", "ZZ",
]


def _number(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return str(rng.randrange(-5, 200))
    if kind == 1:
        return "9" * rng.choice((10, 19, 40, 400, 4299, 4300, 4301, 5000))
    if kind == 2:
        return "-" + "1" * rng.choice((5, 20, 4301))
    if kind == 3:
        return rng.choice(("1e309", "NaN", "Infinity", "0x" + "f" * 40, "1_000", "1.5", "-0"))
    if kind == 4:
        return str(rng.choice((2**31, 2**63, 10**9, 10**18, 104, 105, 1000, 1001)))
    return "0"


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(("Al", "x", rng.choice(TOKENS), chr(rng.randrange(0x80, 0x3000))))
                   for _ in range(rng.randrange(1, 4)))


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One mutation of raw bytes (the text kinds and a record alike)."""
    kind = rng.randrange(12)
    pos = rng.randrange(len(data) + 1)
    if kind == 0:  # a byte flipped
        if not data:
            return bytes([rng.randrange(256)])
        pos = min(pos, len(data) - 1)
        return data[:pos] + bytes([data[pos] ^ (1 << rng.randrange(8))]) + data[pos + 1:]
    if kind == 1:  # a token
        return data[:pos] + rng.choice(TOKENS).encode() + data[pos:]
    if kind == 2:  # a span deleted
        return data[:pos] + data[pos + rng.randrange(1, 200):]
    if kind == 3:  # a span repeated
        span = data[pos:pos + rng.randrange(1, 300)]
        return data[:pos] + span * rng.choice((2, 3, 50)) + data[pos:]
    if kind == 4:  # a number replaced
        numbers = list(re.finditer(rb"-?\d+", data))
        if numbers:
            m = rng.choice(numbers)
            return data[:m.start()] + _number(rng).encode() + data[m.end():]
        return data + _number(rng).encode()
    if kind == 5:  # bytes that are not UTF-8
        return data[:pos] + bytes(rng.randrange(128, 256) for _ in range(rng.randrange(1, 4))) \
            + data[pos:]
    if kind == 6:  # a name replaced
        names = list(re.finditer(rb"\b(Al|Beth|Charlie|Dave|Eve|Fay|Gus)\b", data))
        if names:
            m = rng.choice(names)
            return data[:m.start()] + _name(rng).encode("utf-8", "surrogatepass") + data[m.end():]
        return data
    if kind == 7:  # lines shuffled
        lines = data.split(b"\n")
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)
    if kind == 8:  # nesting
        depth = rng.choice((31, 32, 33, 100, 500, 990, 1000, 5000))
        opener, closer = rng.choice(((b"[", b"]"), (b'{"a":', b"}")))
        return data[:pos] + opener * depth + b"1" * (opener == b'{"a":') + closer * depth \
            + data[pos:]
        # (an unbalanced half too: kind 9)
    if kind == 9:
        return data[:pos] + rng.choice((b"[", b"{", b'"', b"\\u", b"\\ud800")) * \
            rng.choice((1, 40, 2000)) + data[pos:]
    if kind == 10:  # cut short
        return data[:pos]
    return data[:pos] + data[pos:][::-1][:rng.randrange(1, 50)] + data[pos:]


def mutate_record(data: bytes, rng: random.Random) -> bytes:
    """A structural mutation of a JSON record, else a raw one."""
    nodes: list[tuple[object, object]] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            for key in list(node):
                nodes.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                nodes.append((node, index))
                walk(node[index])

    try:  # (an earlier mutation may have nested it past what json and walk read)
        doc = json.loads(data)
        walk(doc)
    except (ValueError, RecursionError):
        return mutate_bytes(data, rng)
    if not nodes:
        return mutate_bytes(data, rng)
    parent, key = rng.choice(nodes)
    kind = rng.randrange(7)
    depth = rng.choice((30, 31, 32, 33, 64, 500, 900, 980))
    deep = {"a": 1}
    for _ in range(depth):
        deep = {"a": deep} if rng.random() < 0.5 else [deep]
    number = _number(rng)  # written into the text after dumps: json cannot write every one
    value = [deep, "@@NUMBER@@", _name(rng), None, [], {}, "x" * rng.choice((10, 20_000))][kind]
    if isinstance(parent, dict) and rng.random() < 0.4:
        parent[_name(rng)] = value  # an unknown member
    else:
        parent[key] = value
    try:
        text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    except (ValueError, RecursionError):
        return mutate_bytes(data, rng)
    return text.replace('"@@NUMBER@@"', number).encode("utf-8", "surrogatepass")


OPTIONS = ("target", "start_total", "jack_of_diamonds_bonus", "no_tricks_bonus",
           "clean_hand_pool", "moon_points", "pair_moon_points", "min_players", "max_players",
           "decks", "pass_count", "penalty_sign", "pass_cycle", "moon_choices", "base", "name",
           "unpassable_cards", "first_leader", "kitty_to")


def mutate_ruleset(data: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(4)
    if kind == 0:
        return mutate_bytes(data, rng)
    option = rng.choice(OPTIONS)
    value = rng.choice((_number(rng), _number(rng), '"' + _name(rng) + '"', "[" + ", ".join(
        '"' + rng.choice(("left", "right", "9999 left", "² left", "hold", _name(rng))) + '"'
        for _ in range(rng.randrange(0, 4))) + "]", "true", "{a = 1}", "[[[[1]]]]",
        '"cancellation"', '"standard"', '"x.toml"'))
    line = f"{option} = {value}\n".encode("utf-8", "surrogatepass")
    lines = [ln for ln in data.split(b"\n") if not ln.startswith(option.encode() + b" ")]
    if kind == 1:
        return b"\n".join(lines) + b"\n" + line
    return b'base = "cancellation"\n' + line


def make_input(kinds: dict[str, list[bytes]], index: int, seed: int) -> tuple[str, bytes]:
    rng = random.Random(f"{seed}:{index}")
    kind = rng.choices(("log", "record", "ruleset", "sheet"), (40, 20, 15, 25))[0]
    data = rng.choice(kinds[kind])
    mutate = {"record": mutate_record, "ruleset": mutate_ruleset}.get(kind, mutate_bytes)
    for _ in range(rng.choice((1, 1, 2, 3, 5))):
        data = mutate(data, rng)
        if len(data) > 2_000_000:
            data = data[:2_000_000]
    return kind, data


# ---- commands ------------------------------------------------------------------------------
FILE_COMMANDS = {
    "log": [["check"], ["check", "--format", "json"], ["check", "--format", "jsonl"],
            ["check", "--format", "sarif"], ["check", "--format", "github"], ["fmt"],
            ["convert"], ["replay"], ["replay", "--format", "json"], ["report", "-o", "-"],
            ["audit"], ["check", "--invariants"]],
    "sheet": [["check"], ["check", "--format", "json"], ["audit"], ["replay"], ["report", "-o", "-"],
              ["fmt"], ["convert"]],
    "record": [["check"], ["check", "--format", "json"], ["fmt"], ["convert"], ["replay"],
               ["replay", "--format", "json"], ["report", "-o", "-"], ["audit"]],
}
RULESET_COMMANDS = [["rules", "{toml}"], ["check", "--ruleset", "{toml}", "{log}"],
                    ["check", "{tagged}"], ["replay", "--ruleset", "{toml}", "{log}"],
                    ["report", "--ruleset", "{toml}", "-o", "-", "{log}"],
                    ["audit", "--ruleset", "{toml}", "{sheet}"],
                    ["verify-rules", "--timeout", "0.2", "{toml}"],
                    ["generate", "--ruleset", "{toml}", "--players", "{players}", "--hands", "2"]]
MACHINE = ("json", "jsonl", "sarif")


def command_for(kind: str, index: int, seed: int) -> list[str]:
    rng = random.Random(f"{seed}:{index}:command")
    if kind == "ruleset":
        weights = [20, 25, 20, 10, 5, 8, 2, 4]
        return rng.choices(RULESET_COMMANDS, weights)[0]
    if rng.random() < 0.01:
        return ["explain", "{word}"]
    options = FILE_COMMANDS[kind]
    # (z3's commands cost ten to twenty times a check: fewer of them)
    weights = [1 if c[:2] == ["check", "--invariants"] or (c == ["audit"] and kind != "sheet")
               else 2 if c[0] == "report" else 1 if c[0] == "audit" else 10 for c in options]
    return [*rng.choices(options, weights)[0], "{file}"]


def file_name(index: int, seed: int, kind: str) -> str:
    rng = random.Random(f"{seed}:{index}:name")
    suffix = {"record": ".json", "ruleset": ".toml"}.get(kind, ".log")
    if rng.random() < 0.05:  # a name that is not UTF-8, or holds controls
        odd = rng.choice(("\udcff", "\u202e", "\x1b[1m", "\u2028", "\x9b", "\udce9\u2066"))
        return f"in{index}{odd}{suffix}"
    return f"in{index}{suffix}"


class Hang(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001 - a signal handler's signature
    raise Hang


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def classify(args: list[str], code, out: bytes, err: bytes, raised: str | None,
             seconds: float, grew: bool) -> list[str]:
    found = []
    text = (out + err).decode("utf-8", "replace")
    # the audit stops itself at its own budget of 10 s and says so, which is no hang
    stopped = args[0] == "audit" and "not decided within" in text
    if raised == "hang" or seconds > HANG_SECONDS + (2 if stopped else 0):
        found.append("hang > 10 s")
    elif raised is not None:
        found.append("memory > 1 GB" if "MemoryError" in raised else "traceback")
    if "internal error" in text or "Traceback (most recent call last)" in text:
        found.append("internal error" if "internal error" in text else "traceback")
    if grew:
        found.append("memory > 1 GB")
    if raised is None and code not in (0, 1, 2):
        found.append("wrong exit code")
    fmt = args[args.index("--format") + 1] if "--format" in args else None
    if raised is None and fmt in MACHINE:
        try:
            shown = out.decode("utf-8")
        except UnicodeDecodeError:
            found.append("raw output")
        else:
            if not _clean(fmt, shown):
                found.append("raw output")
            if fmt == "json" and args[0] == "check" and code in (0, 1, 2) and \
                    _verdict_code(shown) not in (None, code):
                found.append("wrong exit code")
    return sorted(set(found))


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _shown(text: str) -> bool:
    """Whether the text output would show ``text`` as it is: printable characters and spaces
    (U+00A0 too), nothing it escapes."""
    return text.isprintable() or all(ch.isprintable() or unicodedata.category(ch) == "Zs"
                                     for ch in text)


def _clean(fmt: str, text: str) -> bool:
    """No raw control in the text, and none that a JSON reader would decode from it (in the
    reports; SARIF's tool rules hold the referee's own help text, on lines)."""
    if not all(_shown(line) for line in text.split("\n")):
        return False
    try:
        documents = [json.loads(line) for line in text.split("\n") if line] \
            if fmt == "jsonl" else [json.loads(text)]
        if fmt == "sarif":
            run = documents[0]["runs"][0]
            documents = [run["results"], run["invocations"]]
    except (ValueError, KeyError, IndexError, TypeError):
        return False
    return all(_shown(s) for doc in documents for s in _strings(doc))


def _verdict_code(text: str) -> int | None:
    """The exit code the verdicts of a JSON document give (None: not such a document)."""
    try:
        verdicts = {f["verdict"] for f in json.loads(text)["files"]}
    except (ValueError, KeyError, TypeError):
        return None
    return 2 if "unreadable" in verdicts else 1 if "violations" in verdicts else 0


def run_in_process(main, args: list[str]) -> tuple[object, bytes, bytes, str | None, float]:
    out_raw, err_raw = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_raw, encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(err_raw, encoding="utf-8", errors="strict", write_through=True)
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.TextIOWrapper(io.BytesIO(b""))
    raised, code = None, None
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS + 5)
    try:
        code = main(args)
    except Hang:
        raised = "hang"
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (2 if stop.code else 0)
    except BaseException as caught:  # noqa: BLE001 - every escape is a finding
        if isinstance(caught, KeyboardInterrupt):
            raise
        raised = "".join(traceback.format_exception_only(type(caught), caught)).strip()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        seconds = time.perf_counter() - start
        sys.stdout, sys.stderr, sys.stdin = saved
    return code, out_raw.getvalue(), err_raw.getvalue(), raised, seconds


def run_cli(code_root: str, args: list[str], folder: str) -> tuple[object, bytes, bytes,
                                                                  str | None, float, int]:
    """One run of ``python -m referee ARGS`` under C.UTF-8 with a strict UTF-8 stdout: its
    exit code, output, the last line of a traceback, its time and its peak memory (wait4)."""
    import threading

    env = {**os.environ, "PYTHONPATH": code_root, "LC_ALL": "C.UTF-8",
           "PYTHONIOENCODING": "utf-8:strict"}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=folder, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    got: dict[str, bytes] = {}
    readers = [threading.Thread(target=lambda k=k, f=f: got.__setitem__(k, f.read()))
               for k, f in (("out", proc.stdout), ("err", proc.stderr))]
    for reader in readers:
        reader.start()
    timer = threading.Timer(HANG_SECONDS, lambda: os.killpg(proc.pid, signal.SIGKILL))
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    for reader in readers:
        reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    out, err = got.get("out", b""), got.get("err", b"")
    raised = "hang" if seconds >= HANG_SECONDS else None
    if raised is None and b"Traceback (most recent call last)" in err:
        raised = err.decode("utf-8", "replace").strip().splitlines()[-1]
    return proc.returncode, out, err, raised, seconds, usage.ru_maxrss * 1024


def prepare(folder: Path, kind: str, data: bytes, index: int, seed: int,
            args: list[str]) -> list[str]:
    """The input written to a file of its own (a new name: the ruleset cache is by name) and
    the command's arguments."""
    name = os.fsencode(file_name(index, seed, kind))
    (folder / os.fsdecode(name)).write_bytes(data)
    path = str(folder / os.fsdecode(name))
    tagged = folder / f"tagged{index}.log"
    if "{tagged}" in args:
        tagged.write_text(f'[Ruleset "{os.fsdecode(name)}"]\n' + LOG_TEXT, "utf-8",
                          errors="surrogateescape")
    word = random.Random(f"{seed}:{index}:word").choice(
        ["revoke", "R5.2", data[:40].decode("utf-8", "replace"), "CH201", "5.2", "R99"])
    return [a.format(file=path, toml=path, log=str(LOG_PATH), sheet=str(SHEET_PATH),
                     tagged=str(tagged), word=word,
                     players=random.Random(f"{seed}:{index}:players").choice((3, 4, 6, 11, 12)))
            for a in args]


LOG_PATH = HERE / "examples" / "logs" / "revoke.log"
SHEET_PATH = HERE / "examples" / "logs" / "scoresheet-only.log"
LOG_TEXT = LOG_PATH.read_text("utf-8")


def command_name(args: list[str]) -> str:
    words = [args[0]]
    if "--format" in args:
        words.append(args[args.index("--format") + 1])
    if "--ruleset" in args:
        words.append("--ruleset")
    if "--invariants" in args:
        words.append("--invariants")
    return " ".join(words)


def campaign(options) -> dict:
    sys.path.insert(0, os.path.abspath(options.code))
    os.environ["PYTHONPATH"] = os.path.abspath(options.code)
    import functools

    import referee.cli
    from referee.cli import main

    # the argument parser is built once, not for each run (a quarter of a short run's time)
    referee.cli._parser = functools.lru_cache(maxsize=1)(referee.cli._parser)

    signal.signal(signal.SIGALRM, _alarm)
    kinds = seeds()
    runs: Counter = Counter()
    spent: Counter = Counter()  # seconds of CPU per command
    failures: dict[str, Counter] = defaultdict(Counter)
    by_kind: dict[str, Counter] = defaultdict(Counter)
    kept: dict[str, str] = {}
    details: dict[str, list] = defaultdict(list)  # the first runs of each command and class
    keep = Path(options.keep) if options.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="campaign-") as tmp:
        folder = Path(tmp)
        for index in range(options.start, options.start + options.count):
            kind, data = make_input(kinds, index, options.seed)
            template = command_for(kind, index, options.seed)
            args = prepare(folder, kind, data, index, options.seed, template)
            name = command_name(args)
            before, cpu = peak_rss(), time.process_time()
            code, out, err, raised, seconds = run_in_process(main, args)
            spent[name] += time.process_time() - cpu
            grew = before < MEMORY_BYTES <= peak_rss()
            found = classify(args, code, out, err, raised, seconds, grew)
            runs[name] += 1
            by_kind[kind]["runs"] += 1
            for what in found:
                failures[name][what] += 1
                by_kind[kind][what] += 1
                if len(details[f"{name}|{what}"]) < 100:
                    said = (out + err).decode("utf-8", "replace").strip().splitlines()
                    details[f"{name}|{what}"].append(
                        {"index": index, "seconds": round(seconds, 1), "exit": code,
                         "raised": raised and raised[:200], "said": said[-1][:200] if said else ""})
                if keep and f"{name}|{what}" not in kept:
                    stem = f"{len(kept):03d}-{re.sub(r'[^a-z]+', '-', name + ' ' + what)}"
                    (keep / (stem + ".input")).write_bytes(data)
                    (keep / (stem + ".txt")).write_text(
                        f"{args}\nexit {code}\n{raised}\n--- stdout\n"
                        f"{out[-3000:].decode('utf-8', 'replace')}\n--- stderr\n"
                        f"{err[-3000:].decode('utf-8', 'replace')}\n", "utf-8")
                    kept[f"{name}|{what}"] = stem
            for path in folder.iterdir():
                path.unlink()
            if options.progress and index % options.progress == 0:
                print(f"{index:,} inputs, {time.time() - started:,.0f} s, "
                      f"{sum(sum(c.values()) for c in failures.values())} failures",
                      file=sys.stderr, flush=True)
        cli = cli_sample(options, kinds, folder) if options.cli else {}
    return {"code": options.code, "seed": options.seed, "start": options.start,
            "inputs": options.count,
            "seconds": round(time.time() - started),
            "runs": dict(sorted(runs.items())),
            "cpu_seconds": {name: round(t, 1) for name, t in sorted(spent.items())},
            "failures": {name: dict(sorted(c.items())) for name, c in sorted(failures.items())},
            "by_kind": {kind: dict(sorted(c.items())) for kind, c in sorted(by_kind.items())},
            "kept": kept, "details": dict(sorted(details.items())), "cli": cli}


def cli_sample(options, kinds, folder: Path) -> dict:
    """The first ``--cli`` inputs through ``python -m referee`` in a child process each."""
    runs: Counter = Counter()
    failures: dict[str, Counter] = defaultdict(Counter)
    peak_seen = 0
    for index in range(options.start, options.start + options.cli):
        kind, data = make_input(kinds, index, options.seed)
        args = prepare(folder, kind, data, index, options.seed,
                       command_for(kind, index, options.seed))
        code, out, err, raised, seconds, peak = run_cli(os.path.abspath(options.code), args,
                                                        str(folder))
        grew = peak >= MEMORY_BYTES
        peak_seen = max(peak_seen, peak)
        name = command_name(args)
        runs[name] += 1
        for what in classify(args, code, out, err, raised, seconds, grew):
            failures[name][what] += 1
        for path in folder.iterdir():
            path.unlink()
    return {"runs": dict(sorted(runs.items())), "peak_rss_mb": peak_seen >> 20,
            "failures": {name: dict(sorted(c.items())) for name, c in sorted(failures.items())}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", default=str(HERE), help="the checkout whose referee runs")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--start", type=int, default=0,
                        help="the index of the first input (a campaign may run in parts)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cli", type=int, default=0, metavar="N",
                        help="also run the first N inputs through the real command line")
    parser.add_argument("--out", default=None, help="the counts as JSON (default: stdout)")
    parser.add_argument("--keep", default=None, metavar="DIR",
                        help="one reproducer per command and failure class")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="a progress line on stderr every N inputs")
    options = parser.parse_args()
    result = campaign(options)
    text = json.dumps(result, indent=2, ensure_ascii=True)
    if options.out:
        Path(options.out).write_text(text + "\n", "utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
