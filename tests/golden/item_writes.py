# sg.source(sg.grad(tests.corpus.containers.item_write, wrt=0))
def item_write_grad(x):
    _sg.check_array_types(x)
    # Forward sweep: the original computation
    stack = []
    y = np.zeros(3)
    _x_item = x[0]
    _mul = _x_item * 2.0
    stack.append(_sg.saved_item(y, 0))
    y[0] = _mul
    _x_item_1 = x[1]
    _pow = _x_item_1 ** 2
    stack.append(_sg.saved_item(y, 1))
    y[1] = _pow
    _y_item = y[0]
    _y_item_1 = y[1]
    _mul_1 = _y_item * _y_item_1
    stack.append(_sg.saved_item(y, 2))
    y[2] = _mul_1
    _mul_2 = y * y
    _sum = np.sum(_mul_2)
    _mul_2 = _sg.shape_of(_mul_2)
    # Backward sweep: d_sum is the cotangent of the result
    d_sum = _sg.seed(_sum)
    d_mul_2 = _sg.expand_summed(d_sum, _mul_2, None, False)
    dy = _sg.spread_to(d_mul_2 * y * 2.0, _mul_2)
    d_mul_1 = _sg.stored_derivative(_sg.item_adjoint(dy, 2, _mul_1), y)
    _sg.clear_item(dy, 2)
    _sg.restore_item(y, 2, stack.pop())
    d_y_item = _sg.unbroadcast_product(d_mul_1, _y_item_1, _y_item)
    d_y_item_1 = _sg.unbroadcast_product(d_mul_1, _y_item, _y_item_1)
    _sg.add_at(dy, 1, d_y_item_1)
    _sg.add_at(dy, 0, d_y_item)
    d_pow = _sg.stored_derivative(_sg.item_adjoint(dy, 1, _pow), y)
    _sg.clear_item(dy, 1)
    _sg.restore_item(y, 1, stack.pop())
    d_x_item_1 = d_pow * 2 * _x_item_1
    dx = _sg.slots_like(x)
    _sg.add_at(dx, 1, d_x_item_1)
    d_mul = _sg.stored_derivative(_sg.item_adjoint(dy, 0, _mul), y)
    _sg.clear_item(dy, 0)
    _sg.restore_item(y, 0, stack.pop())
    d_x_item = d_mul * 2.0
    _sg.add_at(dx, 0, d_x_item)
    return _sg.in_dtype_of(_sg.restructure(dx, x), x)
