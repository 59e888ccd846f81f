"""The queries of the service, one module per area, named for the data they read and
write (``bot.db.repositories`` holds those of a game and its players, the oldest and
hottest). A use case calls the function named for what it needs and builds no
statement; every function here takes the unit of work's session and plain values,
returns rows, entities or plain values, and never commits. Import the module you need
(``from bot.db.repos import stats``): this package re-exports nothing."""
