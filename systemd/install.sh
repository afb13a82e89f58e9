#!/usr/bin/env bash
# Install Dice Table as a boot service on Raspberry Pi OS (Bookworm or later), from a clone:
#
#     sudo ./systemd/install.sh             # install or upgrade; safe to run again
#     sudo ./systemd/install.sh --dry-run   # print what it would do, change nothing
#
# Steps: apt packages, the service user, the virtual environment in /opt/dicetable/venv (with the
# system's site packages, so apt's picamera2 and lgpio are seen), /etc/dicetable/config.toml (only if
# there is none: an edited config is never replaced), the unit, enabled and (re)started.
# Options: --no-start (install and enable, do not start now), --force (not Raspberry Pi OS/Debian 12+),
# --root DIR (write files under DIR instead of /, for tests; implies nothing runs that is not a file
# step unless the commands are on PATH).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY=0
START=1
FORCE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --no-start) START=0 ;;
        --force) FORCE=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

SERVICE_USER=dicetable
PREFIX=$ROOT/opt/dicetable
VENV=$PREFIX/venv
CONF_DIR=$ROOT/etc/dicetable
STATE_DIR=$ROOT/var/lib/dicetable
UNIT_DIR=$ROOT/etc/systemd/system
GROUPS_WANTED="video render input gpio audio"
# The system's own Python: it sees apt's python3-picamera2, python3-lgpio and python3-numpy.
PYTHON=${DICETABLE_PYTHON:-/usr/bin/python3}
# Debian package names. picamera2 and lgpio: the Pi camera and GPIO (Raspberry Pi OS archive);
# SDL2 and its image/ttf/mixer parts: pygame's kmsdrm screen, fonts and sound; DejaVu: Latin and
# Cyrillic glyphs for all four languages.
APT_PACKAGES="python3 python3-venv python3-pip python3-numpy python3-picamera2 python3-lgpio \
libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-ttf-2.0-0 libsdl2-mixer-2.0-0 fonts-dejavu-core espeak-ng"

say() { printf '==> %s\n' "$*"; }
# Every command that changes the system goes through run: printed, and skipped under --dry-run.
run() {
    printf '  +'; printf ' %q' "$@"; printf '\n'
    if [ "$DRY" -eq 0 ]; then "$@"; fi
}

check_system() {
    if [ "$DRY" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
        echo "install.sh: run as root: sudo $0" >&2
        exit 1
    fi
    local id="" version=""
    if [ -r /etc/os-release ]; then
        # shellcheck source=/dev/null
        id=$(. /etc/os-release && echo "${ID:-}")
        # shellcheck source=/dev/null
        version=$(. /etc/os-release && echo "${VERSION_ID:-0}")
    fi
    case "$id" in
        raspbian|debian) ;;
        *) if [ "$FORCE" -eq 0 ]; then
               echo "install.sh: this is '${id:-unknown}', not Raspberry Pi OS or Debian; --force to go on" >&2
               exit 1
           fi ;;
    esac
    if [ "${version%%.*}" -lt 12 ] 2>/dev/null && [ "$FORCE" -eq 0 ]; then
        echo "install.sh: Raspberry Pi OS Bookworm (12) or later is needed, this is $version; --force to go on" >&2
        exit 1
    fi
}

install_packages() {
    say "apt packages"
    local packages="" p
    run apt-get update
    for p in $APT_PACKAGES; do
        # python3-picamera2 and python3-lgpio exist only in the Raspberry Pi OS archive: on plain
        # Debian (a USB webcam, no GPIO) they are skipped, not fatal.
        if apt-cache show "$p" >/dev/null 2>&1 || [ "$DRY" -eq 1 ]; then
            packages="$packages $p"
        else
            say "  no package $p here: skipped"
        fi
    done
    # shellcheck disable=SC2086 # the package list is meant to split into words
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages
}

