"""A pickle read without running it: ``pickletools.genops`` drives a stack of plain values.

Nothing is imported or called. GLOBAL names, calls (REDUCE, NEWOBJ), BUILD and
persistent ids go to a *policy* (see :mod:`explorer.core.files.torch_pickle`),
which answers with a plain value or a placeholder, or records what it refused
and answers :data:`OPAQUE`; anything built from an opaque value is opaque too,
so one refusal does not stop the scan and every name in the file is seen.

Each opcode adds at most one small object, and a literal is only as long as
the bytes the stream really holds (the stream clamps every read), so a pickle
that *claims* a 2 GiB string or calls ``bytearray(2**31)`` costs nothing here.
"""

from __future__ import annotations

import pickletools
from collections.abc import Callable
from typing import IO, Any, Protocol

# The opcodes torch's weights-only unpickler knows; a file using others cannot be loaded with weights_only=True.
WEIGHTS_ONLY_OPCODES = frozenset({
    "GLOBAL", "NEWOBJ", "REDUCE", "BUILD", "APPEND", "APPENDS", "SETITEM", "SETITEMS", "MARK", "TUPLE",
    "TUPLE1", "TUPLE2", "TUPLE3", "NONE", "NEWFALSE", "NEWTRUE", "EMPTY_TUPLE", "EMPTY_LIST", "EMPTY_DICT",
    "EMPTY_SET", "BININT", "BININT1", "BININT2", "BINFLOAT", "BINUNICODE", "SHORT_BINSTRING", "BINPERSID",
    "BINGET", "LONG_BINGET", "BINPUT", "LONG_BINPUT", "LONG1", "PROTO", "STOP",
})
_LITERALS = frozenset({
    "INT", "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "FLOAT", "BINFLOAT", "STRING", "BINSTRING",
    "SHORT_BINSTRING", "BINBYTES", "SHORT_BINBYTES", "BINBYTES8", "UNICODE", "SHORT_BINUNICODE", "BINUNICODE",
    "BINUNICODE8", "BYTEARRAY8",
})
_CONSTANTS: dict[str, Any] = {"NONE": None, "NEWTRUE": True, "NEWFALSE": False}
# Scalars that hash in constant time; a dict key or set element must be one of these (or a flat tuple of
# them): a tuple nested through the memo (t2 = (t1, t1), t3 = (t2, t2), ...) would take 2**depth to hash.
_SCALARS = (str, bytes, int, float, complex, bool, type(None))


class PickleDamaged(Exception):
    """The bytes are not a well-formed pickle (truncated, unknown opcode, broken stack or memo)."""


