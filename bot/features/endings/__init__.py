"""Each player's private ending at a game's end: won or lost and why, their points, their
rating's move. ``endings`` writes them; ``look`` how one reads."""
