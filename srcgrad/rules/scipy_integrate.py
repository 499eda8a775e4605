"""``scipy.integrate.odeint``, differentiated by the adjoint method in reverse mode and
by sensitivity equations in forward mode (``srcgrad.runtime.ode_adjoints``), w.r.t. the
initial state, the output times and the float items of ``args``; the dynamics function
is the user's, differentiated by srcgrad when the derivative runs."""

try:
    import scipy.integrate as si
except ImportError:  # pragma: no cover - exercised only without SciPy
    si = None

from srcgrad import runtime as rt
from srcgrad.rules.registry import defadjoint, defconstant

# The derivative's helpers run the user's dynamics through srcgrad's vjp/jvp while they
# integrate: differentiating them again would differentiate that integration (the
# sensitivity equations of the adjoint or sensitivity system), which has no row yet.
_SECOND_ORDER = ("a derivative of order two or more through scipy.integrate.odeint is not "
                 "supported yet: its first derivative integrates the adjoint (reverse mode) "
                 "or sensitivity (forward mode) equations; differentiate odeint once, or "
                 "write the integration steps in NumPy")
_HELPER_SPEC = "func, y0, t, args, ans, tfirst, full_output, tolerances"

_SPEC = ("func, y0, t, args=(), Dfun=None, col_deriv=0, full_output=0, ml=None, mu=None, "
         "rtol=None, atol=None, tcrit=None, h0=0.0, hmax=0.0, hmin=0.0, ixpr=0, mxstep=0, "
         "mxhnil=0, mxordn=12, mxords=5, printmessg=0, tfirst=False")
_CALL = "func, y0, t, args, ans, tfirst, full_output, (rtol, atol, mxstep)"


def _register():
    adjoints = {name: f"_sg.odeint_adjoints(g, {_CALL})[{i}]"
                for i, name in enumerate(("y0", "t", "args"))}
    tangents = {name: f"_sg.odeint_tangent({_CALL}, {name}_dot={name}_dot)"
                for name in ("y0", "t", "args")}
    defadjoint(si.odeint, _SPEC, tangent=tangents, name="scipy.integrate.odeint",
               refuses=("func",), **adjoints)
    for helper, spec in ((rt.odeint_adjoints, "g, " + _HELPER_SPEC),
                         (rt.odeint_tangent, _HELPER_SPEC + ", y0_dot=None, t_dot=None, "
                                                            "args_dot=None")):
        refused = [p.split("=")[0].strip() for p in spec.split(",")]
        defadjoint(helper, spec, refuses=[p for p in refused if p not in (
            "func", "tfirst", "full_output", "tolerances")]).refused_because = _SECOND_ORDER
    settings = ("Dfun col_deriv full_output ml mu rtol atol tcrit h0 hmax hmin ixpr mxstep "
                "mxhnil mxordn mxords printmessg tfirst")
    defconstant(si.odeint, **{name: "a solver setting: the solution it approximates does not "
                              "depend on it" for name in settings.split()})


if si is not None:
    _register()
