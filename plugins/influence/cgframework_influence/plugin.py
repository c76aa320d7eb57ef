"""Hook implementations of the ``influence`` plugin (entry point ``influence``)."""

from __future__ import annotations
