"""The gallery: a game's room for those who no longer play it and for spectators, and their
predictions. ``gallery``, ``predictions``, ``dead_channels`` and ``errors`` the use
cases; ``cog`` ``/game watch|unwatch``; ``components`` the prediction menu; ``look`` the
truth posts and the predictions' posts."""
