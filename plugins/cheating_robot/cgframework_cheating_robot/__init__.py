"""The ``cheating_robot`` plugin of cgframework."""
