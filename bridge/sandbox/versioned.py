"""The sandbox's console commands that answer for the release it stands in for: ``version`` and ``reload``
(``docs/rcon.md``).

``version`` (vanilla since 1.21.6) answers as vanilla's ``VersionCommand`` does over RCON: a header, then one
``key = value`` line per field, joined without a newline (RCON's console source appends every line as it comes,
``docs/minecraft.md#rcon``). The ``name`` says the sandbox is not Minecraft; the protocol and pack formats are the
release's (``bridge.minecraft.versions``). ``reload`` answers ``Reloading!`` and runs the data pack's
``#minecraft:load`` functions again, as a reload does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bridge.minecraft.versions import McVersion
from bridge.sandbox.model import CONSOLE
from bridge.sandbox.positions import with_positions
from bridge.sandbox.state import Handler, WorldState

__all__ = ["commands_for", "version_reply"]


def version_reply(version: McVersion) -> str:
    """The ``version`` command's reply on the sandbox standing in for ``version``."""
    data, resource = version.data_pack, version.resource_pack
    fields = (
        ("id", f"castle-sandbox-{version.name}"),
        ("name", f"{version.name} (Castle sandbox, not Minecraft)"),
        ("data", str(version.data_version)),
        ("series", "main"),
        ("protocol", f"{version.protocol} ({hex(version.protocol)})"),
        ("pack_resource", f"{resource[0]}.{resource[1]}"),
        ("pack_data", f"{data[0]}.{data[1]}"),
        ("stable", "yes"),
    )
    return "Server version info:" + "".join(f"{key} = {value}" for key, value in fields)


def _reload(world: WorldState, _parts: list[str], _args: list[Any], _text: str) -> str:
    """``reload``: the data pack's ``#minecraft:load`` functions run again."""
    if world.datapack is not None:
        for fid in world.datapack.tag("minecraft:load"):
            world.run_top_function(fid, CONSOLE)
    return "Reloading!"


def commands_for(version: McVersion, base: Mapping[str, Handler]) -> dict[str, Handler]:
    """``base`` (the sandbox's command table) with ``version`` and ``reload`` answering for ``version``, and
    ``data`` reading players' ``Pos``/``Rotation`` (``bridge.sandbox.positions``)."""

    def version_command(_world: WorldState, _parts: list[str], _args: list[Any], _text: str) -> str:
        return version_reply(version)

    return {**base, "version": version_command, "reload": _reload, "data": with_positions(base["data"])}
