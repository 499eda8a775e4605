"""Every way a function reaches the function it calls, each as ``f(x) -> scalar``.

Each entry of ``PROGRAMS`` is differentiated by every API in ``test_indirection``;
the oracle is central finite differences of the entry itself.
"""

import functools
import types

import numpy as np

xp = np                                       # a module under another name
ACT = np.tanh                                 # a NumPy function as a global value
FNS = [np.sin, np.tanh]
OPS = {"sum": np.sum, "tanh": np.tanh}
CFG = types.SimpleNamespace(xp=np, act=np.tanh)
B = types.SimpleNamespace(ops=types.SimpleNamespace(sum=np.sum))


def helper(v):
    return np.sum(v * np.sin(v))


def twice(fn):
    @functools.wraps(fn)
    def wrapper(v):
        return 2.0 * fn(v)
    return wrapper


@twice
def decorated(v):
    return np.sum(np.tanh(v))


class Net:
    def __init__(self, scale=1.5):
        self.scale = scale

    def forward(self, v):
        return np.sum(self.scale * np.tanh(v))

    def __call__(self, v):
        return self.forward(v) + np.sum(v * v)


NET = Net()


class Sums:
    """Methods named like ndarray methods: the object is not an array."""

    def sum(self, v):
        return np.sum(np.sin(v))

    def mean(self, v):
        return np.sum(v * v * v)

    def clip(self, v):
        return np.sum(np.exp(v))

    def count(self, v):
        return np.sum(np.cos(v))

    def any(self, v):
        return np.sum(v * v)


SUMS = Sums()


class Base:
    def energy(self, v):
        return np.sum(v * v)


class Derived(Base):
    def energy(self, v):
        return super().energy(v) * 3.0 + np.sum(np.sin(v))


def make_scaled(a):
    return lambda v: a * np.tanh(v)


def make_closure(a):
    def inner(v):
        return np.sum(a * np.sin(v))
    return inner


def closure_object():
    net = Net(0.5)
    return lambda v: net.forward(v)


def module_alias(x):
    return xp.sum(x * x)


def module_parameter(x, xp=np):
    return xp.sum(x * x)


def function_parameter(x, act=np.tanh):
    return np.sum(act(x))


def global_alias(x):
    return np.sum(ACT(x))


def attribute_chain(x):
    return CFG.xp.sum(CFG.act(x) * x)


def closure_over_module():
    return lambda x: B.ops.sum(x * x)


def type_method(x):
    return type(x).sum(x * x)


def list_item(x):
    return np.sum(FNS[0](x)) + np.sum(FNS[1](x))


def dict_item(x):
    return OPS["sum"](OPS["tanh"](x) * x)


def through_getattr(x):
    name = "tanh"
    return np.sum(getattr(np, name)(x))


def conditional(x, c=True):
    fn = np.sin if c else np.cos
    return np.sum(fn(x))


def partial_sum(x):
    return np.sum(functools.partial(np.sum, axis=0)(x * x))


def through_map(x):
    return sum(map(np.sin, x))


def through_decorator(x):
    return decorated(x)


def global_method(x):
    return NET.forward(x)


def global_call(x):
    return NET(x)


def local_method(x):
    net = Net(2.0)
    return net.forward(x)


def user_named_methods(x):
    return SUMS.sum(x) + SUMS.mean(x) + SUMS.clip(x) + SUMS.count(x) + SUMS.any(x)


def local_named_methods(x):
    s = Sums()
    return s.sum(x) + s.mean(x) + s.count(x)


def through_super(x):
    return Derived().energy(x)


def factory_lambda(x):
    return np.sum(make_scaled(2.0)(x))


def factory_closure(x):
    return make_closure(3.0)(x)


def array_methods(x):
    y = np.sin(x)
    return y.sum() + (x * x).sum() + x.mean()


PROGRAMS = {
    "module_alias": module_alias,
    "module_parameter": module_parameter,
    "function_parameter": function_parameter,
    "global_alias": global_alias,
    "attribute_chain": attribute_chain,
    "closure_over_module": closure_over_module(),
    "type_method": type_method,
    "list_item": list_item,
    "dict_item": dict_item,
    "getattr": through_getattr,
    "conditional": conditional,
    "partial": partial_sum,
    "map": through_map,
    "decorator": through_decorator,
    "global_method": global_method,
    "global_call": global_call,
    "local_method": local_method,
    "closure_object": closure_object(),
    "user_named_methods": user_named_methods,
    "local_named_methods": local_named_methods,
    "super": through_super,
    "factory_lambda": factory_lambda,
    "factory_closure": factory_closure,
    "array_methods": array_methods,
}
