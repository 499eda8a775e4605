"""Helpers that return lists, tuples and dicts, in a module of their own: called through
their generated forward and backward functions, not inlined, by the functions under test."""


def pair(v):
    return [v[0], v[1] * 2.0]


def tuple_pair(v):
    return (v[0], v[1] * 2.0)


def dict_pair(v):
    return {"a": v[0], "b": v[1] * 2.0}


class Pairs:
    def pair(self, v):
        return [v[0] * 3.0, v[1]]
