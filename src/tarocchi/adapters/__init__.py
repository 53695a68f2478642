"""Adapters that let research frameworks play our games: OpenSpiel (`openspiel`) and
PettingZoo (`pettingzoo`), each an optional extra imported only when asked for.

Both see a deal only through `tarocchi.views.view`, as every face does: their
observations and information-state strings are built from a seat's view
(`tarocchi.adapters.observe`), so they reveal no card the seat cannot see.
"""
