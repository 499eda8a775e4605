"""The "complicated" form of the hand-tracking-like objective (``hand_like``): as in
ADBench's complicated hand tracking, each observed point is matched to a point on a
triangle of the model, given by two barycentric coordinates ``u`` that are parameters
too, so the Jacobian has 26 + 2 x (vertices) columns (226 for 100 vertices). Each bone
carries ``k`` triangles (their corners in its frame); the rest is ``hand_like``'s
kinematic chain.

    python -m benchmarks.gradbench.jacobians hand_complicated --sizes 100
"""

import numpy as np

from benchmarks.gradbench.hand_like import FINGERS, JOINTS, rodrigues, rotation_z

DERIVATIVE = "jacobian"
JACOBIAN_OF = "residuals"
SIZES = {"bench": 100, "tiny": 20}
POSE = 6 + FINGERS * JOINTS


def residuals(params, bases, corners, targets):
    """``params``: 6 global + 20 joint angles, then each vertex's two barycentric
    coordinates (bone by bone); ``corners``: each bone's triangles (20, 3 corners, 3, k);
    ``targets``: (20, 3, k)."""
    theta = params[:POSE]
    us = np.reshape(params[POSE:], (FINGERS * JOINTS, 2, -1))
    R = rodrigues(theta[0:3])
    t = theta[3:6]
    out = []
    for f in range(FINGERS):
        M = np.eye(3)
        position = bases[f]
        for j in range(JOINTS):
            bone = f * JOINTS + j
            M = M @ rotation_z(theta[6 + bone])
            a, b, c = corners[bone, 0], corners[bone, 1], corners[bone, 2]
            point = a + us[bone, 0] * (b - a) + us[bone, 1] * (c - a)
            local = position[:, None] + M @ point
            world = R @ local + t[:, None]
            out.append((world - targets[bone]).ravel())
            position = position + M @ np.array([0.0, 1.0, 0.0])
    return np.concatenate(out)


def inputs(vertices, seed=0):
    rng = np.random.default_rng(seed)
    per_bone = max(1, vertices // (FINGERS * JOINTS))
    bones = FINGERS * JOINTS
    params = np.concatenate([rng.uniform(-0.5, 0.5, POSE),
                             rng.uniform(0.0, 0.5, 2 * bones * per_bone)])
    bases = rng.uniform(-1.0, 1.0, (FINGERS, 3))
    corners = rng.uniform(-0.2, 0.2, (bones, 3, 3, per_bone))
    targets = rng.uniform(-3.0, 3.0, (bones, 3, per_bone))
    return [(params, bases, corners, targets)]
