"""``/me`` and ``/inbox``: a player's own sheet, what they have sent, and the private
messages that could not reach them. ``inbox`` the use cases; ``cog`` the commands."""
