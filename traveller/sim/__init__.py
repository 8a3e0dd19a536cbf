"""Simultaneous pairs: many clubs' sessions scored against the whole field (see docs/scale.md).

Takes one traveller file per club and gives a national ranking, each result's
field-wide matchpoints (or IMPs) and a workbook per club.
:func:`traveller.simultaneous` (in :mod:`traveller.sim.api`) runs it, in this
process or on a Dask cluster; ``traveller sim`` is its command.
"""
