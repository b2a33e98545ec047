"""What made a file: the fingerprint of its configuration and the versions of the libraries that shaped it.

>>> len(config_fingerprint({"model": "m", "layers": [-1]}))
16
"""

from __future__ import annotations

import hashlib
import json
import platform
from typing import Any

#: Libraries whose versions a run records: import name -> distribution name.
RECORDED_LIBRARIES = {
    "wsd": "wsd",
    "torch": "torch",
    "transformers": "transformers",
    "tokenizers": "tokenizers",
    "numpy": "numpy",
    "pandas": "pandas",
    "pyarrow": "pyarrow",
    "sklearn": "scikit-learn",
    "hdbscan": "hdbscan",
}


def library_versions() -> dict[str, str]:
    """Versions of Python and the libraries that shape the numbers, for a run's metadata.

    Read from the installed distributions' metadata, without importing them (importing scikit-learn and
    hdbscan alone takes most of a second); a library that is not installed is left out.

    Returns
    -------
    dict
        ``{"python": ..., library: version}``.
    """
    from importlib import metadata

    versions = {"python": platform.python_version()}
    for name, distribution in RECORDED_LIBRARIES.items():
        try:
            versions[name] = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            continue
    return versions


def config_fingerprint(config: dict[str, Any]) -> str:
    """A short hash of a JSON-serialisable configuration (key order does not matter).

    Parameters
    ----------
    config : dict
        The configuration.

    Returns
    -------
    str
        16 hex digits.
    """
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:16]
