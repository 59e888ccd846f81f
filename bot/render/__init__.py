"""Events → localized text and embeds. Nothing here decides what anyone may see: the
engine's audiences do that; the renderer only words it."""
