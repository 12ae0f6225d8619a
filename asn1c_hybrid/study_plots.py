"""The study's figure: time saved against code size, measured, next to the paper's model.

Left, what the measurement gives: instructions saved per PDU (decoding and encoding,
against all interpreted) against the code bytes added (against all interpreted), for the
selections of each cost model.  Right, the same as shares of their maxima, next to the
paper's unit model (its own saving, in units, against the budget in units), like the
graph of Hoschka and Huitema's section 4.5, with their point (20%, 50%) and the target.
"""
from __future__ import annotations

from pathlib import Path

_STYLE = {"measured": ("tab:blue", "o", "selected with measured costs"),
          "units": ("tab:orange", "s", "selected with the paper's units")}


def plot_trace(result, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from .study import KNEE, PAPER_SHARE_AT_KNEE, TARGET_SHARE_AT_KNEE

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    for model, curve in result.curves.items():
        color, marker, label = _STYLE[model]
        base = curve.points[0]
        xs = [(p.code_bytes - base.code_bytes) / 1000 for p in curve.points]
        ys = [(curve.instructions(base) - curve.instructions(p)) / result.messages
              for p in curve.points]
        left.plot(xs, ys, marker=marker, color=color, label=label)
        knee = curve.at(KNEE)
        if knee is not None:
            left.annotate(f"{KNEE}%", ((knee.code_bytes - base.code_bytes) / 1000,
                                       (curve.instructions(base) - curve.instructions(knee))
                                       / result.messages),
                          textcoords="offset points", xytext=(6, -12), color=color)
        budgets = [p.budget_percent / 100 for p in curve.points]
        right.plot(budgets, [curve.saving_fraction_measured(p) for p in curve.points],
                   marker=marker, color=color, label=f"{label}, measured")
    if "units" in result.curves:
        curve = result.curves["units"]
        right.plot([p.budget_percent / 100 for p in curve.points],
                   [p.saving_fraction_model for p in curve.points], linestyle="--",
                   color="tab:gray", label="the paper's unit model (its own units)")
    left.set_xlabel("code bytes added to the all-interpreted build (kB)")
    left.set_ylabel("instructions saved per PDU (decode + encode)")
    left.set_title(f"{result.name}: measured")
    right.axvline(KNEE / 100, color="lightgray", linewidth=1)
    right.axhline(PAPER_SHARE_AT_KNEE, color="tab:gray", linewidth=0.8, linestyle=":")
    right.axhline(TARGET_SHARE_AT_KNEE, color="tab:green", linewidth=0.8, linestyle=":")
    right.plot([KNEE / 100], [PAPER_SHARE_AT_KNEE], marker="x", color="black",
               label="Hoschka & Huitema: 50% at 20%")
    right.text(0.99, TARGET_SHARE_AT_KNEE + 0.01, "target 75%", ha="right",
               color="tab:green", fontsize=8)
    right.set_xlabel("budget: share of the all-compiled code cost")
    right.set_ylabel("share of the maximal saving")
    right.set_xlim(0, 1.0)
    right.set_ylim(0, 1.05)
    right.set_title(f"{result.name}: shares")
    for axis in (left, right):
        axis.grid(True, linewidth=0.3)
        axis.legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    # no date or version in the file: the same results give the same bytes
    figure.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(figure)
