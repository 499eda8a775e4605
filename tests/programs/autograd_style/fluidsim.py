"""A 2D smoke simulation (semi-Lagrangian advection, a Jacobi pressure projection); the
initial velocity field is optimized so that the smoke ends up matching a target."""
import autograd.numpy as np
from autograd import value_and_grad


def project(vx, vy):
    """Make the velocity field divergence-free by subtracting a pressure gradient."""
    p = np.zeros(vx.shape)
    h = 1.0 / vx.shape[0]
    div = -0.5 * h * (np.roll(vx, -1, axis=0) - np.roll(vx, 1, axis=0)
                      + np.roll(vy, -1, axis=1) - np.roll(vy, 1, axis=1))
    for k in range(10):
        p = (div + np.roll(p, 1, axis=0) + np.roll(p, -1, axis=0)
             + np.roll(p, 1, axis=1) + np.roll(p, -1, axis=1)) / 4.0
    vx = vx - 0.5 * (np.roll(p, -1, axis=0) - np.roll(p, 1, axis=0)) / h
    vy = vy - 0.5 * (np.roll(p, -1, axis=1) - np.roll(p, 1, axis=1)) / h
    return vx, vy


def advect(f, vx, vy):
    """Move field f according to x and y velocities (u and v) using an implicit
    Euler integrator."""
    rows, cols = f.shape
    cell_ys, cell_xs = np.meshgrid(np.arange(rows), np.arange(cols))
    center_xs = (cell_xs - vx).ravel()
    center_ys = (cell_ys - vy).ravel()
    left_ix = np.floor(center_xs).astype(int)
    top_ix = np.floor(center_ys).astype(int)
    rw = center_xs - left_ix
    bw = center_ys - top_ix
    left_ix = np.mod(left_ix, rows)
    right_ix = np.mod(left_ix + 1, rows)
    top_ix = np.mod(top_ix, cols)
    bot_ix = np.mod(top_ix + 1, cols)
    flat_f = (1 - rw) * ((1 - bw) * f[left_ix, top_ix] + bw * f[left_ix, bot_ix]) \
        + rw * ((1 - bw) * f[right_ix, top_ix] + bw * f[right_ix, bot_ix])
    return np.reshape(flat_f, (rows, cols))


def simulate(vx, vy, smoke, num_time_steps, ax=None, render=False):
    print("Running simulation...")
    for t in range(num_time_steps):
        if ax:
            plot_matrix(ax, smoke, t, render)
        vx_updated = advect(vx, vx, vy)
        vy_updated = advect(vy, vx, vy)
        vx, vy = project(vx_updated, vy_updated)
        smoke = advect(smoke, vx, vy)
    if ax:
        plot_matrix(ax, smoke, num_time_steps, render)
    return smoke


def plot_matrix(ax, mat, t, render=False):
    ax.cla()
    ax.matshow(mat)
    ax.set_xticks([])
    ax.set_yticks([])


rows, cols = 8, 8
simulation_timesteps = 3
x, y = np.meshgrid(np.linspace(-1, 1, cols), np.linspace(-1, 1, rows))
init_smoke = np.exp(-4 * ((x + 0.3)**2 + y**2))
target = np.exp(-4 * ((x - 0.3)**2 + y**2))
init_dx_and_dy = np.zeros((2, rows, cols)).ravel()


def distance_from_target_image(smoke):
    return np.mean((target - smoke)**2)


def convert_param_vector_to_matrices(params):
    vx = np.reshape(params[:(rows * cols)], (rows, cols))
    vy = np.reshape(params[(rows * cols):], (rows, cols))
    return vx, vy


def objective(params):
    init_vx, init_vy = convert_param_vector_to_matrices(params)
    final_smoke = simulate(init_vx, init_vy, init_smoke, simulation_timesteps)
    return distance_from_target_image(final_smoke)


objective_with_grad = value_and_grad(objective)
