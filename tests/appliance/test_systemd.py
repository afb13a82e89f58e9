"""The boot service unit: its properties, systemd-analyze verify and security, and the installer."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from appliance import config

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNIT = SYSTEMD / "dicetable.service"
HARDWARE = SYSTEMD.parent / "hardware.md"


def unit_entries(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment of a unit file, repeats kept, in order."""
    section, out = "", []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.append((section, key.strip(), value.strip()))
    return out


def values(key: str, section: str = "Service") -> list[str]:
    return [v for s, k, v in unit_entries(UNIT.read_text()) if s == section and k == key]


def one(key: str, section: str = "Service") -> str:
    found = values(key, section)
    assert len(found) == 1, f"{section}.{key}: {found}"
    return found[0]


def need(tool: str) -> str:
    """The tool's path; on CI a missing tool is a failure (.ci/run installs it), elsewhere a skip."""
    path = shutil.which(tool)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is not installed; .ci/run installs it")
        pytest.skip(f"{tool} is not installed (apt-get install systemd shellcheck)")
    return path


# --- what the issue asks of the unit ---------------------------------------------------------------

def test_notify_with_a_watchdog_fed_by_the_main_process():
    assert one("Type") == "notify"
    assert one("NotifyAccess") == "main"
    watchdog = int(one("WatchdogSec"))
    # long enough for a slow frame, short enough that a frozen screen is back within half a minute
    assert 5 <= watchdog <= 30


def test_restart_on_failure_with_a_sane_delay_and_a_start_limit():
    assert one("Restart") == "on-failure"
    assert 1 <= int(one("RestartSec")) <= 30
    assert int(one("StartLimitBurst", "Unit")) >= 3
    assert int(one("StartLimitIntervalSec", "Unit")) >= 60


def test_a_bad_config_stops_the_service_instead_of_looping():
    assert str(config.EXIT_BAD_CONFIG) in one("RestartPreventExitStatus").split()


def test_it_runs_the_kiosk_with_the_default_config_file():
    assert one("ExecStart") == f"/opt/dicetable/venv/bin/dicetable kiosk --config {config.DEFAULT_PATH}"
    assert "/opt/dicetable/venv" in (SYSTEMD / "install.sh").read_text()


def test_its_own_user_in_the_device_groups():
    assert one("User") == "dicetable"
    assert set(one("SupplementaryGroups").split()) == {"video", "render", "input", "gpio", "audio"}


def test_kmsdrm_on_tty1():
    assert "SDL_VIDEODRIVER=kmsdrm" in values("Environment")
    assert one("TTYPath") == "/dev/tty1"
    assert "getty@tty1.service" in one("Conflicts", "Unit")


def test_state_and_configuration_directories():
    assert one("StateDirectory") == "dicetable"
    assert one("ConfigurationDirectory") == "dicetable"
    assert config.DEFAULT_STATE_DIR == Path("/var/lib/dicetable")
    assert config.DEFAULT_PATH.parent == Path("/etc/dicetable")


NEEDED_DEVICES = {
    "char-drm": "the screen (DRM/KMS)",
    "char-input": "touch screen and keys",
    "char-video4linux": "camera",
    "char-media": "camera (libcamera media graph)",
    "char-dma_heap": "camera buffers",
    "char-gpiochip": "GPIO buttons",
    "char-alsa": "sound",
    "/dev/tty1": "the console",
}


def test_the_devices_the_appliance_needs_stay_allowed_and_each_is_explained_in_hardware_md():
    assert one("DevicePolicy") == "closed"
    allowed = {v.split()[0] for v in values("DeviceAllow")}
    assert set(NEEDED_DEVICES) <= allowed
    assert "yes" not in values("PrivateDevices")  # that would hide /dev/dri, /dev/video*, /dev/gpiochip*
    guide = HARDWARE.read_text()
    for device in allowed:
        assert f"`{device}`" in guide, f"hardware.md does not say why {device} is allowed"


def test_no_network_at_all():
    assert one("IPAddressDeny") == "any"
    families = one("RestrictAddressFamilies").split()
    assert "AF_INET" not in families and "AF_INET6" not in families


# --- systemd's own tools ------------------------------------------------------------------------

def fake_root(tmp_path: Path, unit_text: str) -> Path:
    """A root with the distribution's units, the unit under test and a stand-in for the program."""
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    program = root / "opt/dicetable/venv/bin/dicetable"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/dicetable.service").write_text(unit_text)
    return root


def verify(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([need("systemd-analyze"), "verify", "--man=no", f"--root={root}",
                           "/etc/systemd/system/dicetable.service"], capture_output=True, text=True)


def test_systemd_analyze_verify_is_clean(tmp_path):
    if not Path("/usr/lib/systemd/system").is_dir():
        pytest.skip("no systemd unit directory to verify against")
    result = verify(fake_root(tmp_path, UNIT.read_text()))
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr


def test_verify_does_catch_a_broken_unit(tmp_path):
    if not Path("/usr/lib/systemd/system").is_dir():
        pytest.skip("no systemd unit directory to verify against")
    broken = UNIT.read_text().replace("Type=notify", "Type=notifyy")
    result = verify(fake_root(tmp_path, broken))
    assert "notifyy" in result.stdout + result.stderr


def test_security_exposure_is_at_most_2_5():
    out = subprocess.run([need("systemd-analyze"), "security", "--offline=true", "--no-pager", str(UNIT)],
                         capture_output=True, text=True).stdout
    match = re.search(r"Overall exposure level for dicetable\.service: (\d+\.\d+)", out)
    assert match, out[-2000:]
    exposure = float(match.group(1))
    assert exposure <= 2.5
    assert re.search(rf"exposure[^\n]*\b{exposure}\b", HARDWARE.read_text()), "hardware.md states the figure"


# --- the installer ---------------------------------------------------------------------------------

def test_the_scripts_pass_shellcheck():
    result = subprocess.run([need("shellcheck"), str(SYSTEMD / "install.sh"), str(SYSTEMD / "uninstall.sh")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "$LOG"
case "$(basename "$0")" in
  id) [ "$1" = "-u" ] && [ -e "$STATE/user" ] && echo 999 && exit 0; [ "$1" = "-u" ] && exit 1 ;;
  useradd) touch "$STATE/user" ;;
  userdel) rm -f "$STATE/user" ;;
