"""The community's records: ``stats`` (``/stats view``), ``leaderboard``, ``privacy``
(hide, show, forget), ``errors``; ``cog`` the commands; ``components`` the board's page
buttons; ``look`` and ``look_chart`` the embeds and the chart."""
