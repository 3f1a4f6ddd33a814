"""A player that breaks the protocol on purpose, for the tests of `referee match`.

    hostile_bot.py MODE [N] [MARK]

plays as examples/bots/random_bot.py does until its N-th play request (default 3), then:
illegal (plays a card the rules forbid), hang, crash (exits with status 3), garbage (a line
that is not JSON), huge (a 10 MB line), close (closes its output and goes on reading),
wrongtype (answers with a pass), strict (under --conformance, from the start, leaves one legal
card out of its list and never plays it), lax (adds a card it may not play to its list), escape
(at its start leaves behind a process in a session of its own, then plays fair). MARK is
ignored: the tests find the bot's processes by it.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bots"))
from random_bot import Player  # noqa: E402

MODE = sys.argv[1]
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def misbehave(player, msg, reply):
    if MODE == "illegal":
        held = [c for c in player.hand if c not in reply["legal"]]
        absent = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                 "J", "Q", "K", "A") if r + s not in player.hand]
        return {"type": "play", "card": (held or absent)[0], "legal": reply["legal"]}
    if MODE == "hang":
        time.sleep(3600)
    if MODE == "crash":
        os._exit(3)
    if MODE == "garbage":
        return "this is not JSON"
    if MODE == "huge":
        return "x" * (10 * 1024 * 1024)
    if MODE == "close":
        os.close(1)
        for _ in sys.stdin:
            pass
        sys.exit(0)
    if MODE == "wrongtype":
        return {"type": "pass", "cards": []}
    return reply


def escape():
    """Leave a process that outlives this one, as a daemon does: fork, new session, fork."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(3600)
        os._exit(0)


def main():
    if MODE == "escape":
        escape()
    player = Player(1)
    plays = 0
    for line in sys.stdin:
        msg = json.loads(line)
        reply = player.handle(msg)
        if msg["type"] == "start" and MODE in ("strict", "lax"):
            reply["queries"] = ["legal"]
        if msg["type"] == "play_request":
            plays += 1
            options = reply["legal"]
            if MODE == "strict" and len(options) > 1:
                player.hand.append(reply["card"])
                options = options[:-1]
                reply = {"type": "play", "card": options[0], "legal": options}
                player.hand.remove(options[0])
            elif MODE == "lax":
                extra = next(c for c in ("2C", "3C", "4C") if c not in options)
                reply["legal"] = sorted(options + [extra])
            elif plays >= AT:
                reply = misbehave(player, msg, reply)
        if reply is not None:
            sys.stdout.write((reply if isinstance(reply, str) else json.dumps(reply)) + "\n")
            sys.stdout.flush()


main()
