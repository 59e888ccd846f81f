"""A user's own preferences: ``/settings prompts`` and ``/settings timezone`` (``cog``);
``time_zones`` a player's zone and a slow game's deadline hours."""
