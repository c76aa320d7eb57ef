"""Hook implementations of the ``wak`` plugin (entry point ``wak``)."""

from __future__ import annotations
