"""The documented home of the ``check_*`` functions (kept so that existing code keeps working).

They live in :mod:`referee.run.single`; the replay itself is :mod:`referee.check.replay`.
"""

from referee.run.single import MAX_FILE_BYTES, check_bytes, check_parsed, check_path, check_text

__all__ = ["MAX_FILE_BYTES", "check_bytes", "check_parsed", "check_path", "check_text"]
