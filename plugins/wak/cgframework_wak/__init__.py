"""The ``wak`` plugin of cgframework."""
