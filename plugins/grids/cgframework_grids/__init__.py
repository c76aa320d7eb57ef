"""The bundled ``grids`` plugin: the classic board and graph rulesets the peers (cgt-py, pycgt)
ship - Clobber, Toads and Frogs, Cram, Hackenbush, Konane, Snort, Col, Fission, Amazons -
each with components, symmetry-folding canonical keys and the canonical search's
``option_keys`` fast path on board strings."""
