"""``/rules`` and ``/help``: the game explained in the reader's language (``cog``)."""
