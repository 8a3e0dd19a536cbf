"""The command-line choices, spelled out so the commands start without pandas.

tests/test_cli.py checks them against traveller.rank.SCALES, schema.NOTATIONS
and methods.METHODS, so they cannot drift apart.
"""

SCALES = ("2/1/0", "1/0.5")
NOTATIONS = ("en", "pl", "ru")
METHODS = ("mp", "ximp", "butler", "total", "russian", "teams")
