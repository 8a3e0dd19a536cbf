"""Batch: the scheduled run over an inbox of traveller files.

Takes a folder of inputs (with ``traveller.toml`` settings) and gives one
published workbook per input, a manifest so unchanged files are skipped, change
reports for corrections and a JSON run summary. Nothing here imports pandas
until a file actually needs scoring.
"""
