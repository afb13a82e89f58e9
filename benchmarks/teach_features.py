"""Which of the face reader's features lets a table's heads part dice it never saw: per die, a
source's photos read after teaching a few of them, with the heads (``vision.adapt``) fitted on
the pooled embedding the reader ships with or on a richer feature of the same network.

    .venv/bin/python benchmarks/teach_features.py --models DIR [--source nell-byler] [--teach 10 30]
                                                  [--kinds pool7 quad7 map7 map6] [--l2 1 10 100]
                                                  [--photos N]

DIR holds models trained without the source (``python -m vision.train --finder
vision/models/finder.onnx --exclude-source nell-byler --out DIR``). Each feature is the output of a
copy of DIR's face.onnx whose ``embedding`` is another tensor (needs ``onnx``, the ``[train]`` extra):
``pool7`` the shipped 128-number pooled last layer; ``quad7`` the last layer's 4x4 map pooled to
2x2 (512); ``map7`` and ``map6`` the last two layers' whole 128x4x4 maps (2,048 each, where the pips
lie). ``--teach`` of the source's photos (table-like first, seeded, as ``benchmarks/teach.py``) are
taught from their label boxes; every other photo's labelled dice are read. Printed: the dice read
right, surely right and surely wrong (at the gate's sure value) of all dice, before and with heads of
each ridge penalty, and the held-aside check's figures (``vision.adapt``: throws right, crops right,
minus surely wrong) against the unadapted reader's. ``--photos N``: only the source's first N
photos (a quick run). Says so and exits 2 without ``onnx`` or without the photos.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pinning import one_core  # noqa: E402
from teach import taught_photos  # noqa: E402

from vision.adapt import _out_of_fold, _score, embed, fit_heads, folds, read_as  # noqa: E402
from vision.examples import from_boxes  # noqa: E402
from vision.faces import FaceReader, softmax  # noqa: E402
from vision.photos import DEFAULT_MANIFESTS, load_manifests  # noqa: E402
from vision.reader import Models  # noqa: E402

LAST = "/features/features.6/features.6.2/Relu_output_0"  # the last convolution's ReLU, (N, 128, 4, 4)
BEFORE = "/features/features.5/features.5.2/Relu_output_0"  # the one before it, (N, 128, 4, 4)


def with_feature(face_onnx: Path, kind: str, out: Path) -> Path:
    """A copy of ``face_onnx`` whose ``embedding`` output is the feature ``kind`` (module docstring)."""
    import onnx
    from onnx import helper

    model = onnx.load(str(face_onnx))
    graph = model.graph
    for node in graph.node:  # the shipped pooled embedding keeps feeding the linear layer, renamed
        node.input[:] = ["pooled" if x == "embedding" else x for x in node.input]
        node.output[:] = ["pooled" if x == "embedding" else x for x in node.output]
    nodes = {"pool7": [helper.make_node("Identity", ["pooled"], ["embedding"])],
             "quad7": [helper.make_node("AveragePool", [LAST], ["quad"], kernel_shape=[2, 2], strides=[2, 2]),
                       helper.make_node("Flatten", ["quad"], ["embedding"], axis=1)],
             "map7": [helper.make_node("Flatten", [LAST], ["embedding"], axis=1)],
             "map6": [helper.make_node("Flatten", [BEFORE], ["embedding"], axis=1)]}[kind]
    graph.node.extend(nodes)
    graph.output.remove(next(o for o in graph.output if o.name == "embedding"))
    graph.output.append(helper.make_tensor_value_info("embedding", onnx.TensorProto.FLOAT, ["n", "e"]))
    onnx.checker.check_model(model)
    onnx.save(model, str(out))
    return out


def per_die(pr: np.ndarray, labels: np.ndarray, sure_at: float) -> tuple[int, int, int, int]:
    """(right, surely right, surely wrong, dice) of the labelled dice (label 1-6) for (N, CLASSES)
    probabilities, as ``vision.adapt.read_as`` reads them: right when a readable face and the
    likeliest value is the label; surely so at ``sure_at``."""
    dice = labels > 0
    readable, value, sure = read_as(pr, sure_at)
    right = dice & readable & (value == labels)
    return int(right.sum()), int((right & sure).sum()), int((dice & readable & sure & (value != labels)).sum()), int(dice.sum())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True, metavar="DIR")
    parser.add_argument("--source", default="nell-byler")
    parser.add_argument("--teach", type=int, nargs="+", default=[10, 30])
    parser.add_argument("--kinds", nargs="+", default=["pool7", "quad7", "map7", "map6"],
                        choices=["pool7", "quad7", "map7", "map6"])
    parser.add_argument("--l2", type=float, nargs="+", default=[1.0, 10.0, 100.0])
    parser.add_argument("--photos", type=int, default=None, metavar="N")
    args = parser.parse_args(argv)
    try:
        import onnx  # noqa: F401 (the features are outputs of edited copies of the face reader)
    except ImportError:
        print("needs onnx (pip install -e '.[train]')")
        return 2
    one_core()
    models = Models.load(args.models)
    photos = [p for p in load_manifests(DEFAULT_MANIFESTS) if p.source == args.source and not p.excluded]
    photos = photos[:args.photos]
    if not photos:
        print(f"no photos of {args.source} (is ../shared beside the project?)")
        return 2
    labelled = {p.path: from_boxes(cv2.imread(str(p.path), cv2.IMREAD_COLOR), p, models)[:2] for p in photos}
    sure_at = models.gate.sure_at
    with tempfile.TemporaryDirectory() as tmp:
        readers = {k: FaceReader(with_feature(args.models / "face.onnx", k, Path(tmp) / f"{k}.onnx"))
                   for k in args.kinds}
        for n in args.teach:
            chosen = taught_photos(photos, n, 0)
            names = {p.path for p in chosen}
            t_crops = np.concatenate([labelled[p.path][0] for p in chosen])
            t_labels = np.concatenate([labelled[p.path][1] for p in chosen])
            t_throws = np.concatenate([np.full(len(labelled[p.path][1]), i) for i, p in enumerate(chosen)])
            rest = [labelled[p.path] for p in photos if p.path not in names]
            r_crops, r_labels = np.concatenate([r[0] for r in rest]), np.concatenate([r[1] for r in rest])
            print(f"{args.source}: taught {n} photos ({(t_labels > 0).sum()} dice, {(t_labels == 0).sum()} not a die), "
                  f"read the other {len(rest)}'s dice: right / surely right / surely wrong / dice")
            for kind, reader in readers.items():
                t_logits, t_emb = embed(reader, t_crops)
                r_logits, r_emb = embed(reader, r_crops)
                if kind == args.kinds[0]:
                    print(f"  untaught              {per_die(softmax(r_logits), r_labels, sure_at)}  held-aside "
                          f"{_score(softmax(t_logits), t_labels, t_throws, sure_at)}")
                for l2 in args.l2:
                    heads = fit_heads(t_logits, t_emb, t_labels, l2=l2)
                    held = _score(_out_of_fold(t_logits, t_emb, t_labels, folds(t_throws), l2), t_labels, t_throws, sure_at)
                    print(f"  {kind:6s} ({t_emb.shape[1]:4d}) l2 {l2:4g}  "
                          f"{per_die(heads.adapt(r_logits, r_emb), r_labels, sure_at)}  held-aside {held}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
