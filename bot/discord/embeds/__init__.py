"""What the bot's answers look like: the embeds and lines of command replies, the
settings, the line-up and the community's records, worded from the catalogues."""
