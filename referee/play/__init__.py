"""A game in progress: the :class:`~referee.play.table.Table` over the engine, the JSON-lines
protocol a program speaks, and matches between programs."""
