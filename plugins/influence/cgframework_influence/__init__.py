"""The ``influence`` plugin of cgframework."""
