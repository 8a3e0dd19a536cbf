"""Publish: results -> files.

Takes a scored :class:`~traveller.pipeline.Result` and writes what a director
prints or publishes: the formatted results workbook, score cards and frequencies.
"""
