"""MixStyle (Zhou et al. 2021, "Domain generalization with MixStyle") for the finder and the face
reader: in training, each image's early feature maps take a style between its own and another's of
the batch. A camera's contrast, sharpness and texture are such statistics (per-channel means and
spreads over the map), so a network learns dice under styles between its sources' rather than each
source's own. Forward hooks only: nothing changes in the networks' weights or export, and eval mode
is untouched."""

from __future__ import annotations

import numpy as np
import torch

ALPHA = 0.1  # Beta(alpha, alpha) of the mixing weights: most mixes lean to one image's style


class MixStyle:
    """With probability ``p`` per batch, the outputs of ``modules`` (the network's first layers:
    style lives early, content later) are given mixed styles (``mix_style``), one partner and weight
    per image for all of them (the paper draws them at each layer; here an image keeps one style
    through the early layers). ``rng``: the draws. Call ``next_batch`` before each batch and
    ``remove`` after training."""

    def __init__(self, modules, p: float, rng: np.random.Generator):
        self.p, self.rng = p, rng
        self.handles = [m.register_forward_hook(self._hook) for m in modules] if p else []
        self.active, self.order, self.lam = False, None, None

    def next_batch(self) -> None:
        """Draw whether the coming batch is mixed."""
        self.active = bool(self.p) and bool(self.rng.random() < self.p)
        self.order = None

    def remove(self) -> None:
        """Take the hooks off: the trained network is returned without them."""
        for handle in self.handles:
            handle.remove()
        self.handles = []

    def _hook(self, module, inputs, out: torch.Tensor):
        if not (module.training and self.active) or len(out) < 2:
            return None
        if self.order is None:  # one partner and weight per image, the same at every layer
            self.order = torch.from_numpy(self.rng.permutation(len(out)))
            self.lam = torch.from_numpy(self.rng.beta(ALPHA, ALPHA, (len(out), 1, 1, 1)).astype(np.float32))
        return mix_style(out, self.order, self.lam)


def mix_style(x: torch.Tensor, order: torch.Tensor, lam: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """x: (N, C, H, W) float32 feature maps; each image's normalised maps given the style
    ``lam * own + (1 - lam) * order's``: per-channel mean and spread over H, W (detached, so no
    gradient runs through the statistics). order: (N,) int64 a permutation; lam: (N, 1, 1, 1)."""
    mu = x.mean((2, 3), keepdim=True).detach()
    sigma = (x.var((2, 3), keepdim=True) + eps).sqrt().detach()
    normed = (x - mu) / sigma
    return normed * (lam * sigma + (1 - lam) * sigma[order]) + lam * mu + (1 - lam) * mu[order]
