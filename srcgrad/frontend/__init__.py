"""Frontend: from a live Python function to a checked gast tree."""
