"""A lobby's line-up and its simulated odds. ``odds`` what a lobby would be dealt and the
stored odds; ``runner`` the background simulation; ``cog`` ``/mod lineup``; ``look`` how
a line-up reads."""
