"""The castle file's pydantic model (``world_config/castle.toml``): what ``bridge.config.castle`` reads a file with,
imported only when a file is read, so a service resuming on the shipped castle needs no pydantic.

Each model mirrors a dataclass of ``bridge.config.castle`` (the same fields, checked below) and adds the file's
checks: coordinates inside the world border and build range, angles in range, 1 to 16 seats and homes, the
breakfast places required, a ``[built]`` table telling the seats the file has.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from pydantic import Field, ValidationInfo, field_validator

from bridge.config.castle import (
    BORDER,
    BREAKFAST_REQUIRED,
    MAX_SEATS,
    SHARED_PLACES,
    BuiltBy,
    CastleConfig,
    Location,
    castle_of,
)
from bridge.config.errors import ConfigFileError
from bridge.config.kinds import kind_problem
from bridge.config.model import ConfigModel, parse_toml, read_toml, validate


class LocationModel(ConfigModel):
    """A ``Location`` in a file: ``x``/``z`` inside ``BORDER``, ``y`` -64..320 (blocks), ``yaw`` -360..360 and
    ``pitch`` -90..90 (degrees)."""

    x: float = Field(ge=-BORDER, le=BORDER)
    y: float = Field(ge=-64, le=320)
    z: float = Field(ge=-BORDER, le=BORDER)
    yaw: float = Field(default=0.0, ge=-360, le=360)
    pitch: float = Field(default=0.0, ge=-90, le=90)


class PlacesModel(ConfigModel):
    """``[places]``: one location for each shared place (``CastlePlaces``)."""

    breakfast_room: LocationModel
    foyer: LocationModel
    library: LocationModel
    bar: LocationModel
    kitchen: LocationModel
    billiards_room: LocationModel
    diary_room: LocationModel
    finale_area: LocationModel
    oath_spot: LocationModel
    turret: LocationModel
    confession_room: LocationModel
    gate: LocationModel


class BuiltModel(ConfigModel):
    """``[built]``: ``origin`` three whole numbers (blocks), ``seats`` 1..16, ``blueprint`` (``BuiltBy``)."""

    origin: list[int] = Field(min_length=3, max_length=3)
    seats: int = Field(ge=1, le=MAX_SEATS)
    blueprint: str


class CastleModel(ConfigModel):
    """The whole file (``CastleConfig``): 1..16 seats and homes, the breakfast places required."""

    places: PlacesModel
    seats: list[LocationModel] = Field(min_length=1, max_length=MAX_SEATS)
    homes: list[LocationModel] = Field(min_length=1, max_length=MAX_SEATS)
    breakfast: list[LocationModel] = Field(default_factory=list, max_length=MAX_SEATS, validate_default=True)
    built: BuiltModel | None = None

    @field_validator("breakfast")
    @classmethod
    def _breakfast_given(cls, breakfast: list[LocationModel]) -> list[LocationModel]:
        """A castle file must say where the heads go (a castle written before the breakfast places existed has
        none: the problem names the field and how to add it)."""
        if not breakfast:
            raise ValueError(BREAKFAST_REQUIRED)
        return breakfast

    @field_validator("built")
    @classmethod
    def _built_matches(cls, built: BuiltModel | None, info: ValidationInfo) -> BuiltModel | None:
        """A ``[built]`` table must tell the seats the file has: ``castle-map`` and ``build-castle --remove``
        redraw the castle from it."""
        seats = info.data.get("seats")
        if built is not None and seats is not None and built.seats != len(seats):
            raise ValueError(
                f"says {built.seats} seats, but the file lists {len(seats)} [[seats]]; "
                "rebuild it with traitors build-castle, or remove the [built] table"
            )
        return built


for _model, _dataclass in ((LocationModel, Location), (BuiltModel, BuiltBy), (CastleModel, CastleConfig)):
    assert list(_model.model_fields) == [f.name for f in fields(_dataclass)], _model
assert tuple(PlacesModel.model_fields) == SHARED_PLACES


def castle_from(data: object, name: str) -> CastleConfig:
    """The castle from a castle file's data, validated.

    Raises:
        ConfigFileError: any invalid or missing value, each problem naming ``name`` and the key path.
    """
    return castle_of(validate(CastleModel, data, name).model_dump())


def parse_castle(text: str, name: str) -> CastleConfig:
    """Validate the TOML text of a castle file.

    Args:
        text: the file's content.
        name: how to name the file in error messages.

    Raises:
        ConfigFileError: bad TOML, or any invalid or missing value (all problems listed).
    """
    return castle_from(parse_toml(text, name), name)


def load_castle(path: str | Path) -> CastleConfig:
    """Load and validate a castle file.

    Args:
        path: a TOML file shaped like ``world_config/castle.toml``.

    Raises:
        ConfigFileError: the file cannot be read, is not TOML, is another kind of file (a series file, a serve
            config or a scenario: one line saying so, not every castle key it lacks), or fails validation; the
            message names the file and the key path of every problem.
    """
    data = read_toml(path)
    if data and not set(CastleModel.model_fields).intersection(data):
        problem = kind_problem(data, str(path), "castle")
        if problem is not None:
            raise ConfigFileError(str(path), [problem])
    return castle_from(data, str(path))


__all__ = ["CastleModel", "castle_from", "load_castle", "parse_castle"]
