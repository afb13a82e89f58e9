#!/usr/bin/env bash
# Remove the Dice Table boot service installed by install.sh:
#
#     sudo ./systemd/uninstall.sh            # service and program gone; config and saved games kept
#     sudo ./systemd/uninstall.sh --purge    # also /etc/dicetable, /var/lib/dicetable and the user
#     sudo ./systemd/uninstall.sh --dry-run  # print what it would do, change nothing
#
# apt packages stay (other programs may use them). Safe to run twice. --root DIR: files under DIR
# instead of / (for tests).
set -euo pipefail

ROOT=""
DRY=0
PURGE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --purge) PURGE=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"; exit 0 ;;
        *) echo "uninstall.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

SERVICE_USER=dicetable
UNIT=$ROOT/etc/systemd/system/dicetable.service

say() { printf '==> %s\n' "$*"; }
run() {
    printf '  +'; printf ' %q' "$@"; printf '\n'
    if [ "$DRY" -eq 0 ]; then "$@"; fi
}

if [ "$DRY" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    echo "uninstall.sh: run as root: sudo $0" >&2
    exit 1
fi

say "service"
if [ -e "$UNIT" ]; then
    run systemctl disable --now dicetable.service
    run rm -f "$UNIT"
    run systemctl daemon-reload
    run systemctl reset-failed dicetable.service || true
else
    say "  no unit installed: nothing to stop"
fi
# Give tty1 its login prompt back.
run systemctl enable --now getty@tty1.service

say "program"
run rm -rf "$ROOT/opt/dicetable"

if [ "$PURGE" -eq 1 ]; then
    say "config, saved games and the user (--purge)"
    run rm -rf "$ROOT/etc/dicetable" "$ROOT/var/lib/dicetable" "$ROOT/var/cache/dicetable"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run userdel "$SERVICE_USER"
    else
        say "  no user $SERVICE_USER: nothing to remove"
    fi
else
    say "kept: $ROOT/etc/dicetable (config) and $ROOT/var/lib/dicetable (saved games); --purge removes them"
fi
say "done"
