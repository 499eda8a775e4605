"""Every error path: what the fence rejects (message, file, line, caret), missing rules,
bad ``wrt``, non-scalar outputs, and a failed compile leaving the cache as it was.

Each rejected function marks its offending line with a comment ``# rejects: NAME``; the
test finds that line in this file and checks the error cites it.
"""

import linecache
import math

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler import reverse as compiler
from srcgrad.compiler import unit_cache

HERE = __file__
FILE_LINES = open(HERE).read().splitlines()


def marked_line(tag):
    """The line number of the line marked ``# rejects: tag``."""
    hits = [i + 1 for i, line in enumerate(FILE_LINES) if line.endswith(f"# rejects: {tag}")]
    assert len(hits) == 1, tag
    return hits[0]


# -- functions the fence rejects ---------------------------------------------------------
def uses_yield(x):
    y = x * 2.0
    yield y  # rejects: yield


def uses_yield_from(x):
    yield from [x, x]  # rejects: yield_from


async def uses_async(x):  # rejects: async
    return x


def uses_global(x):
    global COUNTER  # rejects: global
    COUNTER = x
    return x


def make_nonlocal():
    total = 0.0

    def uses_nonlocal(x):
        nonlocal total  # rejects: nonlocal
        total = x
        return x

    return uses_nonlocal


def uses_exec(x):
    exec("y = 2")  # rejects: exec
    return x


def uses_eval(x):
    return x * eval("2.0")  # rejects: eval


def deletes_then_reads(x, drop=False):
    y = x * 2.0
    if drop:
        del y  # rejects: del
    return y


def def_inside_branch(x):
    if x > 0:
        def helper(z):  # rejects: nested_def
            return z * z
        return helper(x)
    return x


def lambda_as_argument(x):
    return np.sum(np.apply_along_axis(lambda v: v * 2.0, 0, x))  # rejects: lambda


def lambdas_per_item(x):
    scales = [lambda v, c=c: v * c for c in (1.0, 2.0)]  # rejects: lambda_per_item
    return np.sum(scales[0](x))


def set_comprehension(x):
    return len({v for v in x})  # rejects: setcomp


def starred_display(x):
    parts = (x, 2.0)
    return np.sum([*parts, x])  # rejects: starred


def defines_class(x):
    class Box:  # rejects: class
        pass
    return x


def uses_walrus(x):
    if (y := x * 2.0) > 1.0:  # rejects: walrus
        return y
    return x


def imports_inside(x):
    import math as m  # rejects: import
    return m.sin(x)


def nested_subscript_write(x, rows):
    rows[0][1] = x  # rejects: nested_subscript
    return x


def calls_bessel(x):
    y = x * 2.0
    return np.i0(y)  # rejects: missing_rule


OPAQUE = np.frompyfunc(math.sin, 1, 1)   # a callable with no rule and no Python source


def calls_unknown_object(x):
    return OPAQUE(x)  # rejects: unknown_method


REJECTED = [
    (uses_yield, "yield", r"`uses_yield` is a generator, which is not differentiated", "yield y"),
    (uses_yield_from, "yield_from", r"is a generator, which is not differentiated", "yield from"),
    (uses_async, "async", r"`async def` is not supported", "async def"),
    (uses_global, "global", r"`global` is not supported", "global"),
    (make_nonlocal(), "nonlocal", r"`nonlocal` is not supported", "nonlocal"),
    (uses_exec, "exec", r"`exec` is not supported", "exec"),
    (uses_eval, "eval", r"`eval` is not supported", "eval"),
    (deletes_then_reads, "del", r"`del y` of a name that is read later", "del y"),
    (def_inside_branch, "nested_def", r"a `def` nested inside a block", "def helper"),
    (lambda_as_argument, "lambda", r"a `lambda` here is not supported", "lambda v"),
    (lambdas_per_item, "lambda_per_item", r"a `lambda` made for each item of a "
     r"comprehension or loop is not supported yet", "lambda v, c=c"),
    (set_comprehension, "setcomp", r"set comprehensions are not supported", "{v for"),
    (starred_display, "starred", r"starred expressions \(`\*rest`\) outside a call's "
     r"arguments and an assignment's target \(`first, \*rest = items`\) are not supported",
     "*parts"),
    (defines_class, "class", r"a class defined inside a differentiated function", "class"),
    (uses_walrus, "walrus", r"the walrus operator `:=` is not supported", "y :="),
    (imports_inside, "import", r"`import` inside a differentiated function", "import"),
    (nested_subscript_write, "nested_subscript", r"assigning into a nested subscript",
     "rows[0][1]"),
]