class Opaque:
    """Stands for a value the policy refused to build."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<opaque>"


OPAQUE = Opaque()


class Policy(Protocol):
    """What the machine asks about everything that is more than a literal or a container."""

    def resolve(self, module: str, name: str) -> Any: ...
    def call(self, func: Any, args: Any) -> Any: ...
    def new(self, cls: Any, args: Any) -> Any: ...
    def build(self, inst: Any, state: Any) -> None: ...
    def persistent(self, pid: Any) -> Any: ...
    def refuse(self, name: str | None = None) -> Opaque: ...
    def note_opcode(self, name: str) -> None: ...


class ClampedReader:
    """A read-only view of *limit* bytes of *fh* whose reads never ask for more than is left.

    ``BufferedReader.read(n)`` allocates *n* bytes before it knows how many exist, so a pickle
    claiming a 2**40-byte string would cost that much address space just to be parsed.
    """

    def __init__(self, fh: IO[bytes], limit: int) -> None:
        self._fh = fh
        self._left = max(limit, 0)

    def read(self, n: int = -1) -> bytes:
        n = self._left if n < 0 else min(n, self._left)
        data = self._fh.read(n)
        self._left -= len(data)
        return data

    def readline(self) -> bytes:
        data = self._fh.readline(self._left)
        self._left -= len(data)
        return data


def is_plain_key(key: Any) -> bool:
    """A dict key or set element whose hash costs constant time (or a placeholder, hashed by identity)."""
    if isinstance(key, tuple):
        return len(key) <= 16 and all(isinstance(k, _SCALARS) or _hashes_by_id(k) for k in key)
    return isinstance(key, _SCALARS) or _hashes_by_id(key)


def _hashes_by_id(value: Any) -> bool:
    """Placeholders (and opaque values) hash by identity, in constant time."""
    return type(value).__hash__ is object.__hash__  # type: ignore[comparison-overlap]  # mypy types the slot oddly


class PickleMachine:
    """Runs the opcodes of a pickle against a :class:`Policy`; use a fresh machine (memo) per unpickler torch uses."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.memo: dict[Any, Any] = {}
        self.stack: list[Any] = []
        self.marks: list[list[Any]] = []
        self._ops: dict[str, Callable[[Any], None]] = {
            "EMPTY_TUPLE": lambda _a: self.stack.append(()), "EMPTY_LIST": lambda _a: self.stack.append([]),
            "EMPTY_DICT": lambda _a: self.stack.append({}), "EMPTY_SET": lambda _a: self.stack.append(set()),
            "MARK": self._mark, "TUPLE": lambda _a: self._push(tuple(self._pop_mark())),
            "TUPLE1": lambda _a: self._tuple(1), "TUPLE2": lambda _a: self._tuple(2), "TUPLE3": lambda _a: self._tuple(3),
            "LIST": lambda _a: self._push(list(self._pop_mark())), "DICT": self._dict,
            "FROZENSET": self._frozenset, "APPEND": self._append, "APPENDS": self._appends,
            "SETITEM": self._setitem, "SETITEMS": self._setitems, "ADDITEMS": self._additems,
            "POP": lambda _a: self._discard(self.stack.pop()), "POP_MARK": lambda _a: self._discard(self._pop_mark()),
            "DUP": lambda _a: self.stack.append(self.stack[-1]),
            "GET": self._get, "BINGET": self._get, "LONG_BINGET": self._get,
            "PUT": self._put, "BINPUT": self._put, "LONG_BINPUT": self._put,
            "MEMOIZE": lambda _a: self._put(len(self.memo)),
            "GLOBAL": self._global, "STACK_GLOBAL": self._stack_global, "REDUCE": self._reduce,
            "NEWOBJ": self._newobj, "NEWOBJ_EX": self._newobj_ex, "BUILD": self._build,
            "PERSID": lambda a: self.stack.append(self.policy.persistent(a)),
            "BINPERSID": lambda _a: self.stack.append(self.policy.persistent(self.stack.pop())),
            "INST": self._inst, "OBJ": self._obj,
        }

    def load(self, stream: Any) -> Any:
        """The value the next pickle in *stream* stands for (the stream is left just after its STOP)."""
        self.stack, self.marks = [], []
        try:
            for op, arg, _pos in pickletools.genops(stream):
                name = op.name
                if name not in WEIGHTS_ONLY_OPCODES:
                    self.policy.note_opcode(name)
                if name == "STOP":
                    return self.stack.pop()
                self._step(name, arg)
        except (ValueError, IndexError, KeyError, EOFError) as exc:
            # genops: truncated data or a byte that is no opcode; the stack or memo: a broken pickle
            raise PickleDamaged(str(exc)[:200]) from None
        raise PickleDamaged("the pickle ended before its STOP opcode")

    def _step(self, name: str, arg: Any) -> None:
        if name in _LITERALS:
            if name in ("SHORT_BINSTRING", "BINSTRING"):  # genops reads Latin-1; torch.load decodes UTF-8, strictly
                arg = arg.encode("latin-1").decode("utf-8")
            self.stack.append(arg)
        elif name in _CONSTANTS:
            self.stack.append(_CONSTANTS[name])
        elif name in ("PROTO", "FRAME"):
            pass
        elif name in self._ops:
            self._ops[name](arg)
        else:  # EXT1/2/4 (the copyreg registry), NEXT_BUFFER, READONLY_BUFFER: never in a tensor file
            self.stack.append(self.policy.refuse())

    # -- stack and containers ----------------------------------------------------------
    def _mark(self, _arg: Any) -> None:
        self.marks.append(self.stack)
        self.stack = []

    def _pop_mark(self) -> list[Any]:
        items, self.stack = self.stack, self.marks.pop()
        return items

    def _push(self, value: Any) -> None:
        """Push onto the stack in effect *after* the argument was made (a mark may have been popped)."""
        self.stack.append(value)

    def _discard(self, _value: Any) -> None:
        """POP and POP_MARK drop what they take."""

    def _tuple(self, n: int) -> None:
        if len(self.stack) < n:
            raise IndexError("stack underflow")
        items = tuple(self.stack[-n:])
        del self.stack[-n:]
        self.stack.append(items)

    def _key(self, key: Any) -> bool:
        """Whether *key* may be hashed; a costly one is refused (torch.load would hash it too)."""
        if is_plain_key(key):
            return True
        self.policy.refuse()
        return False

    def _fill(self, target: Any, items: list[Any]) -> None:
        """SETITEM(S): only real dicts take items (torch allows dict, OrderedDict and Counter)."""
        if isinstance(target, Opaque):
            return
        if not isinstance(target, dict) or len(items) % 2:
            self.policy.refuse()
            return
        for key, value in zip(items[::2], items[1::2]):
            if self._key(key):
                target[key] = value

    def _dict(self, _arg: Any) -> None:
        target: dict[Any, Any] = {}
        self._fill(target, self._pop_mark())
        self.stack.append(target)

    def _setitem(self, _arg: Any) -> None:
        value, key = self.stack.pop(), self.stack.pop()
        self._fill(self.stack[-1], [key, value])

    def _setitems(self, _arg: Any) -> None:
        items = self._pop_mark()
        self._fill(self.stack[-1], items)

    def _frozenset(self, _arg: Any) -> None:
        items = self._pop_mark()
        self.stack.append(frozenset(i for i in items if self._key(i)))

    def _additems(self, _arg: Any) -> None:
        items = self._pop_mark()
        target = self.stack[-1]
        if isinstance(target, set):
            target.update(i for i in items if self._key(i))
        elif not isinstance(target, Opaque):
            self.policy.refuse()

    def _append(self, _arg: Any) -> None:
        item = self.stack.pop()
        self._extend(self.stack[-1], [item])

    def _appends(self, _arg: Any) -> None:
        items = self._pop_mark()
        self._extend(self.stack[-1], items)

    def _extend(self, target: Any, items: list[Any]) -> None:
        if isinstance(target, list):
            target.extend(items)
        elif not isinstance(target, Opaque):  # plain pickle would call the object's own append()
            self.policy.refuse()

    # -- memo ----------------------------------------------------------------------------
    def _get(self, key: Any) -> None:
        self.stack.append(self.memo[key])

    def _put(self, key: Any) -> None:
        if isinstance(key, int) and key < 0:
            raise ValueError("negative memo index")
        self.memo[key] = self.stack[-1]

    # -- everything else goes to the policy ------------------------------------------------
    def _global(self, arg: Any) -> None:
        module, _, name = str(arg).partition(" ")
        self.stack.append(self.policy.resolve(module, name))

    def _stack_global(self, _arg: Any) -> None:
        name, module = self.stack.pop(), self.stack.pop()
        if isinstance(module, str) and isinstance(name, str):
            self.stack.append(self.policy.resolve(module, name))
        else:
            self.stack.append(self.policy.refuse())

    def _inst(self, arg: Any) -> None:
        """INST (protocol 0): make an instance of a named class, like calling it."""
        args = tuple(self._pop_mark())
        module, _, name = str(arg).partition(" ")
        self.stack.append(self.policy.call(self.policy.resolve(module, name), args))

    def _obj(self, _arg: Any) -> None:
        """OBJ (protocol 1): the class is the first item after the mark."""
        items = self._pop_mark()
        if not items:
            raise IndexError("OBJ without a class")
        self.stack.append(self.policy.call(items[0], tuple(items[1:])))

    def _reduce(self, _arg: Any) -> None:
        args = self.stack.pop()
        func = self.stack.pop()
        self.stack.append(self.policy.call(func, args))

    def _newobj(self, _arg: Any) -> None:
        args = self.stack.pop()
        cls = self.stack.pop()
        self.stack.append(self.policy.new(cls, args))

    def _newobj_ex(self, _arg: Any) -> None:
        self.stack.pop()  # keyword arguments
        args = self.stack.pop()
        cls = self.stack.pop()
        value = self.policy.new(cls, args)
        self.stack.append(value if isinstance(value, Opaque) else self.policy.refuse())

    def _build(self, _arg: Any) -> None:
        state = self.stack.pop()
        self.policy.build(self.stack[-1], state)
