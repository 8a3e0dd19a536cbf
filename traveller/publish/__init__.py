"""Publish: results -> files.

Takes a scored :class:`~traveller.result.Result` and gives the files a
director prints or publishes: the formatted results workbook with its score
cards and frequencies; the results website (site.py), PBN (pbn_out.py) and
USEBIO (usebio_out.py) files, with the title, date, club and status of meta.py
(outputs.py writes them all).
"""