esac
exit 0
"""

PYTHON = """#!/bin/sh
echo "python $*" >> "$LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  mkdir -p "$4/bin"
  printf '#!/bin/sh\\necho "venv-python $*" >> "$LOG"\\n' > "$4/bin/python"
  printf '#!/bin/sh\\necho "dicetable $*" >> "$LOG"\\n' > "$4/bin/dicetable"
  chmod +x "$4/bin/python" "$4/bin/dicetable"
fi
if [ "$1" = "-s" ]; then echo 1.24.2; fi
"""


@pytest.fixture
def sandbox(tmp_path):
    """System commands replaced by loggers; files go under a fake root."""
    bin_dir, state = tmp_path / "bin", tmp_path / "state"
    bin_dir.mkdir(), state.mkdir()
    for name in ("apt-get", "apt-cache", "useradd", "usermod", "userdel", "getent", "id", "systemctl", "chown"):
        (bin_dir / name).write_text(STUB)
        (bin_dir / name).chmod(0o755)
    python = tmp_path / "python3"
    python.write_text(PYTHON)
    python.chmod(0o755)
    log = tmp_path / "log"
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "LOG": str(log), "STATE": str(state),
           "DICETABLE_PYTHON": str(python)}

    def run(script: str, *args: str) -> str:
        log.write_text("")
        result = subprocess.run(["bash", str(SYSTEMD / script), "--root", str(tmp_path / "root"), *args],
                                env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr + result.stdout
        return log.read_text()

    return run, tmp_path / "root"


def test_installing_twice_keeps_an_edited_config_and_the_user(sandbox):
    run, root = sandbox
    first = run("install.sh", "--no-start", "--force")
    assert "useradd --system" in first and "python -m venv --system-site-packages" in first
    assert "systemctl enable dicetable.service" in first
    assert re.search(r"venv-python -m pip install .*--constraint \S+constraints.txt .*\[pi\]", first)
    assert (root / "opt/dicetable/constraints.txt").read_text() == "numpy==1.24.2\n"
    assert (root / "etc/systemd/system/dicetable.service").read_text() == UNIT.read_text()
    conf = root / "etc/dicetable/config.toml"
    assert conf.read_text() == (SYSTEMD / "config.example.toml").read_text()
    assert "dicetable selftest --config" in first  # the installed config is checked

    conf.write_text('language = "lv"\ndrink_word = "malks"\n')
    second = run("install.sh", "--no-start", "--force")
    assert conf.read_text() == 'language = "lv"\ndrink_word = "malks"\n'
    assert "useradd" not in second and "-m venv" not in second
    assert "venv-python -m pip install" in second  # the program itself is upgraded
    assert (root / "etc/dicetable/config.example.toml").exists()
    assert stat.S_IMODE((root / "var/lib/dicetable").stat().st_mode) == 0o750


def test_dry_run_changes_nothing(sandbox):
    run, root = sandbox
    log = run("install.sh", "--dry-run", "--force")
    assert not root.exists() or not any(root.rglob("*"))
    changing = {"apt-get", "useradd", "usermod", "userdel", "systemctl", "chown", "python", "venv-python"}
    reads = ("python -s -c", "id -u", "getent group", "systemctl is-enabled")  # looking is fine
    assert not [line for line in log.splitlines() if line.split()[0] in changing and not line.startswith(reads)]


def test_uninstall_keeps_config_and_games_unless_purged_and_runs_twice(sandbox):
    run, root = sandbox
    run("install.sh", "--no-start", "--force")
    (root / "var/lib/dicetable/dicetable.sqlite3").write_bytes(b"games")
    log = run("uninstall.sh")
    assert "systemctl disable --now dicetable.service" in log and "systemctl enable --now getty@tty1.service" in log
    assert not (root / "etc/systemd/system/dicetable.service").exists()
    assert not (root / "opt/dicetable").exists()
    assert (root / "etc/dicetable/config.toml").exists()
    assert (root / "var/lib/dicetable/dicetable.sqlite3").read_bytes() == b"games"
    run("uninstall.sh")  # again: nothing left to stop, still fine
    log = run("uninstall.sh", "--purge")
    assert "userdel dicetable" in log
    assert not (root / "etc/dicetable").exists() and not (root / "var/lib/dicetable").exists()


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh"])
def test_help_prints_the_scripts_description_and_no_line_of_its_code(script):
    result = subprocess.run(["bash", str(SYSTEMD / script), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Install" if script == "install.sh" else "Remove") and "--dry-run" in result.stdout
    assert not any(word in result.stdout for word in ("set -euo", "pipefail", "ROOT=\"\""))
