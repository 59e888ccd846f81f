"""What a moderator does: ``commands`` (one dataclass a command, and ``moderate``, the one
road), ``moderation`` (settings, pause, resume, extend, replace, remove, end), ``seats``
and ``departed_targets`` (a seat changing hands); ``cog`` ``/mod``, ``cog_phase``
``/phase``, ``cog_settings`` the settings as options; ``components`` the confirmation
buttons; ``look`` the settings lines, /mod status and the notices of a seat changing hands;
``look_settings`` the settings embed."""
