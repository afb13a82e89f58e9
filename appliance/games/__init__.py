"""The rules engine: pure, deterministic game objects for Mäxle, Biscuit and declared Yacht.

No I/O, no clock, no randomness, no pygame or OpenCV: the game log of ../shared/RULES.md §4 is the
engine's only input and output.
"""
