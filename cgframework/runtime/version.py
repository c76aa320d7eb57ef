"""The version of cgframework: one place, read by the package metadata (``pyproject.toml``),
``cgframework.__version__`` and the value store's provenance columns."""

VERSION = "0.1.0"
