"""The command-line front ends (``traitors …``; ``cli`` holds the table of commands): each builds what it needs
from the other layers of ``bridge`` and runs it."""
