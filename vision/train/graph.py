"""Exact rewrites of an exported network's graph that make it cheaper to run, answers unchanged.

**The finder's decoder** (``vision.train.nets.Finder``): each of its three up steps is a 1x1
convolution over the concatenation of a coarse map upsampled 2x (nearest) and the skip connection
beside it. A 1x1 convolution is linear per pixel, and nearest upsampling only repeats pixels, so the
coarse half's share can be computed at the coarse resolution and upsampled afterwards:

    conv1x1(concat(up(a), b)) = up(conv1x1_a(a)) + conv1x1_b(b)

the same sums in another order (float rounding: about 1e-6), with a quarter of the coarse half's
multiply-adds and an upsampling of fewer channels. About a fifth of the finder's work, and 15% of
its time in OpenCV's dnn module (``benchmarks/reader_speed.py``). Applied to every exported finder
(``vision.train.finder_fit.export``); the shipped one was rewritten with

    python -m vision.train.graph vision/models/finder.onnx

(a file already rewritten is left as it is). Needs the onnx package (the ``[train]`` extra).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def _channels(node, producers, weights) -> int | None:
    """The channels of ``node``'s output, read from the convolution that made it (through ReLUs);
    None when another kind of node made it."""
    while node is not None and node.op_type == "Relu":
        node = producers.get(node.input[0])
    if node is None or node.op_type != "Conv" or node.input[1] not in weights:
        return None
    return int(weights[node.input[1]].shape[0])


def commute_upsampling(model: onnx.ModelProto) -> int:
    """Rewrite, in place, every 1x1 ``Conv`` over ``Concat(Resize(a), b)`` (a nearest upsampling of
    ``a`` first) as ``Add(Resize(Conv(a, W_a)), Conv(b, W_b, bias))``. Returns how many were
    rewritten (0 for a graph without them, or already rewritten)."""
    g = model.graph
    weights = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    producers = {out: n for n in g.node for out in n.output}
    consumers: dict[str, int] = {}
    for n in g.node:
        for name in n.input:
            consumers[name] = consumers.get(name, 0) + 1
    rewrites: dict[str, list] = {}
    for conv in g.node:
        concat = producers.get(conv.input[0]) if conv.op_type == "Conv" else None
        if concat is None or concat.op_type != "Concat" or len(concat.input) != 2:
            continue
        up = producers.get(concat.input[0])
        modes = {a.name: helper.get_attribute_value(a) for a in up.attribute} if up is not None else {}
        w = weights.get(conv.input[1])
        c = _channels(producers.get(up.input[0]), producers, weights) if up is not None else None
        if up is None or up.op_type != "Resize" or modes.get("mode", b"nearest") != b"nearest" or w is None \
                or w.shape[2:] != (1, 1) or c is None or consumers.get(concat.output[0]) != 1 \
                or consumers.get(up.output[0]) != 1:
            continue
        name = conv.name or conv.output[0]
        low_w = numpy_helper.from_array(np.ascontiguousarray(w[:, :c]), f"{name}/coarse_weight")
        skip_w = numpy_helper.from_array(np.ascontiguousarray(w[:, c:]), f"{name}/skip_weight")
        g.initializer.extend([low_w, skip_w])
        coarse = helper.make_node("Conv", [up.input[0], low_w.name], [f"{name}/coarse"], name=f"{name}/coarse",
                                  kernel_shape=[1, 1])
        upsampled = helper.make_node("Resize", [f"{name}/coarse", *up.input[1:]], [f"{name}/coarse_up"],
                                     name=f"{name}/coarse_up")
        upsampled.attribute.extend(up.attribute)
        skip = helper.make_node("Conv", [concat.input[1], skip_w.name, *conv.input[2:]], [f"{name}/skip"],
                                name=f"{name}/skip", kernel_shape=[1, 1])
        total = helper.make_node("Add", [f"{name}/coarse_up", f"{name}/skip"], list(conv.output), name=f"{name}/sum")
        rewrites[id(conv)] = [coarse, upsampled, skip, total]
        rewrites[id(concat)] = rewrites[id(up)] = []
    if not rewrites:
        return 0
    nodes = [m for n in g.node for m in rewrites.get(id(n), [n])]
    del g.node[:]
    g.node.extend(nodes)
    used = {name for n in g.node for name in n.input}
    kept = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(kept)
    onnx.checker.check_model(model)
    return sum(1 for r in rewrites.values() if r)


def rewrite(path) -> int:
    """``commute_upsampling`` on the .onnx file ``path``, saved in place when anything was rewritten;
    returns how many up steps were."""
    model = onnx.load(str(path))
    n = commute_upsampling(model)
    if n:
        onnx.save(model, str(path))
    return n


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.graph", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="finder .onnx files, rewritten in place")
    args = parser.parse_args(argv)
    for path in args.paths:
        n = rewrite(path)
        print(f"{path}: {n} up steps rewritten" if n else f"{path}: nothing to rewrite")
    return 0


if __name__ == "__main__":
    sys.exit(main())
