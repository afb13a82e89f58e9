"""The appliance's configuration: one TOML file, checked whole before anything starts.

Default path ``/etc/dicetable/config.toml`` (the unit's ``ConfigurationDirectory=``); every key is
documented in ``systemd/config.example.toml``, which the installer copies there once. A missing
default file means "all defaults"; a file named explicitly must exist.

Use (``path`` None: the default file, or defaults if it is absent):

>>> import tempfile
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "config.toml"
>>> _ = path.write_text('[camera]\\nsource = "synthetic"\\n\\n[rules.maexle]\\nlimit = 3\\n')
>>> cfg = load(path)
>>> cfg.camera.source    # "picamera" | "synthetic" | int (OpenCV device) | Path (video file or image folder)
'synthetic'
>>> cfg.camera.size      # (width, height) px
(1280, 720)
>>> cfg.tray.area is None  # (x, y, w, h) px in the camera frame, or None for the whole frame
True
>>> cfg.gpio.reveal_pin  # BCM GPIO number
17
>>> cfg.rules["maexle"]  # {switch: value} the file sets, in the engine's canonical form (RULES.md §1-3)
{'limit': 3}
>>> cfg.state_dir
PosixPath('/var/lib/dicetable')

A bad value is one clear message naming the key; the command exits with EXIT_BAD_CONFIG (listed in
the unit's RestartPreventExitStatus=):

>>> _ = path.write_text('[camera]\\nfps = "fast"\\n')
>>> try:
...     load(path)
... except ConfigError as exc:
...     print(exc.key, EXIT_BAD_CONFIG)
camera.fps 78
>>> import shutil; shutil.rmtree(path.parent)

An unknown key, a wrong type or an impossible value raises ConfigError naming the key (dotted, e.g.
``rules.maexle.limit``); nothing is half-applied because the file is checked before a Config exists.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable

from appliance.games import GAMES, SetupError
from appliance.i18n import LANGUAGES

DEFAULT_PATH = Path("/etc/dicetable/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/dicetable")
EXAMPLE_PATH = Path(__file__).resolve().parent.parent / "systemd" / "config.example.toml"

# sysexits.h EX_CONFIG. The unit lists it in RestartPreventExitStatus= so that a bad config file
# gives one clear message in the journal instead of a restart loop.
EXIT_BAD_CONFIG = 78

# Extra buttons the table may wire besides REVEAL (name -> the command it sends). The kiosk's
# inputs map each name to a command; the names are the RULES.md §4 actions they trigger.
EXTRA_BUTTONS = ("undo", "accept", "self_reveal", "stop", "rule_broken", "menu")

# SDL video drivers the kiosk may ask for; "auto" leaves the choice to SDL.
DISPLAY_DRIVERS = ("auto", "kmsdrm", "x11", "wayland", "dummy", "offscreen")

# BCM GPIO numbers usable for buttons and LEDs on the 40-pin header. GPIO 0 and 1 are the HAT
# ID EEPROM pins and are left alone.
USABLE_PINS = range(2, 28)


class ConfigError(ValueError):
    """A config file that cannot be used. ``key`` is the dotted key at fault ("" for the whole
    file); ``str(err)`` is one line naming the file, the key, what is wrong and what is allowed."""

    def __init__(self, key: str, problem: str, path: Path | None = None):
        self.key = key
        self.problem = problem
        self.path = path
        where = f"{path}: " if path else ""
        super().__init__(f"config {where}{key + ': ' if key else ''}{problem}")


# --- value checks: each takes (key, raw TOML value) and returns the normalised value ------------

Check = Callable[[str, Any], Any]


def _shown(value: Any) -> str:
    """``value`` as it is written in TOML (``true``, ``"x"``, ``[1, 2]``), for messages: the file's
    spelling, not Python's."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


