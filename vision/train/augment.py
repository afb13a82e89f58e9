"""Photometric augmentation: the cameras, light and dice colours the training photos do not have.

Every change keeps what makes a face readable (its pips against its body), so the label stays:
hue turns and channel swaps give dice and trays of other colours, inversion gives light pips on dark
dice, grey gives grey cameras, and gamma, contrast, blur, motion blur (a die still rolling, a hand
shaking the camera: its pips smear into bars), noise, salt-and-pepper and JPEG give other sensors,
exposures and codecs.
"""

from __future__ import annotations

import cv2
import numpy as np


def colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Hue, channel order, saturation, inversion and grey, each at random. (H, W, 3) uint8 BGR."""
    if rng.random() < 0.5:
        img = img[:, :, rng.permutation(3)]
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int16) + int(rng.integers(180))) % 180).astype(np.uint8)
        sat = rng.uniform(0.4, 1.4)
        hsv[:, :, 1] = np.clip(hsv[:, :, 1] * sat, 0, 255).astype(np.uint8)
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.07:
        img = 255 - img
    if rng.random() < 0.15:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(img)


def exposure(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brightness, contrast and gamma through one lookup table. uint8 in and out, any shape."""
    gamma = float(np.exp(rng.uniform(-0.5, 0.5)))
    gain = rng.uniform(0.6, 1.3)
    bias = rng.uniform(-30, 30)
    x = np.arange(256, dtype=np.float32) / 255.0
    lut = np.clip((x ** gamma) * 255.0 * gain + bias, 0, 255).astype(np.uint8)
    return cv2.LUT(img, lut)


def sensor(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Blur, Gaussian noise, salt-and-pepper specks and JPEG, each at random; ``strength`` (0-1)
    scales how often. uint8 in and out."""
    if rng.random() < 0.4 * strength:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.6))
    if rng.random() < 0.12 * strength:
        img = motion_blur(img, int(rng.integers(3, 10)), float(rng.uniform(0, 180)))
    if rng.random() < 0.4 * strength:
        noise = rng.normal(0, rng.uniform(2, 12), img.shape).astype(np.float32)
        img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.1 * strength:
        specks = rng.random(img.shape[:2]) < rng.uniform(0.002, 0.02)
        img = img.copy()
        img[specks] = rng.choice([0, 255], size=(int(specks.sum()), 1) if img.ndim == 3 else int(specks.sum()))
    if rng.random() < 0.5 * strength:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 95))])
        if ok:
            img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return img


def motion_blur(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    """The image smeared along a line of ``length`` px at ``angle`` degrees. uint8 in and out."""
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1.0
    m = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    k = cv2.warpAffine(k, m, (length, length))
    return cv2.filter2D(img, -1, k / max(float(k.sum()), 1e-6))


def photometric(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """``colour``, ``exposure`` and ``sensor`` in turn. (H, W, 3) uint8 BGR in and out."""
    return sensor(exposure(colour(img, rng), rng), rng, strength)
