"""Score: canonical travellers -> scores and rankings.

Takes the tidy travellers and gives the N-S score of every result, then the
matchpoints, IMPs, victory points or total points of each result and pair, and
the ranking; :mod:`traveller.score.methods` is the switch between the methods.
"""
