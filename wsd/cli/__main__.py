"""``python -m wsd.cli``: the ``wsd`` console script."""

import sys

from wsd.cli import main

sys.exit(main())
