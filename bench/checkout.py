"""Imported first by every benchmark: puts this checkout's root first on ``sys.path``.

A script's own folder (``bench/``) is what Python puts first, so without this the ``engine`` and ``bridge`` of the
installed project would be measured, whichever checkout the script was run from (an editable install points at
one checkout; comparing two versions back to back means running each one's ``bench/`` scripts).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The checkout this ``bench/`` folder belongs to."""

if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))
