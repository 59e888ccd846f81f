"""The Discord layer: slash commands, components, the outbox dispatcher and the phase
scheduler. Thin by design: a handler parses its arguments, calls one service function
and renders the result; the rules live in ``engine`` and the use cases in ``bot.core`` and ``bot.features``.

Importing this package is cheap (``wolfhowl run``, :mod:`bot.cli.run`, reads its settings
first); the client and the command modules are imported when the bot starts.
"""
