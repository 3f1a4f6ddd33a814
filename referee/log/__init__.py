"""The written log: the grammar (package data), event records, the parser, the fast reader, the writer.

Never imports referee.judge: reading a log knows nothing of judging it."""
