"""Home games: rubber bridge, Chicago and three-handed (Phillips) bridge score sheets.

Takes a score sheet with one row per deal (Deal, Declarer, Contract, Tricks
or Result, Honours) and gives the ledger, totals and settlement:
:func:`traveller.rubber`, :func:`traveller.chicago` and
:func:`traveller.three_handed` score it into a
:class:`~traveller.home.result.HomeResult` with ``ledger``, ``totals`` and
``problems`` DataFrames, and ``to_excel`` draws the score pad.

Modules: ``sheet`` (reading), ``parse`` (cells -> deals), ``values`` (the
rubber values as tables), ``rubber``, ``chicago``, ``three`` (the games),
``pad``/``padsheets`` (the workbook) and ``cli`` (the commands). Importing
this package loads nothing heavy, so the command line starts fast.
"""
