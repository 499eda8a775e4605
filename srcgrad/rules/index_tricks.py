"""NumPy objects read by subscript (``np.r_``, ``np.c_``, ``np.mgrid``...; see
``normalize.index_objects``), and the builtins that build their keys and records:
``slice(...)`` (``dict(a=x)`` is the display ``{'a': x}``: ``normalize.index_objects``)."""

import builtins

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, deflinear

# np.r_[x, c], np.c_[a, b]: linear in the data items of the key (slices and directive
# strings add constants).
defadjoint(rt.concat_items, "maker, key", name="numpy.r_[...] and numpy.c_[...]",
           key="_sg.concat_items_adjoint(g, maker, key)",
           tangent={"key": "_sg.concat_items_tangent(key_dot, maker, key)"}
           ).constants["maker"] = "the join itself (np.r_ or np.c_), not a number"
deflinear(rt.concat_items_adjoint, "v, maker, key", "_sg.concat_items_tangent(g, maker, key)",
          linear_in="v")
deflinear(rt.concat_items_tangent, "v, maker, key", "_sg.concat_items_adjoint(g, maker, key)",
          linear_in="v")

# np.mgrid[...], np.ogrid[...]: grids of constants, given constant slices; another
# NumPy or SciPy object's item: no derivative through its key (refused where one flows).
defadjoint(rt.grid_items, "maker, key", name="numpy.mgrid[...] and numpy.ogrid[...]",
           refuses=("key",)).constants["maker"] = "the grid maker itself, not a number"
defadjoint(rt.library_item, "obj, key", name="an item of a NumPy or SciPy object (obj[key])",
           refuses=("key",)).constants["obj"] = "a library object, not a number"

# slice(start, stop, step): indices. A bound carrying a derivative is refused (np.r_[0:x]
# and np.mgrid[0:x:5j] depend on x; an array's own slice bounds must be integers).
defadjoint(builtins.slice, "start, stop=None, step=None", refuses=("start", "stop", "step"))