def check_citation(error, tag, caret_at):
    """``error`` cites this file, the marked line, and puts its caret under ``caret_at``."""
    lineno = marked_line(tag)
    assert error.filename == HERE
    assert error.lineno == lineno
    text = FILE_LINES[lineno - 1].strip()
    lines = str(error).splitlines()
    assert f'File "{HERE}", line {lineno}' in lines[-3]
    assert lines[-2].strip() == text
    caret = lines[-1]
    assert caret.strip() == "^"
    column = caret.index("^") - (len(lines[-2]) - len(lines[-2].lstrip()))
    assert text[column:].startswith(caret_at), (text, column)


@pytest.mark.parametrize("fn, tag, message, caret_at", REJECTED, ids=[r[1] for r in REJECTED])
def test_fence_rejects_at_decoration(fn, tag, message, caret_at):
    with pytest.raises(sg.TransformError, match=message) as info:
        sg.differentiable(fn)
    check_citation(info.value, tag, caret_at)


@pytest.mark.parametrize("fn, tag, message, caret_at", REJECTED, ids=[r[1] for r in REJECTED])
def test_fence_rejects_on_first_use(fn, tag, message, caret_at):
    with pytest.raises(sg.TransformError, match=message) as info:
        sg.grad(fn)
    check_citation(info.value, tag, caret_at)


def test_transform_error_attributes():
    with pytest.raises(sg.TransformError) as info:
        sg.grad(uses_global)
    error = info.value
    assert isinstance(error, sg.SrcgradError)
    assert error.function == "uses_global"
    assert error.reason.startswith("`global` is not supported")
    assert str(error).startswith(error.reason)


def _function_from_source(source, name, filename):
    """A function whose linecache source is ``source``: lets the fence see constructs
    (like a star-import inside a def) that Python refuses to compile."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(f"def {name}(x):\n    return x\n", filename, "exec"), namespace)
    return namespace[name]


def test_star_import_is_rejected():
    source = "def star_import(x):\n    from math import *\n    return sin(x)\n"
    fn = _function_from_source(source, "star_import", "<star import test>")
    with pytest.raises(sg.TransformError, match="star-imports are not supported") as info:
        sg.grad(fn)
    assert (info.value.filename, info.value.lineno) == ("<star import test>", 2)
    assert str(info.value).splitlines()[-2].strip() == "from math import *"


def test_from_import_is_rejected():
    source = "def from_import(x):\n    from math import sin\n    return sin(x)\n"
    fn = _function_from_source(source, "from_import", "<from import test>")
    with pytest.raises(sg.TransformError, match=r"`from \.\.\. import` inside"):
        sg.grad(fn)


def test_del_of_a_name_not_read_later_is_fine():
    def drops_temporary(x):
        y = x * 3.0
        z = y * y
        del y
        return z

    assert sg.grad(drops_temporary)(2.0) == pytest.approx(18.0 * 2.0)


# -- missing rules -----------------------------------------------------------------------
def test_missing_rule_names_the_function_and_how_to_register():
    with pytest.raises(sg.MissingRuleError) as info:
        sg.grad(calls_bessel)(0.5)
    error = info.value
    assert isinstance(error, sg.TransformError)
    message = str(error)
    assert "no derivative rule for `numpy.i0`" in message
    assert "srcgrad.defrule(numpy.i0" in message
    assert "stop_gradient" in message
    check_citation(error, "missing_rule", "return np.i0")


SCIPY_UFUNCS_WITHOUT_RULES = ("erfcx", "wrightomega", "struve", "kolmogorov", "dawsn")


def test_missing_rule_names_a_scipy_ufunc_by_its_scipy_module():
    """SciPy's ufuncs say ``__module__ == "numpy"``; the hint names the real module."""
    special = pytest.importorskip("scipy.special")
    from srcgrad.rules import REGISTRY

    name = next((n for n in SCIPY_UFUNCS_WITHOUT_RULES
                 if REGISTRY.lookup(getattr(special, n)) is None), None)
    if name is None:
        pytest.skip("every candidate scipy.special ufunc has a rule now")
    ufunc = getattr(special, name)
    with pytest.raises(sg.MissingRuleError) as info:
        sg.grad(lambda x: ufunc(x) * 2.0)(0.5)
    assert f"no derivative rule for `scipy.special.{name}`" in str(info.value)
    assert f"srcgrad.defrule(scipy.special.{name}, " in str(info.value)
    assert "numpy." not in str(info.value).splitlines()[0]


