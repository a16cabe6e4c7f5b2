"""What one C call inside a script may build, and how much a whole evaluation may allocate.

The step budget (`policy.Budget`) counts Python-level work, but a single C call runs without a step:
`int(Decimal('1e1000000'))` froze a worker for minutes, `l.extend(range(3 * 10 ** 7))` grew the
database by half a gigabyte, `f'{x:>200000000}'` built 200 MB in 0.1 s. So:

- sizes a call takes are checked before it runs: repetition (`'x' * n`,
  `[0] * n`), `+` of sequences, `str.ljust`/`center`/`zfill`/`expandtabs`/`replace`/`join`/
  `translate`, `list.extend`, `set.update`, `dict.fromkeys`, format widths and precisions
  (f-strings and `%`), `*`/`**` unpacking; what those consume without a size (`zip(...)`, a
  generator) goes through the step-counting iterator, so it is bounded like a loop;
- Decimals may not hold exponents beyond `MAX_DECIMAL_DIGITS`, the same bound Python puts on
  int/str conversion (whose cost is quadratic in the digits), and arithmetic runs under a context
  with that `Emax` (see `decimal_context`);
- every item those builders make (a character, a list element) is charged to the evaluation's
  allocation budget, `MAX_ALLOCATED_ITEMS`, so a loop of individually small builds stops too.

What a script can still allocate without a charge is bounded by what it already holds (copies:
`str(x)`, `dict(d)`) times the steps and seconds of `Budget`. What a script saves is bounded
again: after each script by `task_data_size`, per case by `engine.runtime.data_size`.
"""
from __future__ import annotations

import decimal
import re
from decimal import Decimal
from typing import Callable

from engine.errors import ScriptError

MAX_INT_EXPONENT = 10_000
MAX_INT_BITS = 100_000
MAX_SEQUENCE_ITEMS = 1_000_000
MAX_ALLOCATED_ITEMS = 20_000_000
MAX_FORMAT_WIDTH = 10_000
MAX_DECIMAL_DIGITS = 4_300  # sys.get_int_max_str_digits() of Python 3.11

_SEQUENCES = (str, bytes, bytearray, list, tuple)
# %[(key)][flags][width][.precision]: a width or precision of `*` comes from the arguments.
_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
# [[fill]align][sign][z][#][0][width][grouping][.precision][type]
_SPEC_NUMBERS = re.compile(r"(\d+)")


def refuse(what: str):
    raise ScriptError(f"script refused: {what} is too large for a script")


def check_mul(left, right) -> None:
    if isinstance(left, int) and isinstance(right, int):
        if left.bit_length() + right.bit_length() > MAX_INT_BITS:
            refuse("the product")
        return
    for seq, times in ((left, right), (right, left)):
        if isinstance(seq, _SEQUENCES) and isinstance(times, int):
            if len(seq) * times > MAX_SEQUENCE_ITEMS:
                refuse(f"a repeated {type(seq).__name__} of {len(seq) * times} items")


def check_add(left, right) -> None:
    if not isinstance(left, _SEQUENCES):
        return
    try:
        # Any sized right side, not only sequences: `items += range(10 ** 12)` extends in C.
        total = len(left) + len(right)
    except TypeError:
        return  # unsized: a generator goes through the counting iterator anyway
    if total > MAX_SEQUENCE_ITEMS:
        refuse(f"a {type(left).__name__} of {total} items")


def _huge_decimal(value) -> bool:
    return isinstance(value, Decimal) and value.is_finite() and abs(value.adjusted()) > MAX_DECIMAL_DIGITS


def check_decimal(value):
    if _huge_decimal(value):
        refuse(f"a decimal with {abs(value.adjusted())} digits of exponent")
    return value


def decimal_context():
    """The caller's context (precision, rounding, traps) with exponents bounded, so arithmetic in a
    script cannot make a huge Decimal: `with decimal_context(): ...`."""
    return decimal.localcontext(Emax=MAX_DECIMAL_DIGITS, Emin=-MAX_DECIMAL_DIGITS)


def _sized_length(iterable) -> int:
    try:
        return len(iterable)
    except TypeError:  # unsized: iterates through the counting iterator, or holds what exists
        return 0


def _check_width(width, what: str) -> None:
    if isinstance(width, int) and width > MAX_FORMAT_WIDTH:
        refuse(f"{what} {width}")


