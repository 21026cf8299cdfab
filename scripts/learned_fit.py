"""The one training step of the ``learned`` network, shared by ``train_learned.py`` and ``distil_expert.py``.

:class:`Trainer` holds the weights of :class:`corazones.players.learned.Network`
as numpy arrays and takes full-batch Adam steps on a softmax over each
decision's candidate cards.  A decision's target is either a distribution over
its candidates (the expert's card, softened by its search's values) or, with
``any_of=True``, a set of chosen cards of which the network should give any
one (a pass of three cards, a REINFORCE choice); ``weights`` scale each
decision's loss (REINFORCE's advantages).  Both scripts import it from here
(they run with ``scripts/`` first on the import path), so the backward pass
and the optimiser exist once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from corazones.players.learned import FEATURES, Network


class Trainer:
    """A one-hidden-layer network over candidate features, trained by full-batch Adam on a per-decision softmax."""

    def __init__(self, hidden: int, seed: int, start: dict[str, Any] | None = None) -> None:
        """Fresh weights seeded by ``seed``, or ``start`` (a weights document; a zero column per new feature)."""
        rng = np.random.default_rng(seed)
        k = len(FEATURES)
        if start is not None:
            known = list(start["features"])
            w1 = np.zeros((len(start["w1"]), k))
            for j, name in enumerate(FEATURES):
                if name in known:
                    w1[:, j] = np.array(start["w1"])[:, known.index(name)]
            self.params = {
                "w1": w1,
                "b1": np.array(start["b1"], dtype=float),
                "w2": np.array(start["w2"], dtype=float),
                "b2": np.array([start["b2"]], dtype=float),
            }
        else:
            self.params = {
                "w1": rng.normal(0, 1 / np.sqrt(k), (hidden, k)),
                "b1": np.zeros(hidden),
                "w2": rng.normal(0, 1 / np.sqrt(hidden), hidden),
                "b2": np.zeros(1),
            }
        self.m = {n: np.zeros_like(v) for n, v in self.params.items()}
        self.v = {n: np.zeros_like(v) for n, v in self.params.items()}
        self.t = 0

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The network's score of each row of features (from the unrounded weights)."""
        p = self.params
        out: np.ndarray = np.maximum(x @ p["w1"].T + p["b1"], 0.0) @ p["w2"] + p["b2"][0]
        return out

    def _loss(
        self, x: np.ndarray, groups: np.ndarray, target: np.ndarray, weights: np.ndarray | None, any_of: bool
    ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        """The loss, its gradient by each row's score, and the hidden layer before and after the ReLU."""
        p = self.params
        pre = x @ p["w1"].T + p["b1"]
        h = np.maximum(pre, 0.0)
        s = h @ p["w2"] + p["b2"][0]
        n = int(groups[-1]) + 1
        top = np.full(n, -np.inf)
        np.maximum.at(top, groups, s)
        e = np.exp(s - top[groups])
        total = np.bincount(groups, e, n)
        prob = e / total[groups]
        w = np.ones(n) if weights is None else weights
        if any_of:
            # -log of the probability of any chosen card; its gradient pulls towards the chosen cards' posterior
            good = np.bincount(groups, e * target, n)
            per = np.log(total) - np.log(good)
            q = e * target / good[groups]
        else:
            logp = s - top[groups] - np.log(total[groups])
            per = -np.bincount(groups, target * logp, n)
            q = target
        loss = float(np.mean(w * per))
        return loss, w[groups] * (prob - q) / n, pre, h

    def loss(self, x: np.ndarray, groups: np.ndarray, target: np.ndarray, any_of: bool = False) -> float:
        """The loss without a step (for held-out data)."""
        return self._loss(x, groups, target, None, any_of)[0]

    def step(
        self,
        x: np.ndarray,
        groups: np.ndarray,
        target: np.ndarray,
        lr: float,
        weights: np.ndarray | None = None,
        any_of: bool = False,
    ) -> float:
        """One Adam step on ``mean(weight * loss)`` over the decisions; returns the loss before the step.

        ``groups`` numbers each row's decision (0, 1, ... in order).  With
        ``any_of`` the ``target`` holds 1 for the chosen cards and the loss is
        ``-log p(any chosen)``; otherwise it is a distribution over each
        decision's rows and the loss is the cross-entropy ``-sum q log p``.
        With ``weights`` the advantages of the choices made, the step is
        REINFORCE's policy gradient.
        """
        loss, ds, pre, h = self._loss(x, groups, target, weights, any_of)
        p = self.params
        grads = {"w2": h.T @ ds, "b2": np.array([ds.sum()])}
        dh = np.outer(ds, p["w2"]) * (pre > 0)
        grads["w1"] = dh.T @ x
        grads["b1"] = dh.sum(axis=0)
        self.t += 1
        for k in p:
            self.m[k] = 0.9 * self.m[k] + 0.1 * grads[k]
            self.v[k] = 0.999 * self.v[k] + 0.001 * grads[k] ** 2
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss

    def agreement(self, x: np.ndarray, groups: np.ndarray, target: np.ndarray) -> float:
        """Share of decisions whose best-scored candidate has the decision's largest target (the expert's card)."""
        s = self.scores(x)
        n = int(groups[-1]) + 1
        top = np.full(n, -np.inf)
        np.maximum.at(top, groups, s)
        best_t = np.zeros(n)
        np.maximum.at(best_t, groups, target)
        hit = np.zeros(n)
        np.maximum.at(hit, groups, ((s >= top[groups]) & (target >= best_t[groups] - 1e-9)).astype(float))
        return float(hit.mean())

    def to_json(self, trained: str) -> dict[str, object]:
        """The weights document ``Network.from_json`` reads (rounded to five decimals: small, and enough)."""
        p = self.params
        return {
            "features": list(FEATURES),
            "trained": trained,
            "w1": [[round(float(x), 5) for x in row] for row in p["w1"]],
            "b1": [round(float(x), 5) for x in p["b1"]],
            "w2": [round(float(x), 5) for x in p["w2"]],
            "b2": round(float(p["b2"][0]), 5),
        }

    def network(self, trained: str = "") -> Network:
        """The playable network of the current (rounded) weights."""
        return Network.from_json(self.to_json(trained))
