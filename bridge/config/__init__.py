"""The operator's files, read and checked at the edge with pydantic; the rest of the program sees engine values.

Modules, one job each:

* ``files``: reading a config file's text, and a secret file's (which others may not read).
* ``model``: the strict base model, the error listing every problem of a file, TOML and validation helpers.
* ``castle``: ``world_config/castle.toml``, the castle's places.
* ``settings``: the series settings keys shared by series files, scenario files and the store, and their
  conversion into the engine's settings.
* ``settings_json``: the settings as the JSON the series store keeps.
* ``series``: series files (``world_config/series/*.toml``).
* ``inputs``: the ``[[input]]`` forms of a scenario file; ``scenario``: the scenario file; ``play``: playing it.
* ``serve``: the serve config, with its castle and series files.
* ``loader``: any of these files by its keys (``traitors check-config``).
"""
