"""A game before it starts: create, join, leave, kick, start, and a lobby's start time.
``games`` the use cases; ``clock`` and ``start_time`` the start time; ``cog`` ``/game
join|leave``; ``components`` the lobby post's buttons; ``look`` the lobby post, its
reminder and the notice of being taken out of it."""
