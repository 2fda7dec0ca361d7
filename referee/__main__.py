"""``python -m referee``: the command line (referee.cli)."""

import sys

from .cli import main

sys.exit(main())
