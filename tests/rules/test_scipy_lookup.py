"""How SciPy's rows are found: by the identity of the function (a distribution's bound
method), loaded once the program imports the subpackage, and refusing what they lack."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.stats
from scipy.stats import norm, t

import srcgrad as sg

X = np.array([0.3, -1.2, 2.0])


def two_densities(x, mu):
    return np.sum(norm.logpdf(x, mu, 2.0)) + np.sum(scipy.stats.t.logpdf(x, 3.0, mu))


def test_names_bound_to_distributions_resolve_to_their_own_rows():
    r = X - 0.5
    expected = np.sum(r / 4) + np.sum(4 * r / (3 + r ** 2))   # closed forms
    assert np.isclose(sg.grad(two_densities, wrt=1)(X, 0.5), expected)
    assert np.isclose(sg.jvp(two_densities, wrt=1)(X, 0.5, 1.0)[1], expected)


def cdf_in_df(x, df):
    return np.sum(t.cdf(x, df))


def test_a_shape_parameter_of_a_distribution_function_is_refused():
    with pytest.raises(sg.MissingRuleError, match="`scipy.stats.t.cdf` with respect to its "
                                                  "argument `df`"):
        sg.grad(cdf_in_df, wrt=1)(X, 3.0)
    assert np.allclose(sg.grad(cdf_in_df)(X, 3.0), t.pdf(X, 3.0))


PROGRAM = textwrap.dedent("""
    import numpy as np
    import srcgrad as sg
    from scipy.stats import gamma

    def loss(a):
        return np.sum(gamma.logpdf(np.array([0.5, 1.5]), a))

    print(sg.grad(loss)(2.0))
""")


def test_rows_load_when_the_program_has_imported_the_subpackage(tmp_path):
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    env = dict(os.environ, SRCGRAD_CACHE="0")
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    import scipy.special as sp

    expected = np.sum(np.log([0.5, 1.5]) - sp.digamma(2.0))
    assert np.isclose(float(out), expected)


def frozen_then_rebound(x, mu):
    d = norm(mu, 2.0)
    mu = mu * 10.0        # the distribution keeps the value it was frozen with
    return np.sum(d.logpdf(x)) + mu


def test_a_frozen_distribution_keeps_the_arguments_it_was_frozen_with():
    expected = np.sum((X - 0.5) / 4) + 10.0   # d/dmu: sum((x - mu) / scale^2) + 10
    assert np.isclose(sg.grad(frozen_then_rebound, wrt=1)(X, 0.5), expected)
    assert np.isclose(sg.jvp(frozen_then_rebound, wrt=1)(X, 0.5, 1.0)[1], expected)


def frozen_twice(x, scale):
    d = scipy.stats.norm(scale=scale)
    return np.sum(d.logpdf(x)) + np.sum(d.cdf(x))


def test_every_method_with_a_row_of_one_frozen_distribution():
    scale = 1.3
    z = X / scale
    expected = np.sum((z ** 2 - 1) / scale) + np.sum(-norm.pdf(z) * z / scale)
    assert np.isclose(sg.grad(frozen_twice, wrt=1)(X, scale), expected)
    assert np.isclose(sg.jvp(frozen_twice, wrt=1)(X, scale, 1.0)[1], expected)


def frozen_and_read_otherwise(x, mu):
    d = norm(mu, 2.0)
    return np.sum(d.logpdf(x)) + d.mean()


@pytest.mark.parametrize("api", ["grad", "jvp"])
def test_other_uses_of_a_frozen_distribution_are_refused_where_it_is_frozen(api):
    """``d.mean()`` has no row: freezing ``norm`` at a differentiated ``mu`` stays a call
    without a rule, refused at its line (and named as the distribution)."""
    with pytest.raises(sg.MissingRuleError, match="`scipy.stats.norm`") as info:
        if api == "grad":
            sg.grad(frozen_and_read_otherwise, wrt=1)(X, 0.5)
        else:
            sg.jvp(frozen_and_read_otherwise, wrt=1)(X, 0.5, 1.0)
    assert "d = norm(mu, 2.0)" in str(info.value)


def frozen_at_constants(x):
    d = norm(1.0, 2.0)
    return np.sum(d.logpdf(x)) + d.mean() * np.sum(x)


def test_a_distribution_frozen_at_constants_is_used_as_written():
    assert np.allclose(sg.grad(frozen_at_constants)(X), -(X - 1.0) / 4 + 1.0)
