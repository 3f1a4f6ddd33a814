"""``referee serve``: a web page to check a log from any phone or laptop (Starlette on
uvicorn, the optional extra ``referee[serve]``).

A scorer pastes, uploads or types a log and sees its diagnostics as they type, gets the
report page, or audits a score sheet.  Every check runs in a checker process of
:mod:`referee.serve.checkers` under a time limit; the requests are bounded in size
(:mod:`referee.serve.app`); nothing is read from disk on a request's behalf (a log may name
only a bundled ruleset, and a request chooses only among those).
"""
