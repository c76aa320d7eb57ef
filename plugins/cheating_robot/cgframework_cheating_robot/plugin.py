"""Hook implementations of the ``cheating_robot`` plugin (entry point ``cheating_robot``)."""

from __future__ import annotations
