"""``/table``: the table as everyone at it knows it. ``table`` the use case; ``cog`` the
command; ``components`` the Table button."""
