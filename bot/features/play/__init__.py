"""What a player sends in a phase: ``commands`` (one dataclass a command, and ``handle``,
the one road that stores a submission), ``submissions`` (the store, the early close),
``pieces`` (orders a piece at a time); ``cog`` ``/grail``, ``/identify``, ``/act``,
``/vote``, ``/orders``, ``cog_submit`` and ``cog_choices`` its sending and autocomplete;
``components`` the order panel and the prompts' controls; ``look`` a submission in words,
its receipt and "what I sent"."""
