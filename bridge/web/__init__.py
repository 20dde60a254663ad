"""The host's web grimoire and the spectator page (``docs/host.md``): ``hub`` follows a series, ``app`` serves
its pages, ``server`` runs them beside the service."""
