"""The study's figures, one x-axis unit each:

- `study.png`: the share of the maximal saving (measured) against the budget, as a share
  of the all-compiled code cost, for the selections of each cost model, next to the
  paper's unit model (its own saving against its own budget) and its point (20%, 50%),
  like the graph of Hoschka and Huitema's section 4.5;
- `study-bytes.png`: instructions saved per PDU against the code bytes added to the
  all-interpreted build, both measured.

Each marks the knee: the budget of 20% of the code cost.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import StudyError
from .results import KNEE, PAPER_SHARE_AT_KNEE, TARGET_SHARE_AT_KNEE, TraceResult

_STYLE = {"measured": ("tab:blue", "o", "selected with the measured cost model "
                                       "(bytes, calibrated instructions)"),
          "units": ("tab:orange", "s", "selected with the units cost model "
                                      "(the paper's figure 3)")}


def require_matplotlib() -> None:
    """Before any measuring: the figures need matplotlib (the `study` extra)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise StudyError("the study's figures need matplotlib: "
                         "pip install 'asn1c-hybrid[study]'") from None


def _pyplot():
    import matplotlib               # imported only when a figure is drawn: it is slow
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(figure, plt, path: Path) -> None:
    figure.tight_layout()
    # no date or version in the file: the same results give the same bytes
    figure.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(figure)


def plot_shares(result: TraceResult, path: Path) -> None:
    """Share of the maximal saving against the budget (share of the code cost)."""
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(7.5, 5))
    for model, curve in result.curves.items():
        color, marker, label = _STYLE[model]
        xs = [p.budget_percent for p in curve.points]
        axis.plot(xs, [100 * curve.saving_fraction_measured(p) for p in curve.points],
                  marker=marker, color=color, label=f"{label}, measured")
        knee = curve.at(KNEE)
        if knee is not None:
            share = 100 * curve.saving_fraction_measured(knee)
            axis.annotate(f"{share:.1f}% at the knee", (KNEE, share), color=color,
                          textcoords="offset points", xytext=(8, -14 if model == "units" else 6),
                          fontsize=8)
    if "units" in result.curves:
        curve = result.curves["units"]
        axis.plot([p.budget_percent for p in curve.points],
                  [100 * p.saving_fraction_model for p in curve.points], linestyle="--",
                  color="tab:gray", label="units cost model, its own prediction")
    axis.axvline(KNEE, color="black", linewidth=0.8, linestyle=":",
                 label=f"the knee: a budget of {KNEE}% of the code cost")
    axis.plot([KNEE], [100 * PAPER_SHARE_AT_KNEE], marker="x", color="black", linestyle="none",
              markersize=9, label="Hoschka & Huitema: 50% at 20% (their units)")
    axis.axhline(100 * TARGET_SHARE_AT_KNEE, color="tab:green", linewidth=0.8, linestyle=":",
                 label=f"target: {TARGET_SHARE_AT_KNEE:.0%} at the knee")
    axis.set_xlabel("budget (% of the all-compiled code cost)")
    axis.set_ylabel("share of the maximal saving (%)")
    axis.set_xlim(0, 100)
    axis.set_ylim(0, 105)
    axis.set_title(f"{result.name}: time saved against the budget "
                   f"({result.messages:,} PDUs)")
    axis.grid(True, linewidth=0.3)
    axis.legend(fontsize=7, loc="lower right")
    _save(figure, plt, path)


def plot_bytes(result: TraceResult, path: Path) -> None:
    """Instructions saved per PDU against the code bytes added, both measured."""
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(7.5, 5))
    for model, curve in result.curves.items():
        color, marker, label = _STYLE[model]
        base = curve.points[0]
        xs = [p.code_bytes - base.code_bytes for p in curve.points]
        ys = [(curve.instructions(base) - curve.instructions(p)) / result.messages
              for p in curve.points]
        axis.plot(xs, ys, marker=marker, color=color, label=label)
        knee = curve.at(KNEE)
        if knee is not None:
            point = (knee.code_bytes - base.code_bytes,
                     (curve.instructions(base) - curve.instructions(knee)) / result.messages)
            axis.plot([point[0]], [point[1]], marker="*", markersize=13, color=color,
                      linestyle="none", label=f"the knee ({KNEE}% budget), {model} model")
    axis.set_xlabel("code bytes added to the all-interpreted build")
    axis.set_ylabel("instructions saved per PDU (decode + encode)")
    axis.set_title(f"{result.name}: time saved against code size, measured")
    axis.grid(True, linewidth=0.3)
    axis.legend(fontsize=7, loc="lower right")
    _save(figure, plt, path)


def plot_trace(result: TraceResult, directory: Path) -> list[Path]:
    """Both figures of one trace, in `directory`; returns their paths."""
    shares, sizes = directory / "study.png", directory / "study-bytes.png"
    plot_shares(result, shares)
    plot_bytes(result, sizes)
    return [shares, sizes]
