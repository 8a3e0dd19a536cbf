"""``python -m traveller``."""

from traveller.cli import main

main()
