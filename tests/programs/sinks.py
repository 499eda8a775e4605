"""Helpers in a module of their own (called, not compiled, by the functions under test)
that store what they are given where the caller reads it back."""


def push(stack, value):
    stack.append(value)


def fill(buffer, value):
    buffer[:] = value
