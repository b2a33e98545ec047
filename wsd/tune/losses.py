"""Losses on the cosine similarities of labelled use pairs: CoSENT for graded labels, contrastive for binary ones.

Both take the cosine similarity ``s`` of each scored pair and its label ``y``:

- **CoSENT** (a ranking loss, Su 2022): ``log(1 + Σ exp(scale · (s_j − s_i)))`` over every two pairs with
  ``y_i > y_j``. Only the order of the labels matters; pairs with equal labels impose nothing.
- **Contrastive** (Hadsell et al. 2006, on the cosine distance ``d = 1 − s``): ``mean(y · d² + (1 − y) ·
  max(0, margin − d)²) / 2``, with ``y`` 1 for the same sense and 0 for different senses.

:func:`pair_loss` picks one for a batch: ``auto`` takes CoSENT for graded labels and contrastive for binary ones;
graded labels given to the contrastive loss are made binary at :data:`GRADED_SAME` (1–4 scale: ≥ 3 same, ≤ 2
different, the medians in between left out).

They are sentence-transformers' ``CoSENTLoss`` (scale 20) and ``ContrastiveLoss`` (cosine distance, margin 0.5),
taken on the cosines of a batch's span-pooled pairs; ``tests/test_tune_library.py`` tests them against those
classes' ``compute_loss_from_embeddings``. They stay wsd's because the models they train must stay as they are:
``ContrastiveLoss`` equals :func:`contrastive_loss` bit for bit only when given the distance ``1 - a·b`` of the unit
vectors (its default distance rounds otherwise) and gives NaN for a batch left without pairs, where this gives 0;
``CoSENTLoss`` sums the same terms in another order (sorted labels, a running ``logcumsumexp``), so its gradients
differ in the last bits and every CoSENT-trained model (``sense-multilingual``, every ``--teacher`` run) would
change; and sentence-transformers is no dependency of wsd (importing it costs a ``wsd tune`` about 10 s).
"""

from __future__ import annotations

from typing import get_args

import torch

from wsd.errors import ConfigError
from wsd.options import TuneOptions
from wsd.schema import TuneLoss

#: Graded labels at or above this are "same" for the contrastive loss; at or below :data:`GRADED_DIFFERENT` "different".
GRADED_SAME = 3.0
GRADED_DIFFERENT = 2.0


def cosent_loss(scores: torch.Tensor, labels: torch.Tensor, scale: float = TuneOptions.scale) -> torch.Tensor:
    """CoSENT: every pair with a higher label should have a higher score.

    Parameters
    ----------
    scores : Tensor of shape (n,)
        Cosine similarity of each pair.
    labels : Tensor of shape (n,)
        Its label (graded or binary; only the order matters).
    scale : float
        Inverse temperature of the score differences.

    Returns
    -------
    Tensor
        A scalar; ``log 1 = 0`` contribution from the added 1 only when no two labels differ.

    Examples
    --------
    >>> round(float(cosent_loss(torch.tensor([0.9, 0.1]), torch.tensor([4.0, 1.0]), scale=1.0)), 4)
    0.3711
    """
    differences = scale * (scores[None, :] - scores[:, None])  # [i, j] = scale·(s_j − s_i)
    ordered = labels[:, None] > labels[None, :]  # y_i > y_j
    terms = differences[ordered]
    zero = torch.zeros(1, dtype=scores.dtype, device=scores.device)
    return torch.logsumexp(torch.cat([zero, terms]), dim=0)


def contrastive_loss(scores: torch.Tensor, labels: torch.Tensor, margin: float = TuneOptions.margin) -> torch.Tensor:
    """Contrastive loss on the cosine distance: same-sense pairs pulled together, others pushed past ``margin``.

    Parameters
    ----------
    scores : Tensor of shape (n,)
        Cosine similarity of each pair.
    labels : Tensor of shape (n,)
        1 for the same sense, 0 for different senses.
    margin : float
        Distance beyond which a different-sense pair costs nothing.

    Returns
    -------
    Tensor
        A scalar (0 for no pair).

    Examples
    --------
    >>> round(float(contrastive_loss(torch.tensor([0.8, 0.9]), torch.tensor([1.0, 0.0]))), 4)
    0.05
    """
    if scores.numel() == 0:
        return scores.sum()
    distance = 1.0 - scores
    same = labels * distance.pow(2)
    different = (1.0 - labels) * torch.relu(margin - distance).pow(2)
    return 0.5 * (same + different).mean()


def pair_loss(
    scores: torch.Tensor,
    labels: torch.Tensor,
    kind: str,
    loss: TuneLoss,
    *,
    scale: float = TuneOptions.scale,
    margin: float = TuneOptions.margin,
) -> torch.Tensor:
    """The loss of a batch of pairs of one label kind.

    Parameters
    ----------
    scores, labels : Tensor of shape (n,)
        Cosine similarities and labels.
    kind : {"graded", "binary"}
        The labels' kind.
    loss : {"cosent", "contrastive", "auto"}
        The loss to use (``auto``: CoSENT for graded, contrastive for binary labels).
    scale, margin : float
        As :func:`cosent_loss` and :func:`contrastive_loss`.

    Returns
    -------
    Tensor
        A scalar.

    Raises
    ------
    ConfigError
        For an unknown loss or label kind.

    Examples
    --------
    >>> float(pair_loss(torch.tensor([0.5]), torch.tensor([1.0]), "binary", "auto"))
    0.125
    """
    if loss not in get_args(TuneLoss):  # the choices of TuneOptions.loss
        raise ConfigError(f"unknown loss {loss!r} (choose one of {', '.join(get_args(TuneLoss))})")
    if kind not in ("graded", "binary"):
        raise ConfigError(f"unknown label kind {kind!r}")
    chosen = ("cosent" if kind == "graded" else "contrastive") if loss == "auto" else loss
    if chosen == "cosent":
        return cosent_loss(scores, labels, scale)
    if kind == "graded":
        keep = (labels >= GRADED_SAME) | (labels <= GRADED_DIFFERENT)
        return contrastive_loss(scores[keep], (labels[keep] >= GRADED_SAME).to(scores.dtype), margin)
    return contrastive_loss(scores, labels, margin)


def chosen_loss(kind: str, loss: TuneLoss) -> str:
    """The loss :func:`pair_loss` uses for a label kind.

    Parameters
    ----------
    kind : {"graded", "binary"}
        The label kind.
    loss : {"cosent", "contrastive", "auto"}
        The loss option.

    Returns
    -------
    str
        ``cosent`` or ``contrastive``.

    Examples
    --------
    >>> chosen_loss("binary", "auto")
    'contrastive'
    """
    return ("cosent" if kind == "graded" else "contrastive") if loss == "auto" else loss
