"""Publish: results -> files.

Takes a scored :class:`~traveller.pipeline.Result` and gives the files a
director prints or publishes: the formatted results workbook, with its score
cards and frequencies.
"""
