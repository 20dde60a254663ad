"""``bossbar`` in the sandbox: every set and get, and vanilla's "Nothing changed" failures."""

from __future__ import annotations

from bridge.sandbox.world import World


def test_set_each_property_then_nothing_changed() -> None:
    world = World()
    world.join("Alice")
    assert world.execute('bossbar add castle:night "Night"') == "Created custom bossbar [Night]"
    assert world.execute('bossbar add castle:night "Night"') == "A bossbar already exists with the ID 'castle:night'"
    changes = [
        ("value 5", "has changed value to 5", "Nothing changed. That's already the value of this bossbar"),
        ("max 50", "has changed maximum to 50", "Nothing changed. That's already the max of this bossbar"),
        ("color red", "has changed color", "Nothing changed. That's already the color of this bossbar"),
        ("style notched_6", "has changed style", "Nothing changed. That's already the style of this bossbar"),
        ("visible false", "is now hidden", "Nothing changed. The bossbar is already hidden"),
    ]
    for change, done, unchanged in changes:
        assert world.execute(f"bossbar set castle:night {change}") == f"Custom bossbar [Night] {done}"
        assert world.execute(f"bossbar set castle:night {change}") == unchanged
    bar = world.bossbars["castle:night"]
    assert (bar.value, bar.max, bar.color, bar.style, bar.visible) == (5, 50, "red", "notched_6", False)
    assert world.execute("bossbar get castle:night value") == "Custom bossbar [Night] has a value of 5"
    assert world.execute("bossbar get castle:night max") == "Custom bossbar [Night] has a maximum of 50"
    assert world.execute("bossbar get castle:night visible") == "Custom bossbar [Night] is currently hidden"
    assert world.execute('bossbar set castle:night name "Dusk"') == "Custom bossbar [Dusk] has been renamed"


def test_players_are_set_listed_online_and_cleared() -> None:
    world = World()
    for name in ("Alice", "Bob"):
        world.join(name)
    world.execute('bossbar add castle:night "Night"')
    assert world.execute("bossbar get castle:night players") == "Custom bossbar [Night] currently has no players online"
    assert (
        world.execute("bossbar set castle:night players @a") == "Custom bossbar [Night] now has 2 player(s): Alice, Bob"
    )
    world.leave("Bob")
    assert world.execute("bossbar get castle:night players") == (
        "Custom bossbar [Night] currently has 1 player(s) online: Alice"
    )
    assert world.execute("bossbar set castle:night players") == "Custom bossbar [Night] no longer has any players"
    assert world.execute("bossbar set castle:night players") == (
        "Nothing changed. Those players are already on the bossbar with nobody to add or remove"
    )
    assert world.execute("bossbar list") == "There are 1 custom bossbar(s) active: [Night]"
    assert world.execute("bossbar remove castle:night") == "Removed custom bossbar [Night]"
    assert world.execute("bossbar get castle:night value") == "No bossbar exists with the ID 'castle:night'"
    assert world.execute("bossbar list") == "There are no custom bossbars active"
