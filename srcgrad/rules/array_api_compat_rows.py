"""``array_api_compat``'s rows, registered once the program imports it: an array API
namespace is what ``xp.tanh(x)`` calls through (see ``array_api``), no number; an array's
device (``device(x)``, where ``xp.zeros(..., device=device(x))`` puts a new array), its
size and what kind of array or namespace a value is carry no derivative either."""

import array_api_compat

from srcgrad.rules.registry import defnondiff

defnondiff(array_api_compat.array_namespace, array_api_compat.get_namespace,
           array_api_compat.device, array_api_compat.size,
           *(getattr(array_api_compat, name) for name in sorted(dir(array_api_compat))
             if name.startswith("is_")))
