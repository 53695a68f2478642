"""Rule-based players, one module per game, each with a `HeuristicBot` class."""
