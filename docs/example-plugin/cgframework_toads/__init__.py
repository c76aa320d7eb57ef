"""Toads and Frogs (Winning Ways ch. 1), the example plugin of docs/writing-a-plugin.md."""
