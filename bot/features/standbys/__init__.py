"""The standby list and its seat offers: ``standbys``, ``queue`` and ``errors`` the use
cases; ``cog`` ``/standby join|leave``; ``components`` the Accept button."""
