"""Helpers in a module of their own: called, not inlined, by the functions under test."""


def push(stack, value):
    stack.append(value)


def pop(stack):
    return stack.pop()
