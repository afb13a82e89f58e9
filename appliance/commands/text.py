"""The command lines' own English: counts said with the right number ("1 die", "2 dice")."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun for it (``many`` defaults to ``one`` + "s"):

    >>> counted(1, "die", "dice"), counted(2, "die", "dice"), counted(0, "throw")
    ('1 die', '2 dice', '0 throws')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"
