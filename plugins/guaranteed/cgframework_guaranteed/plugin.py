"""Hook implementations of the ``guaranteed`` plugin (entry point ``guaranteed``)."""

from __future__ import annotations
