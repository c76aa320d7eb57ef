"""The ``pizza`` plugin: Brown & Brown's graph games ("Graph Games and the Pizza Problem")."""
