"""Tidy: raw tables -> canonical travellers.

Takes the raw tables from :mod:`traveller.read` and gives one typed row per
result (board, pairs, contract, declarer, tricks, lead, rulings as written), plus
a problems table listing every row that cannot be scored and why.
"""
