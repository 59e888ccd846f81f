"""The features, a folder each: its use cases (the modules not named ``cog*``,
``components*`` or ``look*``), its slash commands (``cog*``), its buttons and menus
(``components*``) and how it reads (``look*``). The core they share is ``bot.core``; the
bot finds every feature's user interface in its folder (``bot.discord.features``), so no
list names them."""
