"""Training the face reader: cross-entropy on freshly jittered crops each epoch (with teachers, also
their softened answers: ``distillation_loss``), a temperature fitted afterwards on crops it never
trained on (Guo et al. 2017, "On calibration of modern neural networks"), then export to ONNX."""

from __future__ import annotations

import math
import time

import numpy as np
import torch
from torch.utils.data import DataLoader

from vision.faces import CLASSES, CROP, standardise
from vision.train.draws import WeightedDraws
from vision.train.face_data import Spec, jittered_view, pip_target
from vision.train.finder_fit import focal
from vision.train.nets import FaceExport, FaceNet
from vision.train.samples import Labelled
from vision.train.styles import MixStyle


class Crops(WeightedDraws):
    """``per_epoch`` crops drawn from ``specs`` with probabilities ``weights``; item ``i`` of an
    epoch is the same for the same seed, whatever worker makes it. ``small``: the share of crops
    also seen as from a small die (``vision.train.face_data.small_die``)."""

    def __init__(self, items: list[Labelled], specs: list[Spec], weights, per_epoch: int, seed: int,
                 small: float = 0.0):
        super().__init__(len(specs), per_epoch, seed, weights)
        self.items, self.specs, self.small = items, specs, small

    def __getitem__(self, i: int):
        rng, pick = self.draw(i)
        k, cx, cy, s, c, j = self.specs[pick]
        img, to_crop = jittered_view(self.items[k].image, cx, cy, s, rng, j, small=self.small)
        heat, known = pip_target(self.items[k], to_crop)
        return standardise(img[None])[0], c, heat, known


DISTIL_SHARE = 0.7  # of the loss: matching the teachers (the rest: the labels)
DISTIL_TEMPERATURE = 2.0  # both sides' logits are divided by it before they are compared


def distillation_loss(out: torch.Tensor, y: torch.Tensor, teacher: torch.Tensor) -> torch.Tensor:
    """Knowledge distillation (Hinton et al. 2015): the labels' cross-entropy and the KL divergence
    from the teachers' softened probabilities, ``DISTIL_SHARE`` of it, scaled by T^2 so its
    gradients keep their size. out, teacher: (N, CLASSES) logits; y: (N,) int64 classes."""
    t = DISTIL_TEMPERATURE
    soft = torch.nn.functional.kl_div(torch.log_softmax(out / t, 1), torch.log_softmax(teacher / t, 1),
                                      reduction="batchmean", log_target=True) * t * t
    return (1 - DISTIL_SHARE) * torch.nn.functional.cross_entropy(out, y) + DISTIL_SHARE * soft


def mixed(x: torch.Tensor, y: torch.Tensor, alpha: float, rng: np.random.Generator):
    """Mixup (Zhang et al. 2018): the batch blended with itself in another order, one weight ``lam``
    ~ Beta(alpha, alpha) for all. x: (N, 3, S, S) float32 crops, y: (N,) int64 classes. Returns
    (blended x, the classes of the crops blended in, lam); the loss is lam of ``y``'s and 1 - lam of
    the others' (``mixed_loss``). A blend of two faces is no face surely: taught so, the reader's
    answers on a die unlike its training dice are meant to be less sure (Thulasidasan et al. 2019)."""
    lam = float(rng.beta(alpha, alpha))
    order = torch.from_numpy(rng.permutation(len(y)))
    return lam * x + (1 - lam) * x[order], y[order], lam


def mixed_loss(loss_fn, out: torch.Tensor, ya: torch.Tensor, yb: torch.Tensor, lam: float) -> torch.Tensor:
    """``loss_fn`` of a blended batch (``mixed``): lam of it against ``ya``, the rest against ``yb``."""
    return lam * loss_fn(out, ya) + (1 - lam) * loss_fn(out, yb)


# The face reader's first convolutions, where MixStyle mixes styles (``vision.train.styles``).
MIXSTYLE_LAYERS = (0, 1, 2)

RANDCONV_SIZES = (1, 3, 5)  # px: kernels no wider than a small die's pip gap, so pips stay apart


def random_filter(rng: np.random.Generator) -> tuple[torch.Tensor, float]:
    """A random (3, 3, k, k) float32 convolution, k one of ``RANDCONV_SIZES``, weights ~ N(0, 1 / (3
    k^2)) (Xu et al. 2021, "Robustness via random convolutions"), and its blend weight ~ U(0, 1)."""
    k = int(rng.choice(RANDCONV_SIZES))
    w = rng.normal(0.0, 1.0 / math.sqrt(3 * k * k), (3, 3, k, k)).astype(np.float32)
    return torch.from_numpy(w), float(rng.random())


