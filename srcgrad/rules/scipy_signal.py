"""``scipy.signal.convolve``: bilinear (see ``srcgrad.runtime.convolution_adjoints``),
registered only when SciPy imports."""

try:
    import scipy.signal as ss
except ImportError:  # pragma: no cover - exercised only without SciPy
    ss = None

from srcgrad.rules.registry import defadjoint


def _register():
    defadjoint(ss.convolve, "in1, in2, mode='full', method='auto'",
               in1="_sg.convolve_adjoint(g, in2, in1)",
               in2="_sg.convolve_adjoint(g, in1, in2)",
               tangent={"in1": "_sg.signal_convolve(in1_dot, in2, mode, method)",
                        "in2": "_sg.signal_convolve(in1, in2_dot, mode, method)"},
               name="scipy.signal.convolve")


if ss is not None:
    _register()
