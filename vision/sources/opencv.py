"""A live camera by device number through OpenCV (a USB webcam), as ``LiveCamera`` drives it."""

from __future__ import annotations

import numpy as np

from vision.frames import CameraError, CameraMissing, ExposureUnsupported

# V4L2's exposure modes as OpenCV's V4L2 backend passes them through (V4L2_CID_EXPOSURE_AUTO).
V4L2_MANUAL, V4L2_AUTO = 1, 3


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

    Exposure and white balance are locked as far as the camera's driver lets OpenCV (V4L2 controls):
    ``auto_exposure``, then ``lock_exposure`` (manual mode keeps the value auto reached, where the
    driver reports it), ``use_exposure`` at the next start. A driver that refuses both says so
    (``ExposureUnsupported``).
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

    def auto_exposure(self) -> None:
        """Auto exposure and white balance on. Raises ExposureUnsupported when the driver takes neither."""
        import cv2

        ok = [self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_AUTO), self._cap.set(cv2.CAP_PROP_AUTO_WB, 1)]
        if not any(ok):
            raise ExposureUnsupported(f"camera {self.index}: its driver does not let OpenCV switch exposure or "
                                      "white balance")

    def lock_exposure(self) -> dict:
        """Manual exposure and white balance at the values auto reached: returns what was locked,
        ``{"exposure": driver units, "wb_temperature": K}`` (each only where the driver took it).
        Raises ExposureUnsupported when it took neither."""
        import cv2

        cap = self._cap
        exposure, temperature = cap.get(cv2.CAP_PROP_EXPOSURE), cap.get(cv2.CAP_PROP_WB_TEMPERATURE)
        locked = {}
        if cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL) and exposure > 0:
            cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
            locked["exposure"] = float(exposure)
        if cap.set(cv2.CAP_PROP_AUTO_WB, 0) and temperature > 0:
            cap.set(cv2.CAP_PROP_WB_TEMPERATURE, temperature)
            locked["wb_temperature"] = float(temperature)
        if not locked:
            raise ExposureUnsupported(f"camera {self.index}: its driver does not let OpenCV fix exposure or "
                                      "white balance")
        return locked

    def use_exposure(self, values: dict) -> None:
        """Manual exposure and white balance at ``values`` (as ``lock_exposure`` returned them)."""
        import cv2

        if "exposure" in values:
            self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL)
            self._cap.set(cv2.CAP_PROP_EXPOSURE, float(values["exposure"]))
        if "wb_temperature" in values:
            self._cap.set(cv2.CAP_PROP_AUTO_WB, 0)
            self._cap.set(cv2.CAP_PROP_WB_TEMPERATURE, float(values["wb_temperature"]))

    def close(self) -> None:
        """Releases the device."""
        self._cap.release()
