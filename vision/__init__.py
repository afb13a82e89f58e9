"""Dice Table vision: frames in, dice readings out. Knows nothing of games.

- ``vision.reading``: the ``Die`` and ``DiceReading`` value types every other module speaks.
- ``vision.frames``: normalising any camera frame to ``(H, W, 3) uint8 BGR`` at the boundary.
"""
