"""Night: initiative, then every order resolved in initiative order."""
