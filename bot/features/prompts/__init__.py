"""Phase prompts: each living player's private message with what they send in the phase
that opens (``prompts``); ``look`` how one reads (its controls are play's)."""
