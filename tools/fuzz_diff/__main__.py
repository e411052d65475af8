"""``python tools/fuzz_diff ...`` (or ``python -m fuzz_diff`` with ``tools`` on the path)."""

import sys
from pathlib import Path

if not __package__:
    # Run as a directory, Python put this package's own folder first on the path, where its
    # modules would shadow top-level ones of the same name: put its parent there instead.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from fuzz_diff.cli import main

sys.exit(main())
