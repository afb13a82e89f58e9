"""Dice Table vision: frames in, dice readings out. Knows nothing of games.

- ``vision.reading``: the ``Die`` and ``DiceReading`` value types every other module speaks.
- ``vision.frames``: the ``Frame`` and the camera faults every source shares, and normalising any
  camera frame to ``(H, W, 3) uint8 BGR`` at the boundary.
- ``vision.sources``: the frame sources, one module per kind (folder, video, live cameras, photos).
"""