def test_missing_rule_for_an_unknown_callable():
    with pytest.raises(sg.MissingRuleError, match="no derivative rule for") as info:
        sg.grad(calls_unknown_object)(1.0)
    assert info.value.lineno == marked_line("unknown_method")


def test_missing_rule_off_the_differentiated_path_is_fine():
    def bessel_of_constant(x):
        scale = np.i0(0.0)
        return x * scale

    assert sg.grad(bessel_of_constant)(3.0) == pytest.approx(1.0)


# -- bad wrt -----------------------------------------------------------------------------
def two_args(x, y):
    return x * y


@pytest.mark.parametrize("wrt, error, message", [
    (2, ValueError, r"wrt=2 is out of range: two_args has 2 positional parameter\(s\) "
                    r"\('x', 'y'\)"),
    (-3, ValueError, r"wrt=-3 is out of range"),
    ("z", ValueError, r"wrt='z' is not a parameter of two_args\('x', 'y'\)"),
    ((0, "q"), ValueError, r"wrt='q' is not a parameter"),
    (1.0, TypeError, r"wrt must be an int, a parameter name, or a tuple of them; got 1\.0"),
    (True, TypeError, r"wrt must be an int.*got True"),
    (None, TypeError, r"wrt must be an int.*got None"),
    ((0, 1.5), TypeError, r"got 1\.5"),
], ids=["out_of_range", "negative_out_of_range", "unknown_name", "unknown_in_tuple",
        "float", "bool", "none", "float_in_tuple"])
@pytest.mark.parametrize("api", [sg.grad, sg.value_and_grad, sg.vjp],
                         ids=["grad", "value_and_grad", "vjp"])
def test_bad_wrt(api, wrt, error, message):
    with pytest.raises(error, match=message):
        api(two_args, wrt=wrt)


def test_negative_and_named_wrt_are_accepted():
    assert sg.grad(two_args, wrt=-1)(3.0, 4.0) == pytest.approx(3.0)
    assert sg.grad(two_args, wrt="x")(3.0, 4.0) == pytest.approx(4.0)


def test_bad_wrt_compiles_nothing():
    before = compiler.COMPILE_COUNT["reverse"]
    with pytest.raises(ValueError):
        sg.grad(two_args, wrt=5)
    assert compiler.COMPILE_COUNT["reverse"] == before


def test_not_a_function():
    with pytest.raises(TypeError, match="srcgrad differentiates Python functions"):
        sg.grad(math.sin)


def test_source_of_a_plain_function():
    with pytest.raises(TypeError, match="is not a function generated by srcgrad"):
        sg.source(two_args)


# -- outputs grad cannot seed ------------------------------------------------------------
def doubles(x):
    return x * 2.0


def counts(x):
    return len(x)


