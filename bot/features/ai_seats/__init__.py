"""AI seats: seats no Discord user holds, played by the baseline AI from what their seat is
told. ``ai_seats`` who sits (a lobby's filling), ``turns`` when each seat plays,
``play`` how it plays."""
