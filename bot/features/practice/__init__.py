"""Practice: one person against AI seats, in their DM with the bot. ``practice`` the use
cases; ``cog`` ``/practice start|stop``; ``look`` the first phases explained."""
