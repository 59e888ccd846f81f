"""A server's seasons: ``seasons`` (open, close, count, the summary), ``awards``; ``cog``
``/mod season start|end``; ``look`` a season's words."""
