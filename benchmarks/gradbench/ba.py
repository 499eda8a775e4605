"""ADBench's bundle-adjustment reprojection error (``src/python/modules/PyTorch/
ba_objective.py``, also GradBench's ``tools/pytorch/ba_objective.py``), in plain NumPy.

One observation's error is a function of its camera (11 parameters: Rodrigues rotation,
centre, focal length, principal point, two radial distortion coefficients), its point (3)
and its weight (1); ADBench's derivative is the 2 x 15 Jacobian of each observation's
error, block by block::

    python -m benchmarks.gradbench.jacobians ba --sizes 200
"""

import numpy as np

ROT, CENTRE, FOCAL, PRINCIPAL, RADIAL = 0, 3, 6, 7, 9


def rodrigues_rotate_point(rot, X):
    sqtheta = np.sum(rot ** 2)
    if sqtheta != 0.0:
        theta = np.sqrt(sqtheta)
        costheta = np.cos(theta)
        sintheta = np.sin(theta)
        w = rot / theta
        w_cross_X = np.cross(w, X)
        tmp = np.dot(w, X) * (1.0 - costheta)
        return X * costheta + w_cross_X * sintheta + w * tmp
    return X + np.cross(rot, X)


def radial_distort(rad_params, proj):
    rsq = np.sum(proj ** 2)
    L = 1.0 + rad_params[0] * rsq + rad_params[1] * rsq * rsq
    return proj * L


def project(cam, X):
    Xcam = rodrigues_rotate_point(cam[ROT:ROT + 3], X - cam[CENTRE:CENTRE + 3])
    distorted = radial_distort(cam[RADIAL:RADIAL + 2], Xcam[0:2] / Xcam[2])
    return distorted * cam[FOCAL] + cam[PRINCIPAL:PRINCIPAL + 2]


def reprojection_error(params, feat):
    """One observation's weighted error; ``params`` = camera (11), point (3), weight."""
    cam, X, w = params[0:11], params[11:14], params[14]
    return (project(cam, X) - feat) * w


def inputs(observations, seed=0):
    """``observations`` (parameters, feature) pairs, as ADBench's generator draws them."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(observations):
        cam = np.concatenate([rng.uniform(-0.3, 0.3, 3), rng.uniform(-1.0, 1.0, 2),
                              rng.uniform(-8.0, -6.0, 1), rng.uniform(400.0, 600.0, 1),
                              rng.uniform(-1.0, 1.0, 2), rng.uniform(-1e-3, 1e-3, 2)])
        X = rng.uniform(-1.0, 1.0, 3)
        out.append((np.concatenate([cam, X, [rng.uniform(0.5, 1.0)]]),
                    rng.uniform(-100.0, 100.0, 2)))
    return out
DERIVATIVE = "jacobian"
SIZES = {"bench": 200, "tiny": 2}
JACOBIAN_OF = "reprojection_error"