def check_spec(value, spec: str) -> None:
    """A format spec (f-string, `format`) names no width or precision beyond MAX_FORMAT_WIDTH."""
    for number in _SPEC_NUMBERS.findall(spec):
        if len(number) > 5 or int(number) > MAX_FORMAT_WIDTH:
            refuse(f"the format width {number[:12]}")
    check_decimal(value)


def check_percent(template, args) -> None:
    """`'%0999999999d' % 1`, `'%*d' % (10 ** 9, 1)` and `'%d' % Decimal('1e1000000')` refused."""
    values = args if isinstance(args, tuple) else (args,)
    for width, precision in _PERCENT_FIELD.findall(template if isinstance(template, str) else ""):
        for number in (width, precision):
            if number.isdigit() and (len(number) > 5 or int(number) > MAX_FORMAT_WIDTH):
                refuse(f"the format width {number[:12]}")
    if "*" in template:
        for value in values:
            _check_width(value if isinstance(value, int) and not isinstance(value, bool) else 0, "the format width")
    for value in values:
        check_decimal(value)


_SIZED_METHOD_NAMES = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs", "replace", "join",
                                 "translate", "extend", "update", "union", "fromkeys"})


def _long_range(numbers: range) -> bool:
    try:
        return len(numbers) > MAX_SEQUENCE_ITEMS
    except OverflowError:  # more than sys.maxsize numbers
        return True


class _IntsOnly:
    """A long range that answers `in` for ints only, where the answer is arithmetic, not a scan."""

    def __init__(self, numbers: range):
        self.numbers = numbers

    def __contains__(self, value):
        if type(value) is not int:
            refuse(f"looking for a {type(value).__name__} in a range of {self.numbers}")
        return value in self.numbers


