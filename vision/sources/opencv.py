"""A live camera by device number through OpenCV (a USB webcam), as ``LiveCamera`` drives it."""

from __future__ import annotations

import numpy as np

from vision.frames import CameraError, CameraMissing


def quiet_opencv() -> None:
    """Keep OpenCV's own ``[ WARN ] ... cap_v4l`` lines off stderr (the service's journal): each
    camera retry printed them again, and ``LiveCamera`` already logs the fault once in its own
    words. OpenCV's errors still print."""
    import cv2

    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    except AttributeError:  # an OpenCV build without the logging module: nothing to quiet
        pass


class OpenCVDevice:
    """A camera by device number through OpenCV (a USB webcam: /dev/video<N>).

    Asks for ``size`` (W, H) px and ``fps``, and a one-frame driver buffer so that frames are fresh.
    Raises CameraMissing when the device does not open or gives no first frame.
    """

    order = "bgr"

    def __init__(self, index: int, size: tuple[int, int] = (640, 480), fps: float = 30.0):
        import cv2

        quiet_opencv()
        self.index = index
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraMissing(f"no camera at device {index} (/dev/video{index})")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._cap.set(cv2.CAP_PROP_FPS, fps)
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def read(self) -> tuple[np.ndarray, float | None]:
        """The next frame as OpenCV gives it (B, G, R); no capture time. Raises CameraError."""
        ok, img = self._cap.read()
        if not ok or img is None:
            raise CameraError(f"camera {self.index} gave no frame (unplugged?)")
        return img, None

    def close(self) -> None:
        """Releases the device."""
        self._cap.release()
