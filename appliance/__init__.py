"""Dice Table: the appliance around the dice reader.

``appliance.games`` is the pure rules engine; the rest of this package wires the camera, buttons,
touch screen, store and kiosk to it (see ../shared/DESIGN.md).
"""

__version__ = "0.1.0"
