"""The castle Castle builds on a server: the blueprint as data, and the sans-I/O ``fill``/``setblock`` commands
that build it, probe the ground first and take it down again (``traitors build-castle``)."""
