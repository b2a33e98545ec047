"""``python -m wsd.cli``: the ``wsd`` console script."""

import sys

from wsd.cli import main

if __name__ == "__main__":  # run as a program, not when a tool imports every module
    sys.exit(main())
