"""``/game history``: a server's finished games, a page at a time. ``history`` the use
case; ``cog`` the command; ``components`` the page buttons; ``look`` the page."""
