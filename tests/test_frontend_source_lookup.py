"""Reading a function's source names its module's file for ``inspect`` directly (no scan
of every loaded module), and the source read is still the function's."""

import inspect

from srcgrad.frontend.parse import parse_function
from tests.corpus import arrays


def test_parsing_names_the_module_file_and_reads_the_right_source():
    fn = arrays.mlp
    parsed = parse_function(fn)
    assert parsed.node.name == "mlp"
    assert inspect.modulesbyfile[fn.__code__.co_filename] == fn.__module__

