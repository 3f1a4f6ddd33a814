"""Lark grammars shipped as package data (installed as referee.log.grammars)."""