def _type_name(value: Any) -> str:
    return {bool: "a true/false value", int: "a whole number", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


def _boolean(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ConfigError(key, f"must be true or false, got {_shown(value)}")


def _integer(lo: int, hi: int) -> Check:
    def check(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(key, f"must be a whole number {lo}-{hi}, got {_shown(value)} ({_type_name(value)})")
        if not lo <= value <= hi:
            raise ConfigError(key, f"must be {lo}-{hi}, got {value}")
        return value

    return check


def _number(lo: float, hi: float, unit: str) -> Check:
    span = f"{lo}-{hi} {unit}" if unit else f"{lo}-{hi}"  # a unitless volume read "0.0-1.0 , got"

    def check(key: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(key, f"must be a number {span}, got {_shown(value)} ({_type_name(value)})")
        if not lo <= value <= hi:
            raise ConfigError(key, f"must be {span}, got {value}")
        return float(value)

    return check


def _choice(*options: str) -> Check:
    def check(key: str, value: Any) -> str:
        if value not in options or not isinstance(value, str):
            raise ConfigError(key, f"must be one of {', '.join(options)}; got {_shown(value)}")
        return value

    return check


def _text(max_len: int) -> Check:
    def check(key: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(key, f"must be a non-empty string, got {_shown(value)}")
        if len(value) > max_len:
            raise ConfigError(key, f"must be at most {max_len} characters, got {len(value)}")
        if not value.strip().isprintable():  # a line break or a tab would break the screen's line
            raise ConfigError(key, f"must be one line of printable characters, got {_shown(value)}")
        return value.strip()

    return check


def _size(key: str, value: Any) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ConfigError(key, f"must be [width, height] in px, got {_shown(value)}")
    w, h = value
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise ConfigError(key, f"width and height must be 16-8192 px, got {w}x{h}")
    return (w, h)


def _display_size(key: str, value: Any) -> tuple[int, int] | None:
    return None if value == "native" else _size(key, value)


def _pin(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in USABLE_PINS:
        raise ConfigError(key, f"must be a BCM GPIO number {USABLE_PINS.start}-{USABLE_PINS.stop - 1}, "
                               f"got {_shown(value)}")
    return value


def _optional_pin(key: str, value: Any) -> int | None:
    return None if value == "none" else _pin(key, value)


def _camera_source(key: str, value: Any) -> str | int | Path:
    if isinstance(value, bool):
        raise ConfigError(key, f"must be \"picamera\", \"synthetic\", a device number or a path, got {_shown(value)}")
    if isinstance(value, int):
        if not 0 <= value <= 63:
            raise ConfigError(key, f"a camera device number must be 0-63 (/dev/videoN), got {value}")
        return value
    if not isinstance(value, str) or not value:
        raise ConfigError(key, f"must be \"picamera\", \"synthetic\", a device number or a path, got {_shown(value)}")
    if value in ("picamera", "synthetic"):
        return value
    if not Path(value).is_absolute():
        raise ConfigError(key, f"a video file or image folder must be an absolute path, got {_shown(value)}")
    path = _absolute_path(key, value)
    if path.parts[1:2] == ("dev",):  # a webcam plugged in after boot is no folder to wait for
        number = value.removeprefix("/dev/video")
        hint = f" ({number} for {value})" if number.isdigit() else ""
        raise ConfigError(key, f"a camera is given by its number{hint}, not its device path, got {_shown(value)}")
    from vision.sources.folder import IMAGE_SUFFIXES

    if path.is_file():
        if path.suffix.lower() in IMAGE_SUFFIXES:  # one frame, then "No more frames" for good
            raise ConfigError(key, f"{value} is one photo: a camera source of photos is the folder that holds them")
    elif path.exists():
        if not path.is_dir():  # a pipe, a socket
            raise ConfigError(key, f"{value} is not a video file nor an image folder")
    elif path.suffix:
        raise ConfigError(key, f"no such video file: {value}")
    # A folder not there yet is a camera not yet plugged in (a USB stick mounted after boot): the
    # kiosk waits for it, as the folder source does for photos copied in late.
    return path


def _exposure(key: str, value: Any) -> str | int:
    if value == "auto":
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 100 <= value <= 1_000_000:
        raise ConfigError(key, f"must be \"auto\" or an exposure time of 100-1000000 µs, got {_shown(value)}")
    return value


def _tray_area(key: str, value: Any) -> tuple[int, int, int, int] | None:
    if value == "full":
        return None
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ConfigError(key, f"must be \"full\" or [x, y, width, height] in px, got {_shown(value)}")
    x, y, w, h = value
    if x < 0 or y < 0 or w < 16 or h < 16:
        raise ConfigError(key, f"needs x, y >= 0 and width, height >= 16 px, got {value}")
    return (x, y, w, h)


def _buttons(key: str, value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ConfigError(key, f"must be a table of button = pin, got {_shown(value)}")
    out = {}
    for name, pin in value.items():
        if name not in EXTRA_BUTTONS:
            raise ConfigError(f"{key}.{name}", f"unknown button; the buttons are {', '.join(EXTRA_BUTTONS)}")
        out[name] = _pin(f"{key}.{name}", pin)
    return out


def _absolute_path(key: str, value: Any) -> Path:
    if not isinstance(value, str) or not value or not Path(value).is_absolute():
        raise ConfigError(key, f"must be an absolute path, got {_shown(value)}")
    if "\0" in value:  # TOML allows "\u0000"; no file system does
        raise ConfigError(key, f"a path cannot hold a NUL character, got {_shown(value)}")
    return Path(value)


# --- house-rule switches per game: the engine's own table (RULES.md §1-3), so names, values and ----
# defaults live in one place: appliance.games.<game>.switches.

# The most a cost or a limit may be in the config. RULES.md sets no bound (a replayed log may carry
# any), but the kiosk shows points and costs in two digits, and a cost of 10**13 is a typo.
MOST_POINTS = 99


def _switch_check(game: str, name: str) -> Check:
    switch = GAMES[game].switches[name]

    def check(key: str, value: Any) -> Any:
        if switch.kind == "limit":  # TOML has no null: RULES.md's "none" stands for it
            if value == "none":
                return None
            if value is None or isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(key, f"must be \"none\" or a whole number >= 1, got {_shown(value)}")
        try:
            value = switch.check(name, value)
        except SetupError as exc:
            problem = str(exc).split(": ", 1)[-1]  # the engine's "rules.limit = 0: must be ..."
            raise ConfigError(key, f"{problem}, got {_shown(value)}") from None
        if switch.kind in ("count", "limit") and value is not None and value > MOST_POINTS:
            raise ConfigError(key, f"must be at most {MOST_POINTS}, got {_shown(value)}")
        return value

    return check


RULE_SWITCHES: dict[str, dict[str, Check]] = {
    game: {name: _switch_check(game, name) for name in cls.switches} for game, cls in GAMES.items()
}


def _rules(key: str, value: Any) -> dict[str, dict[str, Any]]:
    """Only the switches the file sets, canonical (on/off as true/false, "none" as None): the engine
    fills every other one with its RULES.md default when the game starts."""
    if not isinstance(value, dict):
        raise ConfigError(key, f"must be a table with [rules.maexle], [rules.biscuit], [rules.yacht], "
                               f"got {_shown(value)}")
    out: dict[str, dict[str, Any]] = {game: {} for game in RULE_SWITCHES}
    for game, switches in value.items():
        if game not in RULE_SWITCHES:
            raise ConfigError(f"{key}.{game}", f"unknown game; the games are {', '.join(RULE_SWITCHES)}")
        if not isinstance(switches, dict):
            raise ConfigError(f"{key}.{game}", f"must be a table of house-rule switches, got {_shown(switches)}")
        for name, raw in switches.items():
            check = RULE_SWITCHES[game].get(name)
            if check is None:
                raise ConfigError(f"{key}.{game}.{name}",
                                  f"unknown switch; {game} has {', '.join(RULE_SWITCHES[game])}")
            out[game][name] = check(f"{key}.{game}.{name}", raw)
    return out


# --- the sections ---------------------------------------------------------------------------------

def _key(check: Check, default: Any = MISSING, factory: Callable[[], Any] | Any = MISSING) -> Any:
    """A config key: its default (or default factory) and the check that turns a raw TOML value into
    the field's value."""
    return field(default=default, default_factory=factory, metadata={"check": check})


@dataclass(frozen=True)
class CameraConfig:
    """[camera]: where frames come from. size (width, height) px; fps frames/s; exposure µs or "auto"."""

    source: str | int | Path = _key(_camera_source, "picamera")
    size: tuple[int, int] = _key(_size, (1280, 720))
    fps: int = _key(_integer(1, 120), 15)
    exposure: str | int = _key(_exposure, "auto")


@dataclass(frozen=True)
class TrayConfig:
    """[tray]: the part of the camera frame the dice tray fills, (x, y, w, h) px, None = whole frame."""

    area: tuple[int, int, int, int] | None = _key(_tray_area, None)


@dataclass(frozen=True)
class GpioConfig:
    """[gpio]: BCM pin numbers. Buttons go between the pin and ground (internal pull-up)."""

    reveal_pin: int = _key(_pin, 17)
    reveal_led_pin: int | None = _key(_optional_pin, None)
    long_press_s: float = _key(_number(0.3, 10.0, "s"), 1.5)
    buttons: dict[str, int] = _key(_buttons, factory=dict)


@dataclass(frozen=True)
class DisplayConfig:
    """[display]: size (width, height) px or None for the screen's own; SDL video driver."""

    size: tuple[int, int] | None = _key(_display_size, None)
    fullscreen: bool = _key(_boolean, True)
    driver: str = _key(_choice(*DISPLAY_DRIVERS), "kmsdrm")


@dataclass(frozen=True)
class SoundConfig:
    """[sound]: volume 0.0-1.0; voice: spoken announcements on or off."""

    volume: float = _key(_number(0.0, 1.0, ""), 0.8)
    voice: bool = _key(_boolean, True)


@dataclass(frozen=True)
class CoachConfig:
    """[coach]: hints on the kiosk. yacht_hint: the best declaration; maexle_odds: the odds of beating
    the standing announcement."""

    yacht_hint: bool = _key(_boolean, False)
    maexle_odds: bool = _key(_boolean, False)


@dataclass(frozen=True)
class DrinksConfig:
    """[drinks]: cap: drinks per player and evening after which that player's drinks are announced
    as water (the counts keep both); 0 = no cap."""

    cap: int = _key(_integer(0, 99), 0)


SECTIONS = {
    "camera": CameraConfig,
    "tray": TrayConfig,
    "gpio": GpioConfig,
    "display": DisplayConfig,
    "sound": SoundConfig,
    "coach": CoachConfig,
    "drinks": DrinksConfig,
}


@dataclass(frozen=True)
class Config:
    """The whole checked configuration (immutable). ``path`` is the file it came from, None for
    built-in defaults. ``rules[game]`` holds only the switches the file set (RULES.md names)."""

    language: str = _key(_choice(*LANGUAGES), "en")
    drink_word: str = _key(_text(24), "sip")
    state_dir: Path = _key(_absolute_path, DEFAULT_STATE_DIR)
    camera: CameraConfig = field(default_factory=CameraConfig)
    tray: TrayConfig = field(default_factory=TrayConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    coach: CoachConfig = field(default_factory=CoachConfig)
    drinks: DrinksConfig = field(default_factory=DrinksConfig)
    rules: dict[str, dict[str, Any]] = _key(_rules, factory=lambda: {g: {} for g in RULE_SWITCHES})
    path: Path | None = None


def _field_default(f) -> Any:
    return f.default_factory() if f.default is MISSING else f.default


def _build(cls, table: dict, prefix: str):
    """An instance of the dataclass ``cls`` from the TOML ``table``; every key checked."""
    known = {f.name: f for f in fields(cls) if "check" in f.metadata}
    values = {}
    for name, raw in table.items():
        key = f"{prefix}{name}"
        if name not in known:
            allowed = ", ".join(known)
            raise ConfigError(key, f"unknown key; [{prefix.rstrip('.')}] has {allowed}")
        values[name] = known[name].metadata["check"](key, raw)
    for name, f in known.items():
        if name not in values:
            values[name] = _field_default(f)
    return cls(**values)


def _check_pins(gpio: GpioConfig) -> None:
    """Two buttons or LEDs on one pin cannot work: name the second one."""
    seen: dict[int, str] = {gpio.reveal_pin: "gpio.reveal_pin"}
    others = [("gpio.reveal_led_pin", gpio.reveal_led_pin)] + [(f"gpio.buttons.{n}", p) for n, p in gpio.buttons.items()]
    for key, pin in others:
        if pin is None:
            continue
        if pin in seen:
            raise ConfigError(key, f"GPIO {pin} is already used by {seen[pin]}")
        seen[pin] = key


def _check_tray(tray: TrayConfig, camera: CameraConfig) -> None:
    """The tray area is in px of the camera's frame: it must lie inside it (the settle detector could
    not see the dice otherwise). A video file or image folder has its own frame size: not checked."""
    if tray.area is None or isinstance(camera.source, Path):
        return
    x, y, w, h = tray.area
    fw, fh = camera.size
    if x + w > fw or y + h > fh:
        raise ConfigError("tray.area", f"{list(tray.area)} does not lie inside the {fw}x{fh} camera frame "
                                       f"(camera.size); x + width must be <= {fw}, y + height <= {fh}")


def parse(data: dict, path: Path | None = None) -> Config:
    """A Config from a parsed TOML document (a dict). Raises ConfigError naming the key at fault.

    The state directory, when the file does not set it, is $STATE_DIRECTORY (set by the unit's
    ``StateDirectory=``) or /var/lib/dicetable.
    """
    try:
        top = {k: v for k, v in data.items() if k not in SECTIONS}
        top_known = {f.name for f in fields(Config) if "check" in f.metadata}
        for name in top:
            if name not in top_known:
                where = "section" if isinstance(top[name], dict) else "key"
                keys = ", ".join(sorted(k for k in top_known if k != "rules"))
                tables = ", ".join(f"[{s}]" for s in [*SECTIONS, "rules.<game>"])
                raise ConfigError(name, f"unknown {where}; the keys are {keys} and the sections {tables}")
        sections = {}
        for name, cls in SECTIONS.items():
            table = data.get(name, {})
            if not isinstance(table, dict):
                raise ConfigError(name, f"must be a section [{name}], got {_shown(table)}")
            sections[name] = _build(cls, table, f"{name}.")
        base = _build(Config, top, "")
        if "state_dir" not in top and os.environ.get("STATE_DIRECTORY"):
            # systemd may list several directories separated by ":"; ours is the first.
            state = Path(os.environ["STATE_DIRECTORY"].split(":")[0])
            base = replace(base, state_dir=state)
        _check_pins(sections["gpio"])
        _check_tray(sections["tray"], sections["camera"])
        return replace(base, **sections, path=path)
    except ConfigError as exc:
        if path is not None and exc.path is None:
            raise ConfigError(exc.key, exc.problem, path) from None
        raise


def load(path: str | Path | None = None) -> Config:
    """The checked configuration from ``path``.

    path None: $DICETABLE_CONFIG, else /etc/dicetable/config.toml; when that default file does not
    exist, the built-in defaults (documented in systemd/config.example.toml). A path given
    explicitly must exist.

    Raises ConfigError (a ValueError) for a missing explicit file, unreadable bytes, TOML syntax,
    an unknown key, a wrong type or an impossible value, always naming the file and the key.
    """
    explicit = path is not None or bool(os.environ.get("DICETABLE_CONFIG"))
    path = Path(path or os.environ.get("DICETABLE_CONFIG") or DEFAULT_PATH)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if explicit:
            raise ConfigError("", "file not found", path) from None
        return parse({}, None)
    except OSError as exc:
        raise ConfigError("", f"cannot be read: {exc.strerror}", path) from None
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))  # a byte-order mark (Windows Notepad) is no error
    except UnicodeDecodeError:
        raise ConfigError("", "is not UTF-8 text", path) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("", f"TOML syntax error: {exc}", path) from None
    return parse(data, path)


def defaults() -> Config:
    """The built-in defaults, as a file with no keys would give."""
    return parse({}, None)
