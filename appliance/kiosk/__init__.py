"""The full-screen kiosk: a pure core and thin pygame drawing.

- ``words``: every text the table reads, built from engine events in one place (i18n).
- ``app``: the kiosk's state machine (screens, selections, announcement queue); no pygame.
- ``view``: what each screen shows, as plain data built from the app.
- ``theme``, ``widgets``, ``draw``: the look, the drawing primitives, the layouts (pygame).
- ``camera``: the camera pipeline (source -> settle -> reader) in a worker thread.
- ``loop``: the UI loop: pygame events and GPIO to commands, draw, per-frame hook.

Importing this package does not import pygame; only the drawing modules do.
"""
