"""This package plays a game in progress: it holds the :class:`~referee.play.table.Table` over
the engine, the JSON-lines protocol a program speaks, and matches between programs."""
