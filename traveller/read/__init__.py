"""Read: files -> raw tables.

Takes a traveller file (CSV/TSV, xlsx/xls/ods, USEBIO XML, PBN) and gives
:class:`~traveller.read.raw.Loaded`: raw tables with the recognised columns under
canonical names, every other column kept, and the row number the user sees.
"""
