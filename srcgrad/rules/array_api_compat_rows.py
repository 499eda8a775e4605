"""``array_api_compat``'s rows, registered once the program imports it: an array API
namespace is what ``xp.tanh(x)`` calls through (see ``array_api``), no number."""

import array_api_compat

from srcgrad.rules.registry import defnondiff

defnondiff(array_api_compat.array_namespace, array_api_compat.get_namespace)
