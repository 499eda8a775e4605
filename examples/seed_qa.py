"""The worked example of the question "GradientTape, implicit_gradients,
gradients_function and implicit_value_and_gradients: what is the difference?", run with
srcgrad: only the imports changed. Each gradient runs code srcgrad generated; the last
lines print the source behind implicit_value_and_gradients(weighted_sum).

    python examples/seed_qa.py
"""

import srcgrad as sg
import srcgrad.tfe as tf
import srcgrad.tfe as tfe

tf.enable_eager_execution()

w1 = tfe.Variable(2.0)
w2 = tfe.Variable(3.0)


def weighted_sum(x1, x2):
    return w1 * x1 + w2 * x2


s = weighted_sum(5., 7.)
print(s.numpy())  # 31

# GradientTape
with tf.GradientTape() as tape:
    s = weighted_sum(5., 7.)

[w1_grad] = tape.gradient(s, [w1])
print(w1_grad.numpy())  # 5.0 = gradient of s with regards to w1 = x1

# gradients_function
grad_fn = tfe.gradients_function(weighted_sum)
x1_grad, x2_grad = grad_fn(5., 7.)
print(x1_grad.numpy())  # 2.0 = gradient of s with regards to x1 = w1


def weighted_sum_with_weights(w1, x1, w2, x2):
    return w1 * x1 + w2 * x2


grad_fn = tfe.gradients_function(weighted_sum_with_weights, params=["w1", "w2"])
[w1_grad, w2_grad] = grad_fn(w1, 5., w2, 7.)
print(w2_grad.numpy())  # 7.0 = gradient of s with regards to w2 = x2

# implicit_gradients
grad_fn = tfe.implicit_gradients(weighted_sum)
[(w1_grad, w1_var), (w2_grad, w2_var)] = grad_fn(5., 7.)
print(w1_grad.numpy())  # 5.0 = gradient of s with regards to w1 = x1

assert w1_var is w1
assert w2_var is w2

# implicit_value_and_gradients
grad_fn = tfe.implicit_value_and_gradients(weighted_sum)
s, [(w1_grad, w1_var), (w2_grad, w2_var)] = grad_fn(5., 7.)
print(s.numpy())  # 31.0 = s = w1 * x1 + w2 * x2

# The generated code behind implicit_value_and_gradients(weighted_sum):
grad_fn = sg.implicit_value_and_gradients(weighted_sum)
grad_fn(5., 7.)
print()
print(sg.source(grad_fn))
