"""Castle's I/O side: RCON and MSMP clients, command builders, effect rendering, the service loop, the CLI.

Dependency direction: ``bridge`` imports ``engine``, never the other way round.
"""
