"""The command lines' own English: counts said with the right number ("1 die", "2 dice")."""

from __future__ import annotations

import os


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun for it (``many`` defaults to ``one`` + "s"):

    >>> counted(1, "die", "dice"), counted(2, "die", "dice"), counted(0, "throw")
    ('1 die', '2 dice', '0 throws')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"


def json_name(path) -> str:
    """A file name (``str`` or ``os.PathLike``) as a JSON line can carry it. Linux names are bytes;
    one that is not UTF-8 reaches Python with lone surrogates, which strict JSON readers refuse, so
    each such byte is written as the four characters ``\\xNN`` instead:

    >>> json_name("throw-1.jpg"), json_name(b"d\\xe9.jpg".decode("utf-8", "surrogateescape"))
    ('throw-1.jpg', 'd\\\\xe9.jpg')
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")
