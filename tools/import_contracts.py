"""Import-linter contract types of the project (``pyproject.toml``, ``[tool.importlinter]`` ``contract_types``).

``acyclic_init``: no package's ``__init__`` is part of an import circle with a module inside that package. The
built-in ``acyclic_siblings`` contract looks for circles between the children of a package only: a package's
``__init__`` is not one of its children, so ``engine/rulesets/__init__.py`` importing
``engine.rulesets.club.game`` while that module imports ``engine.rulesets`` (directly, or through other modules)
passes it. Such a circle breaks at import time in whichever order the two are first imported (a half-initialised
package, a name missing from it), so it is caught here.

``lint-imports`` loads this module from the repository root (it puts the working directory on ``sys.path``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import grimp
from importlinter import Contract, ContractCheck, fields, output


@dataclass(frozen=True, slots=True)
class Circle:
    """One circle: ``package``'s ``__init__`` reaches ``module`` (inside it) along ``down`` and ``module`` reaches
    the ``__init__`` back along ``up`` (each a chain of dotted module names, importer first)."""

    package: str
    module: str
    down: tuple[str, ...]
    up: tuple[str, ...]

    def render(self) -> str:
        """The circle as one line: ``a -> b -> c -> a``."""
        return " -> ".join((*self.down, *self.up[1:]))


def package_circles(graph: grimp.ImportGraph, ancestor: str) -> list[Circle]:
    """The shortest ``__init__`` circle of every package at or under ``ancestor`` that has one, by package name.

    Args:
        graph: the import graph (``grimp``), imports inside functions and ``TYPE_CHECKING`` blocks included, as
            in the other contracts.
        ancestor: a dotted package name.
    """
    circles: list[Circle] = []
    for package in sorted({ancestor, *graph.find_descendants(ancestor)}):
        inside = graph.find_descendants(package)
        if not inside:
            continue
        reached = graph.find_upstream_modules(package) & inside
        caught = sorted(reached & graph.find_downstream_modules(package))
        found = []
        for module in caught:
            down = graph.find_shortest_chain(importer=package, imported=module)
            up = graph.find_shortest_chain(importer=module, imported=package)
            if down and up:
                found.append(Circle(package, module, tuple(down), tuple(up)))
        if found:
            circles.append(min(found, key=lambda c: (len(c.down) + len(c.up), c.module)))
    return circles


class AcyclicInitContract(Contract):
    """Contract type ``acyclic_init``. Options: ``ancestors``, the packages checked with every package under them.

    Raises (from ``check``):
        ValueError: an ancestor is not a module of the graph.
    """

    type_name = "acyclic_init"
    ancestors = fields.ListField(subfield=fields.StringField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        """Kept when no package under ``ancestors`` is in a circle with its own modules; the circles otherwise."""
        ancestors: list[str] = list(self.ancestors)  # type: ignore[call-overload]
        circles: list[Circle] = []
        for ancestor in ancestors:
            if ancestor not in graph.modules:
                raise ValueError(f"acyclic_init: no module {ancestor!r} in the graph")
            circles += package_circles(graph, ancestor)
            output.verbose_print(verbose, f"{ancestor}: {len(circles)} package(s) in a circle so far")
        return ContractCheck(kept=not circles, metadata={"circles": circles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        """One line per package in a circle with its own modules, then the shortest such circle."""
        circles: list[Any] = check.metadata["circles"]
        for circle in circles:
            output.print_error(f"{circle.package} (its __init__) and {circle.module} import each other:")
            output.indent_cursor()
            output.print_error(circle.render())
            output.new_line()
