"""``python -m pegs_rules.spec``: see :mod:`pegs_rules.spec.command`."""

import sys

from pegs_rules.spec.command import main

sys.exit(main())
