"""This module runs a small pure Python function (the engine's trick resolver) on z3 terms.

It interprets the function's :mod:`ast`: both branches of an ``if`` on a symbolic condition run
and their variables (and early returns) merge with ``If``; ``None`` merged with an int becomes
``-1``.
Python that such functions do not use raises :class:`Unsupported`.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import operator
import textwrap
from typing import Any, Callable

from referee.proofs.rulemodel import Z3Ops

NONE_AS = -1


class Unsupported(Exception):
    """Unsupported says the function uses Python the interpreter does not model."""


class SymSet:
    """A SymSet holds a set of symbolic values as (guard, value) entries; a member is in when
    its guard holds."""

    def __init__(self, entries=()):
        self.entries = list(entries)


class Interpreter:
    def __init__(self, func: Callable) -> None:
        self.ops = Z3Ops()
        self.z3 = self.ops.z3
        try:
            source = textwrap.dedent(inspect.getsource(func))
        except (OSError, TypeError) as err:
            raise Unsupported(f"no source for {func!r}: {err}") from None
        tree = ast.parse(source)
        node = tree.body[0]
        if not isinstance(node, ast.FunctionDef):
            raise Unsupported("not a plain function")
        self.node = node
        self.globals = func.__globals__
        self.name = func.__qualname__

    # -- entry ------------------------------------------------------------------------------
    def run(self, *args, **kwargs) -> Any:
        a = self.node.args
        names = [p.arg for p in a.posonlyargs + a.args]
        env: dict[str, Any] = dict(zip(names, args))
        defaults = a.defaults
        for param, default in zip(names[len(names) - len(defaults):], defaults):
            env.setdefault(param, ast.literal_eval(default))
        for param, default in zip(a.kwonlyargs, a.kw_defaults):
            env[param.arg] = kwargs.get(param.arg, ast.literal_eval(default) if default else None)
        env.update(kwargs)
        self.env, self.live, self.returns = env, True, []
        self._block(self.node.body)
        if self.live is not False:
            self.returns.append((self.live, None))
        result = self.returns[-1][1]
        for guard, value in reversed(self.returns[:-1]):
            result = self._merge(guard, value, result)
        return result

    # -- statements -------------------------------------------------------------------------
    def _block(self, body) -> None:
        for stmt in body:
            if self.live is False:
                return
            self._stmt(stmt)

    def _stmt(self, s) -> None:
        if isinstance(s, ast.Pass) or (isinstance(s, ast.Expr)
                                       and isinstance(s.value, ast.Constant)):
            return
        if isinstance(s, ast.Expr):
            self._expr(s.value)
        elif isinstance(s, ast.Assign):
            value = self._expr(s.value)
            for target in s.targets:
                self._assign(target, value)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self._assign(s.target, self._expr(s.value))
        elif isinstance(s, ast.AugAssign):
            current = self._expr(s.target)
            self._assign(s.target, _same_on_terms(s.op, "operator")(current, self._expr(s.value)))
        elif isinstance(s, ast.Return):
            value = self._expr(s.value) if s.value is not None else None
            self.returns.append((self.live, value))
            self.live = False
        elif isinstance(s, ast.If):
            self._if(s)
        elif isinstance(s, ast.For):
            self._for(s)
        else:
            raise Unsupported(f"{self.name} line {s.lineno}: {type(s).__name__} statement")

    def _assign(self, target, value) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            values = list(value)
            if len(values) != len(target.elts):
                raise Unsupported("unpacking of the wrong length")
            for t, v in zip(target.elts, values):
                self._assign(t, v)
        else:
            raise Unsupported(f"assignment to {type(target).__name__}")

    def _if(self, s: ast.If) -> None:
        test = self._truth(self._expr(s.test))
        if isinstance(test, bool):
            self._block(s.body if test else s.orelse)
            return
        saved_env, saved_live = dict(self.env), self.live
        self.live = self.ops.and_([saved_live, test])
        self._block(s.body)
        then_env, then_live = self.env, self.live
        self.env, self.live = dict(saved_env), self.ops.and_([saved_live, self.z3.Not(test)])
        self._block(s.orelse)
        else_env, else_live = self.env, self.live
        merged = {}
        for key in set(then_env) | set(else_env):
            if key in then_env and key in else_env:
                merged[key] = self._merge(test, then_env[key], else_env[key])
            else:  # bound on one side only: the other side never reads it on a live path
                merged[key] = then_env.get(key, else_env.get(key))
        self.env = merged
        self.live = self.ops.or_([then_live, else_live])

    def _for(self, s: ast.For) -> None:
        if s.orelse:
            raise Unsupported("for ... else")
        items = self._expr(s.iter)
        if isinstance(items, SymSet) or not isinstance(items, (list, tuple, range)):
            raise Unsupported("a for loop over something that is not a concrete sequence")
        for item in list(items):
            if self.live is False:
                return
            self._assign(s.target, item)
            if any(isinstance(stmt, (ast.Break, ast.Continue)) for stmt in s.body):
                raise Unsupported("break/continue")
            self._block(s.body)

    # -- expressions ------------------------------------------------------------------------
    def _expr(self, e) -> Any:
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, ast.Name):
            if e.id in self.env:
                return self.env[e.id]
            if e.id in self.globals:
                return self.globals[e.id]
            if hasattr(builtins, e.id):
                return getattr(builtins, e.id)
            raise Unsupported(f"unknown name {e.id}")
        if isinstance(e, ast.Subscript):
            base = self._expr(e.value)
            index = self._expr(e.slice)
            if isinstance(base, (list, tuple)) and isinstance(index, int):
                return base[index]
            raise Unsupported("subscript with a symbolic index")
        if isinstance(e, ast.Attribute):
            return getattr(self._expr(e.value), e.attr)
        if isinstance(e, (ast.Tuple, ast.List)):
            return tuple(self._expr(x) for x in e.elts)
        if isinstance(e, ast.UnaryOp):
            value = self._expr(e.operand)
            if isinstance(e.op, ast.Not):
                return self.ops.not_(self._truth(value))
            if isinstance(e.op, ast.USub):
                return -value
            raise Unsupported("unary operator")
        if isinstance(e, ast.BinOp):
            return _same_on_terms(e.op, "operator")(self._expr(e.left), self._expr(e.right))
        if isinstance(e, ast.BoolOp):
            return self._boolop(e)
        if isinstance(e, ast.Compare):
            return self._compare(e)
        if isinstance(e, ast.IfExp):
            test = self._truth(self._expr(e.test))
            if isinstance(test, bool):
                return self._expr(e.body if test else e.orelse)
            return self._merge(test, self._expr(e.body), self._expr(e.orelse))
        if isinstance(e, ast.Call):
            return self._call(e)
        raise Unsupported(f"{type(e).__name__} expression")

    def _call(self, e: ast.Call) -> Any:
        if e.keywords and any(k.arg is None for k in e.keywords):
            raise Unsupported("**kwargs")
        if isinstance(e.func, ast.Attribute):
            target = self._expr(e.func.value)
            if isinstance(target, SymSet) and e.func.attr == "add" and len(e.args) == 1:
                target.entries.append((self.live, self._expr(e.args[0])))
                return None
            raise Unsupported(f"method {e.func.attr}")
        func = self._expr(e.func)
        args = [self._expr(a) for a in e.args]
        kwargs = {k.arg: self._expr(k.value) for k in e.keywords}
        if func in (set, frozenset):
            if not args:
                return SymSet()
            source = args[0]
            if isinstance(source, SymSet):
                return SymSet(source.entries)
            return SymSet((True, x) for x in source)
        if func is len:
            (value,) = args
            return self._size(value) if isinstance(value, SymSet) else len(value)
        if func is enumerate:
            return list(enumerate(args[0]))
        if func is range:
            return range(*args)
        if isinstance(func, type) and issubclass(func, tuple):
            fields = getattr(func, "_fields", None)
            if fields is None:
                return tuple(args)
            values = dict(zip(fields, args))
            values.update(kwargs)
            return tuple(values[f] for f in fields)
        raise Unsupported(f"call of {getattr(func, '__name__', func)!r}")

    def _boolop(self, e: ast.BoolOp):
        is_and = isinstance(e.op, ast.And)
        symbolic = []
        for node in e.values:
            value = self._truth(self._expr(node))
            if value is (not is_and):  # short circuit: False for and, True for or
                return value
            symbolic.append(value)
        return (self.ops.and_ if is_and else self.ops.or_)(symbolic)

    def _compare(self, e: ast.Compare):
        left = self._expr(e.left)
        parts = []
        for op, node in zip(e.ops, e.comparators):
            right = self._expr(node)
            parts.append(self._cmp(op, left, right))
            left = right
        return self.ops.and_(parts)

    def _cmp(self, op, a, b):
        if isinstance(op, (ast.In, ast.NotIn)):
            if isinstance(b, SymSet):
                found = self.ops.or_([self.ops.and_([g, self._eq(v, a)]) for g, v in b.entries])
            else:
                found = self.ops.or_([self._eq(v, a) for v in b])
            return found if isinstance(op, ast.In) else self.ops.not_(found)
        if isinstance(op, (ast.Is, ast.IsNot)):
            if self._concrete(a) and self._concrete(b):
                same = a is b
                return same if isinstance(op, ast.Is) else not same
            raise Unsupported("'is' on a symbolic value")
        if isinstance(op, ast.Eq):
            return self._eq(a, b)
        if isinstance(op, ast.NotEq):
            return self.ops.not_(self._eq(a, b))
        return _same_on_terms(op, "comparison")(a, b)

    # -- helpers ----------------------------------------------------------------------------
    def _concrete(self, x) -> bool:
        return not isinstance(x, (self.z3.ExprRef, SymSet))

    def _eq(self, a, b):
        if not (self._concrete(a) and self._concrete(b)) and (
                a is None or b is None or isinstance(a, str) or isinstance(b, str)):
            return False  # a symbolic number is never None nor a string
        return a == b

    def _truth(self, value):
        if isinstance(value, self.z3.BoolRef):
            simple = self.z3.simplify(value)
            if self.z3.is_true(simple):
                return True
            if self.z3.is_false(simple):
                return False
            return value
        if isinstance(value, self.z3.ExprRef):
            return value != 0
        if isinstance(value, SymSet):
            raise Unsupported("truth of a symbolic set")
        return bool(value)

    def _size(self, s: SymSet):
        z3, ops = self.z3, self.ops
        terms = []
        for i, (g, v) in enumerate(s.entries):
            earlier = ops.or_([ops.and_([g2, self._eq(v2, v)]) for g2, v2 in s.entries[:i]])
            new = ops.and_([g, ops.not_(earlier)])
            if new is True:
                terms.append(1)
            elif new is not False:
                terms.append(z3.If(new, 1, 0))
        return z3.Sum(terms) if any(not isinstance(t, int) for t in terms) else sum(terms)

    def _merge(self, cond, a, b):
        if cond is True:
            return a
        if cond is False:
            return b
        if a is b:
            return a
        if isinstance(a, SymSet) or isinstance(b, SymSet):
            if not (isinstance(a, SymSet) and isinstance(b, SymSet)):
                raise Unsupported("a set merged with something else")
            return SymSet([(self.ops.and_([cond, g]), v) for g, v in a.entries]
                          + [(self.ops.and_([self.ops.not_(cond), g]), v) for g, v in b.entries])
        if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
            return tuple(self._merge(cond, x, y) for x, y in zip(a, b))
        if self._concrete(a) and self._concrete(b) and type(a) is type(b) and a == b:
            return a
        a = NONE_AS if a is None else a
        b = NONE_AS if b is None else b
        if isinstance(a, (str, list)) or isinstance(b, (str, list)):
            raise Unsupported("merging values that are not numbers")
        return self.ops.ite(cond, a, b)


# Python ints and z3 terms both implement these operators alike (// as z3's integer division).
_OPERATORS = {ast.Mod: operator.mod, ast.Add: operator.add, ast.Sub: operator.sub,
              ast.Mult: operator.mul, ast.FloorDiv: Z3Ops.div, ast.Lt: operator.lt,
              ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}


def _same_on_terms(op, what: str):
    if type(op) not in _OPERATORS:
        raise Unsupported(f"{what} {type(op).__name__}")
    return _OPERATORS[type(op)]


def members(ops: Z3Ops, s: SymSet, value):
    """Tell whether ``value`` is in the symbolic set (a z3 term, or a bool when that is
    known)."""
    return ops.or_([ops.and_([guard, item == value]) for guard, item in s.entries])
