"""``/recap``: what one seat has been told, read back from the game log. ``recap`` the use
case; ``cog`` the command; ``look`` the embeds."""
