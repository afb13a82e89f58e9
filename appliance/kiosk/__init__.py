"""The full-screen kiosk: a pure core and thin pygame drawing.

- ``words``: the kiosk's own words: the session's problem codes, camera faults, unreadable kinds,
  and the announcements of events (the games' words are ``appliance.table``'s).
- ``app``: the kiosk's core (the screen on top, the session, the announcement queue); no pygame.
- ``screens``: one class per screen, owning its state and the handlers of its choices.
- ``view``: what each screen shows, as plain data built from the data each screen hands it.
- ``theme``, ``widgets``, ``draw``: the look, the drawing primitives, the layouts (pygame).
- ``camera``: the camera pipeline (source -> settle -> reader) in a worker thread.
- ``loop``: the UI loop: pygame events and GPIO to commands, draw, per-frame hook.

Importing this package does not import pygame; only the drawing modules do.
"""
