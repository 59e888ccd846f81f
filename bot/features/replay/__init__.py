"""A finished game's log and its replay page. ``export`` the log; ``verify`` replaying a
log; ``components`` the Replay button; ``look``, ``look_story``, ``look_chart`` and
``templates`` the page."""