def test_grad_of_a_vector_output():
    with pytest.raises(TypeError, match=r"grad requires a scalar output; the function "
                                        r"returned shape \(3,\)"):
        sg.grad(doubles)(np.ones(3))


def test_value_and_grad_of_a_vector_output():
    with pytest.raises(TypeError, match="requires a scalar output"):
        sg.value_and_grad(doubles)(np.ones((2, 2)))


def test_vector_output_is_fine_through_vjp():
    value, backward = sg.vjp(doubles)(np.ones(3))
    np.testing.assert_allclose(backward(np.array([1.0, 2.0, 3.0])), [2.0, 4.0, 6.0])


def test_grad_of_an_integer_output():
    with pytest.raises(TypeError, match="requires a float output"):
        sg.grad(counts)(np.ones(3))


# -- the cache -----------------------------------------------------------------------------
def calls_rejected_helper(x):
    return uses_exec(x) * 2.0


def _cached_wrts(fn):
    return unit_cache.cached_wrts(fn)


def test_failed_compile_leaves_the_cache_untouched():
    before = compiler.COMPILE_COUNT["reverse"]
    for _ in range(2):  # the second attempt fails the same way: nothing half-built remains
        with pytest.raises(sg.TransformError, match="`exec` is not supported"):
            sg.grad(calls_rejected_helper)
    assert compiler.COMPILE_COUNT["reverse"] == before
    assert _cached_wrts(calls_rejected_helper) == set()
    assert _cached_wrts(uses_exec) == set()


def test_failed_missing_rule_compile_leaves_the_cache_untouched():
    before = compiler.COMPILE_COUNT["reverse"]
    with pytest.raises(sg.MissingRuleError):
        sg.grad(calls_bessel)
    assert compiler.COMPILE_COUNT["reverse"] == before
    assert _cached_wrts(calls_bessel) == set()


def test_grad_built_twice_compiles_once():
    def cubic(x, y):
        return x ** 3 * y

    before = compiler.COMPILE_COUNT["reverse"]
    first, second = sg.grad(cubic), sg.grad(cubic)
    assert compiler.COMPILE_COUNT["reverse"] == before + 1
    assert first is second
    sg.value_and_grad(cubic)
    sg.vjp(cubic)
    sg.grad(cubic, wrt="x")
    assert compiler.COMPILE_COUNT["reverse"] == before + 1
    sg.grad(cubic, wrt=1)
    assert compiler.COMPILE_COUNT["reverse"] == before + 2
    sg.grad(cubic, wrt=(0, 1))
    assert compiler.COMPILE_COUNT["reverse"] == before + 3
    assert first(2.0, 3.0) == pytest.approx(36.0)


def test_runtime_error_in_generated_code_shows_the_generated_line():
    def divides(x):
        return x / 0.0

    gradient = sg.grad(divides)
    with pytest.raises(ZeroDivisionError) as info:
        gradient(1.0)
    frame = info.traceback[-1]
    assert str(frame.path).startswith("<srcgrad")
    assert "x / 0.0" in linecache.getline(str(frame.path), frame.lineno + 1)


@pytest.mark.parametrize("api, named", [
    (lambda f, x: sg.grad(f)(x), "sg.grad"),
    (lambda f, x: sg.value_and_grad(f)(x), "sg.value_and_grad"),
    (lambda f, x: sg.grad(lambda v: (f(v), 0), has_aux=True)(x), "sg.grad"),
    (lambda f, x: sg.value_and_grad(lambda v: (f(v), 0), has_aux=True)(x),
     "sg.value_and_grad"),
    (lambda f, x: sg.hessian(f)(x), "sg.hessian"),
])
def test_a_non_scalar_output_error_names_the_api_called(api, named):
    def vector(x):
        return np.sin(x) * 2.0
    for _ in range(2):
        with pytest.raises(TypeError, match="requires a scalar output") as caught:
            api(vector, np.array([0.1, 0.2, 0.3]))
        assert named in str(caught.value).split(" requires")[0]
