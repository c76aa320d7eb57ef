"""The ``guaranteed`` plugin of cgframework."""
