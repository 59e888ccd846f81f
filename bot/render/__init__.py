"""The shared presentation: events → localized text and embeds, what every answer shares
(``replies``), the outbox's renderers of the core's messages and the registry every
feature's look adds its own to (``outgoing``), a refusal's words (``refusals``), the
charts. Nothing here decides what anyone may see: the engine's audiences do that; the
renderer only words it. A feature's own embeds and messages are its look
(``bot/features/<name>/look*.py``)."""
