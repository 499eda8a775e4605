"""A hand-tracking-like objective: the shape of ADBench's hand-tracking Jacobian (26
pose parameters, 300 residuals: 100 model vertices against their observed points) on a
made-up kinematic model, since ADBench's hand model is data this repository does not
ship. A global rotation (angle-axis) and translation, five fingers of four joints, each
joint a rotation about its own z axis; every vertex is attached to one bone.

    python -m benchmarks.gradbench.jacobians hand_like --sizes 100
"""

import numpy as np

FINGERS, JOINTS = 5, 4
DERIVATIVE = "jacobian"
SIZES = {"bench": 100, "tiny": 20}
JACOBIAN_OF = "residuals"


def rodrigues(v):
    theta = np.sqrt(np.sum(v * v)) + 1e-12
    k = v / theta
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + np.sin(theta) * K + (1.0 - np.cos(theta)) * (K @ K)


def rotation_z(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def residuals(theta, bases, offsets, targets):
    """``theta``: 6 global + 20 joint angles; ``bases``: each finger's root (5, 3);
    ``offsets``: each bone's vertices in its frame (20, 3, k); ``targets`` (20, 3, k)."""
    R = rodrigues(theta[0:3])
    t = theta[3:6]
    out = []
    for f in range(FINGERS):
        M = np.eye(3)
        position = bases[f]
        for j in range(JOINTS):
            bone = f * JOINTS + j
            M = M @ rotation_z(theta[6 + bone])
            local = position[:, None] + M @ offsets[bone]
            world = R @ local + t[:, None]
            out.append((world - targets[bone]).ravel())
            position = position + M @ np.array([0.0, 1.0, 0.0])
    return np.concatenate(out)


def inputs(vertices, seed=0):
    """One pose (a list of one argument tuple), ``vertices`` spread over the 20 bones."""
    rng = np.random.default_rng(seed)
    per_bone = max(1, vertices // (FINGERS * JOINTS))
    theta = rng.uniform(-0.5, 0.5, 6 + FINGERS * JOINTS)
    bases = rng.uniform(-1.0, 1.0, (FINGERS, 3))
    offsets = rng.uniform(-0.2, 0.2, (FINGERS * JOINTS, 3, per_bone))
    targets = rng.uniform(-3.0, 3.0, (FINGERS * JOINTS, 3, per_bone))
    return [(theta, bases, offsets, targets)]
