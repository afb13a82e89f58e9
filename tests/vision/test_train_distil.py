"""Distilling the face reader from trained ones (``vision.train.face_fit.distillation_loss``); needs the
``[train]`` extra."""

import pytest

torch = pytest.importorskip("torch")

from vision.train.face_fit import DISTIL_SHARE, distillation_loss  # noqa: E402


def test_a_student_that_matches_its_teachers_pays_only_the_labels_share():
    out = torch.tensor([[2.0, 0.5, -1.0], [0.0, 1.0, 3.0]])
    y = torch.tensor([0, 2])
    loss = distillation_loss(out, y, out.clone())
    assert float(loss) == pytest.approx((1 - DISTIL_SHARE) * float(torch.nn.functional.cross_entropy(out, y)))


def test_the_teachers_pull_the_student_towards_their_answer_even_against_a_label():
    out = torch.zeros(1, 3, requires_grad=True)
    distillation_loss(out, torch.tensor([0]), torch.tensor([[0.0, 6.0, 0.0]])).backward()
    # The label says class 0, the teachers are sure of class 1: with most of the loss on the
    # teachers, class 1's logit is pushed up hardest.
    assert int(torch.argmin(out.grad)) == 1
