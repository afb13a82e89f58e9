"""The two networks in PyTorch, for training only (the product runs their ONNX export with cv2.dnn).

Both are small plain stacks of 3x3 convolutions with batch norm and ReLU, which OpenCV's dnn module
fuses and runs fast on one core; the finder's are depthwise-separable after its first layer.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def conv(cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> nn.Sequential:
    """Convolution, batch norm, ReLU; 'same' padding."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def separable(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    """A depthwise 3x3 convolution then a pointwise one (MobileNet's block)."""
    return nn.Sequential(conv(cin, cin, 3, stride, groups=cin), conv(cin, cout, 1))


class Finder(nn.Module):
    """The die finder: (N, 3, H, W) float32 (H, W multiples of 32) to (N, 4, H/4, W/4): centre logit,
    log size (input px), centre offset x, y in cells (``vision.finder``).

    An encoder down to 1/32 (for the context of dice up to a third of the frame) and a light
    decoder back to 1/4 with skips, as in CenterNet and U-Net.
    """

    def __init__(self, widths: tuple[int, ...] = (16, 32, 64, 96, 160)):
        super().__init__()
        c1, c2, c3, c4, c5 = widths
        self.stem = conv(3, c1, 3, 2)
        self.down2 = nn.Sequential(separable(c1, c2, 2), separable(c2, c2))
        self.down3 = nn.Sequential(separable(c2, c3, 2), separable(c3, c3))
        self.down4 = nn.Sequential(separable(c3, c4, 2), separable(c4, c4))
        self.down5 = nn.Sequential(separable(c4, c5, 2), separable(c5, c5))
        self.up4 = conv(c5 + c4, c4, 1)
        self.up3 = conv(c4 + c3, c3, 1)
        self.up2 = conv(c3 + c2, c2, 1)
        self.head = nn.Sequential(separable(c2, c2), separable(c2, c2), nn.Conv2d(c2, 4, 1))
        # The centre map starts near a prior of 0.01, as CenterNet does, so early training is stable.
        nn.init.constant_(self.head[-1].bias, 0.0)
        with torch.no_grad():
            self.head[-1].bias[0] = -4.6
            self.head[-1].bias[1] = 3.3  # log of a 27 px die

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = self.down2(self.stem(x))
        x3 = self.down3(x2)
        x4 = self.down4(x3)
        x5 = self.down5(x4)
        y = self.up4(torch.cat([F.interpolate(x5, scale_factor=2.0, mode="nearest"), x4], 1))
        y = self.up3(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x3], 1))
        y = self.up2(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x2], 1))
        return self.head(y)


def centre_view(x: torch.Tensor, inner: float = 0.5, floor: float = 0.25, clip: float = 4.0) -> torch.Tensor:
    """(N, 3, S, S) standardised crops and, beside them, the same crops standardised by their centre
    (the inner ``inner`` of the side, inside the top face): (N, 6, S, S) float32.

    Why: a crop is standardised by its whole spread, which a white tray around a dark die fills,
    so red pips on a black or marbled die come out faint; the face's own spread brings them up.
    ``floor`` (of the whole crop's spread) keeps a blank face from being blown up into pips and
    ``clip`` the tray around a dark die from swamping the rest. Plain ONNX ops (Slice, ReduceMean,
    Sqrt, Clip, Concat), so it ships inside the exported model and the reader's input is unchanged.
    """
    s = int(x.shape[-1])  # a constant in the exported graph: the crop side is fixed
    a = int(round(s * (1 - inner) / 2))
    centre = x[:, :, a:s - a, a:s - a]
    mean = centre.mean((2, 3), keepdim=True)
    spread = (centre - mean).pow(2).mean((1, 2, 3), keepdim=True).sqrt().clamp(min=floor)
    return torch.cat([x, ((x - mean) / spread).clamp(-clip, clip)], 1)


class FaceNet(nn.Module):
    """The face reader: (N, 3, S, S) standardised BGR crops to (N, 8) logits (``vision.faces``:
    not a die's top face, 1-6, cocked).

    Seven 3x3 convolutions, three of them halving, global average pooling and a linear layer; the
    logits are divided by ``temperature`` (fitted after training, so the exported probabilities
    are calibrated). Its widths are the most that stay under the 2 MB budget of a shipped model
    (the narrower 24-32-64-96 underfit: 88% on its own training crops).
    """

    def __init__(self, widths: tuple[int, ...] = (32, 48, 96, 128), classes: int = 8, centre: bool = False):
        super().__init__()
        c1, c2, c3, c4 = widths
        self.centre = centre  # also sees the crop standardised by its centre (``centre_view``)
        self.features = nn.Sequential(conv(6 if centre else 3, c1), conv(c1, c2, 3, 2), conv(c2, c2), conv(c2, c3, 3, 2), conv(c3, c3),
                                      conv(c3, c4, 3, 2), conv(c4, c4))
        self.fc = nn.Linear(c4, classes)
        # Training only (never exported): each cell of the last 4x4 map also says where in its 8x8 px
        # the top face's pips lie, a 16x16 map in all, so the features the class is read from must
        # hold the pips themselves (``pip_logits``).
        self.pips = nn.Conv2d(c4, 16, 1)
        self.register_buffer("temperature", torch.ones(()))

    def embed(self, x: torch.Tensor) -> torch.Tensor:
        """(N, widths[-1]) pooled features: what the linear layer reads (a table's own dice are
        learned on these, ``vision.faces``)."""
        return self.features(self._view(x)).mean((2, 3))

    def _view(self, x: torch.Tensor) -> torch.Tensor:
        return centre_view(x) if self.centre else x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.embed(x)) / self.temperature

    def with_pips(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(N, classes) logits and the (N, 16, 16) pip map logits of a 32 px crop
        (``vision.train.face_data.pip_target``): the top face's pip centres."""
        f = self.features(self._view(x))
        return self.fc(f.mean((2, 3))) / self.temperature, F.pixel_shuffle(self.pips(f), 4)[:, 0]


class FaceExport(nn.Module):
    """The face reader as shipped: (logits, embedding) for a batch of crops."""

    def __init__(self, net: FaceNet):
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        e = self.net.embed(x)
        return self.net.fc(e) / self.net.temperature, e
