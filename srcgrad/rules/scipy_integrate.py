"""``scipy.integrate.odeint``, differentiated by the adjoint method in reverse mode and
by sensitivity equations in forward mode (``srcgrad.runtime.ode_adjoints``), w.r.t. the
initial state, the output times and the float items of ``args``; the dynamics function
is the user's, differentiated by srcgrad when the derivative runs. At every higher order
the helpers' derivatives are those of programs integrating the same equations with odeint
(``srcgrad.compiler.dispatch_odeint``), so odeint's rows apply again."""

try:
    import scipy.integrate as si
except ImportError:  # pragma: no cover - exercised only without SciPy
    si = None

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defconstant, defdispatched

_SPEC = ("func, y0, t, args=(), Dfun=None, col_deriv=0, full_output=0, ml=None, mu=None, "
         "rtol=None, atol=None, tcrit=None, h0=0.0, hmax=0.0, hmin=0.0, ixpr=0, mxstep=0, "
         "mxhnil=0, mxordn=12, mxords=5, printmessg=0, tfirst=False")
_CALL = "func, y0, t, args, ans, tfirst, full_output, rtol, atol, mxstep"


def _register():
    adjoints = {name: f"_sg.odeint_adjoints(g, {_CALL})[{i}]"
                for i, name in enumerate(("y0", "t", "args"))}
    dots = ("y0", "t", "args")
    tangents = {name: f"_sg.odeint_tangent({_CALL}, "
                      + ", ".join(f"{d}_dot" if d == name else "None" for d in dots) + ")"
                for name in dots}
    defadjoint(si.odeint, _SPEC, tangent=tangents, name="scipy.integrate.odeint",
               refuses=("func",), **adjoints)
    # Differentiated again, the helpers are calls resolved when they run: the derivative
    # of a program integrating the same equations with odeint, its dynamics the user's
    # generated derivative (``srcgrad.compiler.dispatch_odeint``).
    defdispatched(rt.odeint_adjoints, rt.odeint_tangent)
    settings = ("Dfun col_deriv full_output ml mu rtol atol tcrit h0 hmax hmin ixpr mxstep "
                "mxhnil mxordn mxords printmessg tfirst")
    defconstant(si.odeint, **{name: "a solver setting: the solution it approximates does not "
                              "depend on it" for name in settings.split()})


if si is not None:
    _register()
