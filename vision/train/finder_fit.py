"""Training the die finder: CenterNet's losses on augmented views, then export to ONNX.

Losses (CenterNet, Zhou et al. 2019): the penalty-reduced focal loss on the centre map, L1 on the
log size and on the offset at each die's peak cell, where known.
"""

from __future__ import annotations

import math
import time

import numpy as np
import torch
from torch.utils.data import DataLoader

from vision.finder import to_blob
from vision.train.draws import WeightedDraws
from vision.train.finder_data import CANVAS, mosaic, targets, view
from vision.train.nets import Finder
from vision.train.samples import Labelled
from vision.train.styles import MixStyle


class Views(WeightedDraws):
    """Augmented views of the training images; item ``i`` of epoch ``epoch`` is the same for the
    same seed (its random generator is seeded by (seed, epoch, i)), whatever worker makes it.
    ``weights`` (one per image) set how often each image is drawn."""

    def __init__(self, items: list[Labelled], per_epoch: int, seed: int, weights=None, slant: float = 0.0,
                 mosaic: float = 0.0):
        super().__init__(len(items), per_epoch, seed, weights)
        self.items = items
        self.slant, self.mosaic = slant, mosaic

    def __getitem__(self, i: int):
        rng, pick = self.draw(i)
        # Drawn only for mosaic runs, so that a run without them draws exactly the views it always did.
        if self.mosaic > 0 and rng.random() < self.mosaic:
            picks = [pick] + [self.pick(rng) for _ in range(3)]
            img, dice, typical = mosaic([self.items[k] for k in picks], rng, slant=self.slant)
        else:
            img, dice, typical = view(self.items[pick], rng, slant=self.slant)
        return (to_blob(img)[0], *targets(dice, typical))


def focal(logit: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss (alpha 2, beta 4), each cell weighted, summed and divided by the
    number of centres."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - pos) * weight
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1.0)


def losses(out: torch.Tensor, heat, size, offset, size_mask, offset_mask, weight) -> tuple[torch.Tensor, ...]:
    """(total, centre, size, offset) losses of a batch of outputs (N, 4, h, w)."""
    lc = focal(out[:, 0], heat, weight)
    ls = (torch.abs(out[:, 1] - size) * size_mask).sum() / size_mask.sum().clamp(min=1.0)
    lo = (torch.abs(out[:, 2:4] - offset) * offset_mask[:, None]).sum() / offset_mask.sum().clamp(min=1.0)
    return lc + 1.0 * ls + 1.0 * lo, lc, ls, lo


def train(items: list[Labelled], *, epochs: int, per_epoch: int, seed: int, batch: int = 16,
          lr: float = 3e-3, weights=None, widths: tuple[int, ...] | None = None, slant: float = 0.0,
          mosaic: float = 0.0, mixstyle: float = 0.0, log=print) -> Finder:
    """A finder trained on augmented views of ``items`` (fixed seed: the same run twice gives the
    same weights on the same machine), its five ``widths`` (None: ``Finder``'s), ``slant`` of its
    views seen at a slant (``vision.train.finder_data.view``), ``mosaic`` of them four images in
    one (``vision.train.finder_data.mosaic``) and ``mixstyle`` of its batches with the early
    feature styles mixed between views (``vision.train.styles``). Returns the model in eval mode.
    Raises ValueError for a mixstyle share outside [0, 1]."""
    if not 0 <= mixstyle <= 1:
        raise ValueError(f"mixstyle is a share of batches, 0-1, not {mixstyle}")
    torch.manual_seed(seed)
    # Channels-last runs PyTorch's depthwise convolutions on the CPU about a fifth faster.
    net = (Finder(widths) if widths else Finder()).to(memory_format=torch.channels_last)
    # The encoder's first three stages (1/2 to 1/8): where a camera's style lives.
    styles = MixStyle([net.stem, net.down2, net.down3], mixstyle, np.random.default_rng([seed, 13]))
    data = Views(items, per_epoch, seed, weights, slant, mosaic)
    loader = DataLoader(data, batch_size=batch, shuffle=False, num_workers=1, persistent_workers=False)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(per_epoch / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    for epoch in range(epochs):
        data.epoch = epoch
        net.train()
        t0, sums, n = time.time(), np.zeros(4), 0
        for batch_ in loader:
            x, *t = batch_
            styles.next_batch()
            out = net(x.contiguous(memory_format=torch.channels_last))
            parts = losses(out, *t)
            opt.zero_grad()
            parts[0].backward()
            opt.step()
            sched.step()
            sums += [float(v.detach()) for v in parts]
            n += 1
        log(f"finder epoch {epoch + 1}/{epochs}: loss {sums[0] / n:.3f} (centre {sums[1] / n:.3f}, "
            f"size {sums[2] / n:.3f}, offset {sums[3] / n:.3f}), {time.time() - t0:.0f} s")
    styles.remove()
    return net.to(memory_format=torch.contiguous_format).eval()


def export(net: torch.nn.Module, path, canvas=CANVAS) -> None:
    """The finder as ONNX with free input height and width (``cv2.dnn`` reads it), its decoder
    rewritten to the same function at less cost (``vision.train.graph``)."""
    from vision.train.graph import rewrite

    x = torch.zeros(1, 3, canvas[1], canvas[0])
    torch.onnx.export(net.eval(), (x,), str(path), dynamo=False, input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {2: "height", 3: "width"}, "maps": {2: "rows", 3: "cols"}},
                      opset_version=13)
    rewrite(path)
