"""``python -m bot.cli``: the ``wolfhowl`` command without the installed script."""

import sys

from bot.cli import main

sys.exit(main())
