"""``python -m pegs_rules``: the command line."""

import sys

from pegs_rules.cli import main

sys.exit(main())
