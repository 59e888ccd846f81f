"""Records, ratings, stats and the leaderboard: written once at a game's end, read only from there."""
