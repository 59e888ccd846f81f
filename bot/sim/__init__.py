"""``wolfhowl simulate``'s statistics: whole games between baseline AI players
(:mod:`bot.ai`) summarised.

``report`` turns the games into win rates, lengths and per-class figures and prints them,
``plot`` draws them; the command's front end is ``bot.cli.simulate``.
"""