make_user() {
    say "service user $SERVICE_USER"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        say "  user exists: kept"
    else
        run useradd --system --user-group --home-dir /var/lib/dicetable --no-create-home \
            --shell /usr/sbin/nologin --comment "Dice Table kiosk" "$SERVICE_USER"
    fi
    local g present=""
    for g in $GROUPS_WANTED; do
        if getent group "$g" >/dev/null; then present="$present,$g"; else say "  no group $g here: skipped"; fi
    done
    if [ -n "$present" ]; then run usermod --append --groups "${present#,}" "$SERVICE_USER"; fi
}

make_venv() {
    say "virtual environment $VENV"
    if [ -x "$VENV/bin/python" ]; then
        say "  exists: upgraded in place"
    else
        run mkdir -p "$PREFIX"
        run "$PYTHON" -m venv --system-site-packages "$VENV"
    fi
    # Keep apt's numpy: picamera2 and simplejpeg from apt are built against it, and a newer numpy
    # in the venv breaks them ("numpy.dtype size changed"). pip then picks an OpenCV that fits it.
    local constraints="$PREFIX/constraints.txt" numpy_version
    numpy_version=$("$PYTHON" -s -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
    if [ -n "$numpy_version" ]; then
        say "  numpy pinned to the system's $numpy_version"
        if [ "$DRY" -eq 0 ]; then echo "numpy==$numpy_version" > "$constraints"; fi
    elif [ "$DRY" -eq 0 ]; then
        : > "$constraints"
    fi
    run "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    run "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        --constraint "$constraints" --upgrade "${SRC}[pi]"
    run install -m 0644 "$SRC/hardware.md" "$PREFIX/hardware.md"
}

install_config() {
    say "configuration $CONF_DIR/config.toml"
    run install -d -m 0755 "$CONF_DIR"
    # The example is ours and always current; config.toml is the owner's once it exists.
    run install -m 0644 "$SRC/systemd/config.example.toml" "$CONF_DIR/config.example.toml"
    if [ -e "$CONF_DIR/config.toml" ]; then
        say "  config.toml exists: kept as it is (compare with config.example.toml for new keys)"
    else
        run install -m 0644 "$SRC/systemd/config.example.toml" "$CONF_DIR/config.toml"
    fi
    if [ "$DRY" -eq 0 ] && [ -x "$VENV/bin/dicetable" ]; then
        "$VENV/bin/dicetable" selftest --config "$CONF_DIR/config.toml" --only config \
            || say "  the config has a problem (above): fix it, then: sudo systemctl restart dicetable"
    fi
}

install_unit() {
    say "systemd unit"
    run install -d -m 0750 "$STATE_DIR"
    run chown "$SERVICE_USER:$SERVICE_USER" "$STATE_DIR"
    run install -d "$UNIT_DIR"
    run install -m 0644 "$SRC/systemd/dicetable.service" "$UNIT_DIR/dicetable.service"
    run systemctl daemon-reload
    # A desktop holds the screen (DRM master): the kiosk's kmsdrm driver cannot draw beside it.
    if systemctl is-enabled --quiet display-manager.service 2>/dev/null; then
        say "  WARNING: a desktop starts at boot and will hold the screen; boot to the console instead:"
        say "           sudo raspi-config nonint do_boot_behaviour B1"
    fi
    # The kiosk takes tty1; the login prompt stays on tty2-tty6 (Ctrl+Alt+F2) and over ssh.
    run systemctl disable getty@tty1.service
    run systemctl enable dicetable.service
    if [ "$START" -eq 1 ]; then
        run systemctl restart dicetable.service
        say "started: journalctl -u dicetable -f   to watch it"
    else
        say "enabled: it starts at the next boot (or: sudo systemctl start dicetable)"
    fi
}

check_system
install_packages
make_user
make_venv
install_config
install_unit
say "done. Check the hardware: sudo -u $SERVICE_USER $VENV/bin/dicetable selftest"