def rand_conv(x: torch.Tensor, kernel: torch.Tensor, alpha: float) -> torch.Tensor:
    """RandConv: (N, 3, S, S) standardised crops blended with themselves through a random
    convolution ``kernel`` ((3, 3, k, k), k odd), ``alpha`` of the crop kept; then, as the product
    standardises (``vision.faces.standardise``), each channel's mean taken off, and the crop scaled
    back to its own spread (a plain crop, divided by the product's least spread, stays faint). A
    random filter keeps shapes (the pips) and changes colours, contrast and local texture at
    random: the looks of cameras and dice the sources do not have."""
    k = kernel.shape[-1]
    filtered = torch.nn.functional.conv2d(torch.nn.functional.pad(x, [k // 2] * 4, mode="reflect"), kernel)
    out = alpha * x + (1 - alpha) * filtered
    out = out - out.mean((2, 3), keepdim=True)
    spread = x.square().mean((1, 2, 3), keepdim=True).sqrt()
    return out * spread / out.square().mean((1, 2, 3), keepdim=True).sqrt().clamp_min(1e-6)


def pip_loss(pips: torch.Tensor, heat: torch.Tensor, known: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss (``vision.train.finder_fit.focal``) of (N, 16, 16) pip map logits
    against their targets ``heat``, over the crops whose pips are ``known`` (N,) 0/1."""
    return focal(pips, heat * known[:, None, None], known[:, None, None].expand_as(heat))


def train(items: list[Labelled], specs: list[Spec], weights, *, epochs: int, per_epoch: int, seed: int,
          batch: int = 128, lr: float = 3e-3, widths: tuple[int, ...] | None = None, teachers=(),
          label_smoothing: float = 0.0, mixup: float = 0.0, pips: float = 0.0, ema: float = 0.0,
          small: float = 0.0, mixstyle: float = 0.0, randconv: float = 0.0, centre: bool = False,
          log=print) -> FaceNet:
    """A face reader (``FaceNet`` of ``widths``, default its own) trained on crops of ``specs``
    (fixed seed). ``teachers``: trained face readers (``vision.runtime.Network`` of a face.onnx)
    whose mean logits it also learns from (``distillation_loss``): a small reader taught by larger
    ones. ``label_smoothing``: the share of each label spread over all classes (Szegedy et al.
    2016), against answers surer than the crops allow. ``mixup``: alpha of ``mixed``'s blending (0:
    none; not with teachers). ``pips``: the weight of the pip map's loss (``pip_loss``) beside the
    class's, on the crops whose pips are known (rendered scenes; 0: none; not with mixup). ``ema``:
    the decay per step of an exponential moving average of the weights and batch-norm statistics
    (Polyak averaging, as in Tan and Le 2019's EfficientNet; 0: none), returned instead of the last
    step's weights: an average over the last ~1 / (1 - ema) steps sits in a flatter part of the
    loss than any one step, which is meant to carry better to dice it never saw. ``small``: the share
    of crops also seen as from a die of 10-24 px (``vision.train.face_data.small_die``; 0: none).
    ``mixstyle``: the share of batches whose early feature styles are mixed between crops
    (``MixStyle``; 0: none). ``randconv``: the share of batches seen through a random filter
    (``rand_conv``; 0: none; not with teachers, which never saw them). ``centre``: the net also sees
    each crop standardised by its centre (``vision.train.nets.centre_view``). Returns it in eval mode.
    Raises ValueError for mixup or randconv with teachers, mixup with pips, an ema outside [0, 1)
    or a mixstyle or randconv share outside [0, 1]."""
    if mixup and teachers:
        raise ValueError("mixup and teachers do not go together: the teachers never saw blended crops")
    if mixup and pips:
        raise ValueError("mixup and the pip map do not go together: a blend of two crops has no pips of its own")
    if not 0 <= ema < 1:
        raise ValueError(f"ema is a decay per step in [0, 1), not {ema}")
    for name, share in (("mixstyle", mixstyle), ("randconv", randconv)):
        if not 0 <= share <= 1:
            raise ValueError(f"{name} is a share of batches in [0, 1], not {share}")
    if randconv and teachers:
        raise ValueError("randconv and teachers do not go together: the teachers never saw filtered crops")
    torch.manual_seed(seed)
    mix_rng = np.random.default_rng([seed, 11])
    filter_rng = np.random.default_rng([seed, 13])
    net = FaceNet(widths, centre=centre) if widths else FaceNet(centre=centre)
    data = Crops(items, specs, weights, per_epoch, seed, small)
    loader = DataLoader(data, batch_size=batch, shuffle=False, num_workers=1)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * math.ceil(per_epoch / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=label_smoothing)
    averaged = (torch.optim.swa_utils.AveragedModel(net, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(ema),
                                                    use_buffers=True) if ema else None)
    # Hooked after the average's copy is made, so the returned network carries no hooks.
    styles = MixStyle([net.features[i] for i in MIXSTYLE_LAYERS], mixstyle, np.random.default_rng([seed, 12]))
    for epoch in range(epochs):
        data.epoch = epoch
        net.train()
        t0, total, pip_total, right, n = time.time(), 0.0, 0.0, 0, 0
        for x, y, heat, known in loader:
            styles.next_batch()
            if randconv and filter_rng.random() < randconv:
                x = rand_conv(x, *random_filter(filter_rng))
            if mixup:
                x, other, lam = mixed(x, y, mixup, mix_rng)
            out, pip_map = net.with_pips(x)
            if mixup:
                loss = mixed_loss(loss_fn, out, y, other, lam)
                y = y if lam >= 0.5 else other  # the accuracy below: against the larger share
            elif teachers:
                taught = np.mean([t.run(x.numpy(), ["logits"])[0] for t in teachers], axis=0)
                loss = distillation_loss(out, y, torch.from_numpy(taught))
            else:
                loss = loss_fn(out, y)
            if pips:
                pip_part = pip_loss(pip_map, heat, known)
                loss = loss + pips * pip_part
                pip_total += float(pip_part.detach()) * len(y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            if averaged is not None:
                averaged.update_parameters(net)
            total += float(loss.detach()) * len(y)
            right += int((out.argmax(1) == y).sum())
            n += len(y)
        pip_note = f", pip map {pip_total / n:.4f}" if pips else ""
        log(f"face epoch {epoch + 1}/{epochs}: loss {total / n:.4f}{pip_note}, accuracy {right / n:.2%}, "
            f"{time.time() - t0:.0f} s")
    styles.remove()
    return (averaged.module if averaged is not None else net).eval()


def logits(net: FaceNet, crops: np.ndarray, batch: int = 512) -> np.ndarray:
    """(N, CLASSES) float32 logits of (N, CROP, CROP, 3) uint8 crops (at the net's current temperature)."""
    out = []
    with torch.no_grad():
        for i in range(0, len(crops), batch):
            out.append(net(torch.from_numpy(standardise(crops[i:i + batch]))).numpy())
    return np.concatenate(out) if out else np.zeros((0, CLASSES), np.float32)


def fit_temperature(net: FaceNet, crops: np.ndarray, classes: np.ndarray) -> float:
    """Sets and returns the temperature that minimises the negative log-likelihood of ``classes``
    on ``crops`` (a grid search over 0.5-5, enough for one scalar)."""
    net.temperature.fill_(1.0)
    z = torch.from_numpy(logits(net, crops)).double()
    y = torch.from_numpy(classes)
    grid = np.exp(np.linspace(math.log(0.5), math.log(5.0), 200))
    nll = [float(torch.nn.functional.cross_entropy(z / t, y)) for t in grid]
    best = float(grid[int(np.argmin(nll))])
    net.temperature.fill_(best)
    return best


def export(net: FaceNet, path) -> None:
    """The face reader as ONNX with a free batch size (``cv2.dnn`` reads it): outputs ``logits``
    (N, CLASSES) and ``embedding`` (N, E)."""
    x = torch.zeros(1, 3, CROP, CROP)
    torch.onnx.export(FaceExport(net.eval()).eval(), (x,), str(path), dynamo=False, input_names=["crops"],
                      output_names=["logits", "embedding"],
                      dynamic_axes={"crops": {0: "dice"}, "logits": {0: "dice"}, "embedding": {0: "dice"}},
                      opset_version=13)


def fit_gate(scores, faces, is_die, steps: int = 60):
    """The ``vision.gate.Gate`` that best predicts ``is_die`` (bools) of candidates from their
    finder ``scores`` and face probabilities ``faces`` (logistic regression by Newton's method,
    a little ridge so that separable data stays finite). Without both kinds of candidate: the
    default gate."""
    from vision.gate import Gate, logit

    y = np.asarray(is_die, float)
    if not (0 < y.sum() < len(y)):
        return Gate()
    x = np.array([[logit(s), logit(f), 1.0] for s, f in zip(scores, faces)])
    w = np.zeros(3)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(3)
        w -= np.linalg.solve(hessian, x.T @ (p - y) + 1e-3 * w)
    return Gate(float(w[0]), float(w[1]), float(w[2]))