class Sizes:
    """The builders of one evaluation, charging what they make to its allocation budget."""

    def __init__(self, budget):
        self.budget = budget

    def charge(self, items: int) -> None:
        self.budget.allocated += items
        if self.budget.allocated > MAX_ALLOCATED_ITEMS:
            self.budget.exceeded_memory()

    def sized(self, result):
        try:
            self.charge(len(result))
        except TypeError:
            pass
        return result

    def counted(self, iterable):
        """A sized iterable as it is (checked by size); an unsized one (`zip(range(10 ** 12))`) through
        the step-counting iterator, so a C consumer of it is bounded like a loop."""
        try:
            len(iterable)
        except TypeError:
            return self.budget.iterate(iterable)
        return iterable

    def methods(self) -> dict[tuple[type, str], Callable]:
        """Wrappers for the methods whose result size is an argument, by (type, name)."""
        charge, sized, counted = self.charge, self.sized, self.counted

        def padded(method):
            def call(width, *args):
                _check_width(width, "the width")
                return sized(method(width, *args))
            return call

        def expandtabs(text):
            def call(tabsize=8):
                _check_width(tabsize, "the tab size")
                charge(text.count("\t" if isinstance(text, str) else b"\t") * max(tabsize, 0))
                return sized(text.expandtabs(tabsize))
            return call

        def replace(text):
            def call(old, new, count=-1):
                hits = text.count(old) if old else len(text) + 1
                hits = hits if count < 0 else min(hits, count)
                total = len(text) + hits * (len(new) - len(old))
                if total > MAX_SEQUENCE_ITEMS:
                    refuse(f"a replaced text of {total} characters")
                return sized(text.replace(old, new, count))
            return call

        def join(text):
            def call(parts):
                parts = parts if isinstance(parts, (list, tuple)) else list(self.budget.iterate(parts))
                total = sum(len(p) for p in parts if isinstance(p, (str, bytes))) + len(text) * len(parts)
                if total > MAX_SEQUENCE_ITEMS:
                    refuse(f"a joined text of {total} characters")
                return sized(text.join(parts))
            return call

        def translate(text):
            def call(table):
                longest = max((len(v) for v in table.values() if isinstance(v, str)), default=1) \
                    if isinstance(table, dict) else 1
                if len(text) * longest > MAX_SEQUENCE_ITEMS:
                    refuse(f"a translated text of up to {len(text) * longest} characters")
                return sized(text.translate(table))
            return call

        def growing(container, method_name):
            method = getattr(container, method_name)

            def call(*iterables):
                total = len(container) + sum(_sized_length(i) for i in iterables)
                if total > MAX_SEQUENCE_ITEMS:
                    refuse(f"a {type(container).__name__} of {total} items")
                charge(total - len(container))
                return method(*(counted(i) for i in iterables))
            return call

        def fromkeys(cls):
            def call(keys, value=None):
                if _sized_length(keys) > MAX_SEQUENCE_ITEMS:
                    refuse(f"a dict of {_sized_length(keys)} keys")
                return sized(cls.fromkeys(counted(keys), value))
            return call

        out: dict[tuple[type, str], Callable] = {}
        for kind in (str, bytes):
            for name in ("ljust", "rjust", "center", "zfill"):
                out[(kind, name)] = lambda obj, name=name: padded(getattr(obj, name))
            out[(kind, "expandtabs")] = expandtabs
            out[(kind, "replace")] = replace
            out[(kind, "join")] = join
            out[(kind, "translate")] = translate
        out[(list, "extend")] = lambda obj: growing(obj, "extend")
        out[(set, "update")] = lambda obj: growing(obj, "update")
        out[(set, "union")] = lambda obj: growing(obj, "union")
        out[(dict, "update")] = lambda obj: growing(obj, "update")
        out[(dict, "fromkeys")] = fromkeys
        return out

    def builtins(self, static: dict) -> dict:
        """The guards and builtins that check sizes, for the restricted `__builtins__`."""
        charge, sized = self.charge, self.sized
        methods: dict = {}
        getattr_ = static["_getattr_"]
        getitem_ = static["_getitem_"]

        def guarded_getattr(obj, name):
            if name in _SIZED_METHOD_NAMES:
                # Built on first use: most evaluations never call one of these.
                if not methods:
                    methods.update(self.methods())
                wrapper = methods.get((type(obj), name))
                if wrapper is not None:
                    return wrapper(obj)
            if name == "as_integer_ratio":
                check_decimal(obj)
            return getattr_(obj, name)

        def guarded_getitem(obj, index):
            # A slice copies: charged, like any other build.
            return sized(getitem_(obj, index)) if isinstance(index, slice) else getitem_(obj, index)

        def mul(left, right):
            check_mul(left, right)
            return sized(left * right) if isinstance(left, _SEQUENCES) or isinstance(right, _SEQUENCES) \
                else left * right

        def add(left, right):
            check_add(left, right)
            return sized(left + right) if isinstance(left, _SEQUENCES) else left + right

        def mod(left, right):
            if isinstance(left, (str, bytes)):
                check_percent(left if isinstance(left, str) else left.decode("latin-1"), right)
                return sized(left % right)
            return left % right

        def format_value(value, conversion: int, spec: str):
            value = repr(value) if conversion == 114 else ascii(value) if conversion == 97 else \
                str(value) if conversion == 115 else value
            check_spec(value, spec)
            return sized(format(value, spec))

        def starred(value):
            length = _sized_length(value)
            if length > MAX_SEQUENCE_ITEMS:
                refuse(f"unpacking {length} items")
            charge(length)
            return self.counted(value)

        def container_of_in(value):
            # `in` on a range is arithmetic for an int, a scan for anything else; on an unsized
            # iterable (zip, enumerate) always a scan: counted, or refused when too long.
            if type(value) is range and _long_range(value):
                return _IntsOnly(value)
            return self.counted(value)

        def integer(*args, **kwargs):
            if args:
                check_decimal(args[0])
            return int(*args, **kwargs)

        def rounded(number, ndigits=None):
            if ndigits is None:
                check_decimal(number)
            return round(number, ndigits)

        def decimal_of(value="0", context=None):
            return check_decimal(Decimal(value, context))

        inplace = dict(static["_inplace_ops_"], **{"+=": add, "*=": mul})

        def guarded_inplacevar(op: str, target, value):
            return inplace[op](target, value)

        return {
            "_inplacevar_": guarded_inplacevar,
            "_getattr_": guarded_getattr, "_getitem_": guarded_getitem, "_mul_": mul, "_add_": add,
            "_mod_": mod, "_format_": format_value, "_starred_": starred, "_in_": container_of_in,
            "int": integer, "round": rounded, "Decimal": decimal_of,
        }

