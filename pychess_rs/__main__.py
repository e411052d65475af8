"""``python -m pychess_rs``: the same as the ``pychess-rs`` command."""

import sys

from pychess_rs.cli import main

sys.exit(main())
