"""Running the reader's two ONNX networks: with OpenCV's dnn module, or with onnxruntime if installed.

OpenCV's ``cv2.dnn`` is the product's runtime: the Pi needs nothing beyond OpenCV, and the README's
commands, the tests and CI use it. onnxruntime (the optional ``[fast]`` extra,
``pip install -e '.[fast]'``) is an optional speed-up, used when it is importable because it is
measured faster on the same frames: ``benchmarks/reader_speed.py`` times the reader with each
runtime in one run. Both give the same answers to float rounding (``tests/vision/test_runtime.py``).

``DICETABLE_RUNTIME=opencv`` in the environment keeps cv2.dnn even where onnxruntime is installed.
Either runtime runs on one thread: the kiosk, the camera and the voice share the Pi's cores.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

RUNTIMES = ("opencv", "onnxruntime")
ENVIRONMENT = "DICETABLE_RUNTIME"


def _onnxruntime():
    """The onnxruntime module, or None when it is not installed."""
    try:
        import onnxruntime
    except ImportError:
        return None
    return onnxruntime


def available() -> tuple[str, ...]:
    """The runtimes this machine can use, the product's own (``"opencv"``) first."""
    return RUNTIMES if _onnxruntime() is not None else RUNTIMES[:1]


def chosen() -> str:
    """The runtime the reader uses here: onnxruntime when installed, unless ``DICETABLE_RUNTIME``
    says ``opencv``."""
    if os.environ.get(ENVIRONMENT, "").strip().lower() == "opencv":
        return "opencv"
    return available()[-1]


class Network:
    """One ONNX network, loaded once.

    path: the .onnx file. runtime: ``"opencv"`` or ``"onnxruntime"`` (default: ``chosen()``).
    Raises OSError when the file cannot be read, ValueError when it holds no network the runtime
    can run or the runtime is not installed.
    """

    def __init__(self, path: str | Path, runtime: str | None = None):
        self.path = Path(path)
        self.runtime = runtime or chosen()
        # cv2.dnn keeps the input and the layers' buffers in the net: two threads running it at once
        # (the kiosk's camera reading while the UI thread keeps a taught throw) would run each
        # other's input or fail. onnxruntime's session is safe to share; one lock costs nothing here.
        self._lock = threading.Lock()
        if self.runtime not in available():
            raise ValueError(f"runtime {self.runtime!r} is not installed here (have: {', '.join(available())})")
        if not self.path.is_file():
            raise OSError(f"{self.path}: no such network file")
        try:
            if self.runtime == "opencv":
                cv2.setNumThreads(1)  # OpenCV's pool is process-wide: one thread, as onnxruntime's below
                self._net = cv2.dnn.readNetFromONNX(str(self.path))
                self.outputs = tuple(self._net.getUnconnectedOutLayersNames())
            else:
                ort = _onnxruntime()
                options = ort.SessionOptions()
                options.intra_op_num_threads = options.inter_op_num_threads = 1
                self._net = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
                self._input = self._net.get_inputs()[0].name
                self.outputs = tuple(o.name for o in self._net.get_outputs())
        except Exception as exc:  # noqa: BLE001 (cv2.error and onnxruntime's errors share no base)
            raise ValueError(f"{self.path}: not a network {self.runtime} can run ({exc})") from None

    def run(self, x: np.ndarray, outputs: Sequence[str] | None = None) -> list[np.ndarray]:
        """The network's outputs (float32 arrays, in the order of ``outputs``; default: all of
        ``self.outputs``) for the input ``x``: (N, C, H, W) float32. Safe to call from several
        threads (one run at a time)."""
        names = list(outputs or self.outputs)
        if self.runtime == "opencv":
            with self._lock:
                self._net.setInput(x)
                return list(self._net.forward(names))
        return self._net.run(names, {self._input: np.ascontiguousarray(x, np.float32)})
