"""Simultaneous pairs: many clubs' sessions scored against the whole field (see docs/scale.md).

:func:`traveller.simultaneous` (in :mod:`traveller.sim.api`) runs it, in this
process or on a Dask cluster; ``traveller sim`` is its command.
"""
