"""wang2020's Figures 2-10 on stand-in data: DP-TR, DP-STR and DP-GD.

The paper (Section 5) runs logistic regression with the non-convex regulariser
r(w) = sum_i lam w_i^2/(1 + w_i^2) and sigmoid regression with an l2 regulariser, lam = 1e-3,
on Covertype (581012 x 54) and IJCNN (35000 x 22), rows normalised, delta = 1/n, alpha = 0.1,
10 runs each; it plots the optimality gap, the gradient norm and the accuracy against eps and
the gap against time at eps = 1. Neither dataset ships offline, so a **substitute** is used
and labelled as such everywhere: UCI CreditCard (30000 x 32 after preprocessing; the
``credit`` dataset) in place of IJCNN, of similar size, also binary classification. The
real data, given as a file, runs cell by cell through ``dptheory run wang2020.alg1 --data
FILE --target COLUMN``.

The paper prints no numbers for these figures except the non-private accuracies (86 %
Covertype, 95 % IJCNN); what is compared is its qualitative statements: DP-TR has a smaller
gap and gradient norm than DP-GD, DP-STR a larger gap than both but the least running time,
and accuracy grows with eps.
"""

from __future__ import annotations

import functools
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ._reproduce import Reproduction, run_stored

__all__ = ["FIGURES", "Wang2020Figures", "cell_result"]

EPS = (0.25, 0.5, 1.0, 1.5, 2.0)
LAM = 1e-3
ALPHA = 0.1
OBJECTIVES = {"logistic-nonconvex-reg": "logistic regression, non-convex regulariser",
              "sigmoid-l2": "sigmoid regression, l2 regulariser"}
ALGORITHMS = {"DP-TR": "wang2020.alg1", "DP-STR": "wang2020.alg2", "DP-GD": "wang2020.dpgd"}
SUBSTITUTE = "credit"
QUICK = {"subsample": 2000, "reps": 3}
FULL = {"subsample": None, "reps": 10}
PAPER_STATEMENTS = (
    "DP-TR has a smaller optimality gap and gradient norm than DP-GD (Figures 4-10, first and "
    "second panels)",
    "DP-STR has a larger gap than DP-TR and DP-GD but the least running time (third panels, "
    "eps = 1)",
    "accuracy grows with eps and is comparable to non-private (95 % on IJCNN) for "
    "eps >= 1.5 (Figure 2)")
NOT_GIVEN = ("the eps grid of the figures (here 0.25, 0.5, 1, 1.5, 2)",
             "T, the trust-region radius and the DP-STR subset sizes |S|, |T| beyond 'batch "
             "size 5000 for IJCNN' (here the simulators' defaults from the theorems)",
             "the row-normalisation radius (here rows divided by the largest norm, ||x|| <= 1)")


@functools.lru_cache(maxsize=2)
def _prepared(source: str, subsample: int | None) -> Any:
    from dptheory_simulations.datasets import load
    return load(source, subsample=subsample, seed=0, task="classification", scale="minmax",
                rows="max", radius=1.0)


def cell_result(cell: dict[str, Any]) -> dict[str, Any]:
    """One algorithm on one objective at one eps; JSON-storable."""
    from dptheory_simulations.algorithms import get as get_algorithm
    from dptheory_simulations.objectives import get as get_objective
    data = _prepared(cell["source"], cell["subsample"]).train
    obj = get_objective(cell["objective"], d=data.d, lam=LAM)
    alg = get_algorithm(ALGORITHMS[cell["alg"]])
    record = 1 if cell["eps"] == 1.0 else None
    result = alg(obj, data, eps=cell["eps"], delta=1.0 / data.n, reps=cell["reps"],
                 seed=cell["seed"], alpha=ALPHA, record=record)
    m = obj.minimum(data)
    out = {"gap": float(np.mean(result.metrics["excess_risk"])),
           "grad_norm": float(np.mean(result.metrics["grad_norm"])),
           "accuracy": float(np.mean(obj.accuracy(result.w, data))),
           "accuracy_nonprivate": None if m.w is None else float(obj.accuracy(m.w, data)),
           "cpu_time": result.cpu_time / cell["reps"], "wall_time": result.wall_time,
           "n": data.n, "d": data.d,
           # the start w0 = 0 may already pass the private alpha-SOSP test (then the output
           # is w0 and the gap is F(0) - F*, whatever eps): say how often
           "grad_norm_w0": float(np.linalg.norm(obj.grad_F(np.zeros((1, data.d)), data))),
           "stopped_at_start": (float(np.mean(result.metrics["iterations"] == 0))
                                if "iterations" in result.metrics else None)}
    if result.trajectory is not None and len(result.trajectory["t"]):
        W = result.trajectory["w"]                                  # (reps, K, d)
        gaps = np.array([np.mean(obj.F(W[:, k], data)) - m.value for k in range(W.shape[1])])
        out["time"] = result.trajectory["time"].tolist()
        out["gap_trajectory"] = gaps.tolist()
    return out


@dataclass(frozen=True)
class Wang2020Figures(Reproduction):
    """``dptheory reproduce wang2020.figures``."""

    id: str = "wang2020.figures"
    title: str = ("wang2020 Figures 2-10 on a SUBSTITUTE for IJCNN (UCI CreditCard): DP-TR, "
                  "DP-STR, DP-GD; gap, gradient norm, accuracy vs eps; gap vs time at eps = 1")

    quick_size = QUICK
    full_size = FULL
    min_subsample = 10

    def _run(self, *, datasets: list[str], sources: dict[str, str], subsample: int | None,
             reps: int, seed: int, out: Path, n_jobs: int, progress: bool, figure: bool,
             runner: Callable[..., Any] | None) -> dict[str, Any]:
        """Run (or resume) the figures' cells; see :mod:`.wang2020_figures`."""
        if sources or (datasets and list(datasets) != [SUBSTITUTE]):
            raise ValueError("wang2020.figures runs on its substitute 'credit' only (Covertype "
                             "and IJCNN have no offline source); for your file of either, use "
                             "dptheory run wang2020.alg1 --data FILE --target COLUMN")
        source, label = SUBSTITUTE, "credit (SUBSTITUTE for IJCNN)"
        _prepared.cache_clear()
        _prepared(source, subsample)          # a missing package fails here, in one line
        cells = [{"source": source, "objective": o, "eps": e, "alg": a, "subsample": subsample,
                  "reps": reps, "seed": seed}
                 for o in OBJECTIVES for e in EPS for a in ALGORITHMS]
        settings = {"source": source, "subsample": subsample, "reps": reps, "seed": seed}
        results, record = run_stored(self.id, cell_result, cells, settings, out, n_jobs=n_jobs,
                                     progress=progress, runner=runner)
        rows = [{**{k: c[k] for k in ("objective", "eps", "alg")}, **r}
                for c, r in zip(cells, results)]
        report = {"id": self.id, "title": self.title, "data_label": label, **record,
                  "rows": rows, "checks": self.statements(rows),
                  "paper_statements": list(PAPER_STATEMENTS), "not_given_by_paper": list(NOT_GIVEN),
                  "data": _prepared(source, subsample).record()}
        if figure:
            report["figure"] = self.figure(report, out / f"{self.id}.png")
        return report

    @staticmethod
    def statements(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """The paper's qualitative statements, as observed here (per objective)."""
        out = []
        for o in OBJECTIVES:
            by = {(r["alg"], r["eps"]): r for r in rows if r["objective"] == o}
            eps = sorted({e for _, e in by})
            tr_gd = sum(by[("DP-TR", e)]["gap"] < by[("DP-GD", e)]["gap"] for e in eps)
            str_worst = sum(by[("DP-STR", e)]["gap"] > max(by[("DP-TR", e)]["gap"],
                                                          by[("DP-GD", e)]["gap"]) for e in eps)
            fastest = min(ALGORITHMS, key=lambda a: by[(a, 1.0)]["cpu_time"])
            acc = [by[("DP-TR", e)]["accuracy"] for e in eps]
            at_start = {a: sum(1 for e in eps if (by[(a, e)].get("stopped_at_start") or 0) > 0.5)
                        for a in ALGORITHMS}
            g0 = next((r.get("grad_norm_w0") for r in by.values()
                       if r.get("grad_norm_w0") is not None), None)
            out.append({"objective": o, "eps": eps,
                        "grad_norm_w0": g0, "stopped_at_start": at_start,
                        "dp_tr_gap_below_dp_gd": f"{tr_gd} of {len(eps)}",
                        "dp_str_gap_largest": f"{str_worst} of {len(eps)}",
                        "fastest_at_eps_1": fastest,
                        "dp_tr_accuracy_vs_eps": acc})
        return out

    @staticmethod
    def text(report: dict[str, Any]) -> str:
        """The plain-text report: a row per objective, eps and algorithm, the paper's
        statements as observed here (with how often the start point was output), what the paper
        does not give, and where the results are stored."""
        s = report["settings"]
        n = "full data" if s["subsample"] is None else f"subsample {s['subsample']}"
        lines = [report["title"],
                 f"  data: {report['data_label']}; {n}, {s['reps']} replicates per cell, "
                 f"delta = 1/n, alpha = {ALPHA}, lam = {LAM}; a comparison with the paper's "
                 "statements (it prints no numbers for these figures)", "",
                 f"{'objective':<24}{'eps':>5} {'alg':<7}{'gap':>11}{'grad norm':>11}"
                 f"{'accuracy':>10}{'cpu (s)':>10}"]
        for r in report["rows"]:
            lines.append(f"{r['objective']:<24}{r['eps']:>5g} {r['alg']:<7}{r['gap']:>11.4g}"
                         f"{r['grad_norm']:>11.4g}{r['accuracy']:>10.4f}{r['cpu_time']:>10.3g}")
        lines += ["", "the paper's statements, as observed here:"]
        for st in report["checks"]:
            acc = ", ".join(f"{a:.3f}" for a in st["dp_tr_accuracy_vs_eps"])
            lines.append(f"  {st['objective']}: DP-TR gap below DP-GD's at "
                         f"{st['dp_tr_gap_below_dp_gd']} eps; DP-STR gap the largest at "
                         f"{st['dp_str_gap_largest']}; fastest at eps = 1: "
                         f"{st['fastest_at_eps_1']}; DP-TR accuracy vs eps: {acc}")
            starts = [f"{a} at {k} of {len(st['eps'])} eps"
                      for a, k in st.get("stopped_at_start", {}).items() if k]
            if starts:
                g0 = st.get("grad_norm_w0")
                lines.append(f"    output the start w0 = 0 in most replicates (its ||grad F|| = "
                             f"{g0:.3g}, alpha = {ALPHA}: w0 passes the private alpha-SOSP test, "
                             f"the gap is F(0) - F* whatever eps): " + "; ".join(starts))
        lines += ["  paper: " + t for t in report["paper_statements"]]
        lines += ["", "not given by the paper:"] + [f"  - {t}" for t in report["not_given_by_paper"]]
        lines += ["", f"results: {report['store']} (run {report['run_id']}, "
                      f"{report['cells_computed']} cells computed now, "
                      f"{report['elapsed_seconds']:.1f} s)"]
        if report.get("figure"):
            lines.append(f"figure: {report['figure']}")
        return "\n".join(lines)

    @staticmethod
    def figure(report: dict[str, Any], path: Path) -> str:
        """Per objective: gap, gradient norm, accuracy vs eps and gap vs time at eps = 1."""
        from dptheory import plotting as P      # no pyplot: the caller's backend is left alone
        fig, axes = P.new_figure((12.5, 2.7 * len(OBJECTIVES) + 0.8), len(OBJECTIVES), 4)
        panels = (("gap", "optimality gap"), ("grad_norm", r"$\Vert\nabla F(w)\Vert$"),
                  ("accuracy", "accuracy"))
        colours = dict(zip(ALGORITHMS, P.COLOURS))
        with P.style():
            for i, o in enumerate(OBJECTIVES):
                rows = [r for r in report["rows"] if r["objective"] == o]
                for j, (key, label) in enumerate(panels):
                    ax = axes[i, j]
                    for a in ALGORITHMS:
                        sub = sorted((r for r in rows if r["alg"] == a), key=lambda r: r["eps"])
                        ax.plot([r["eps"] for r in sub], [r[key] for r in sub], "-o",
                                color=colours[a], label=a)
                    ax.set_xlabel(P.symbol_label("eps"))
                    if i == 0:
                        ax.set_title(label)
                    if j == 0:              # the row's objective, beside its first panel
                        ax.set_ylabel(textwrap.fill(OBJECTIVES[o], 26))
                    if key != "accuracy":
                        ax.set_yscale("log")
                        ax.autoscale_view()
                        P.tidy_log_axis(ax.yaxis)
                ax = axes[i, 3]
                for a in ALGORITHMS:
                    r = next((r for r in rows if r["alg"] == a and r["eps"] == 1.0), None)
                    if r and r.get("time"):
                        ax.plot(r["time"], np.maximum(r["gap_trajectory"], 1e-16),
                                color=colours[a], label=a)
                ax.set_xlabel("seconds (the algorithm's own)")
                ax.set_yscale("log")
                ax.autoscale_view()
                P.tidy_log_axis(ax.yaxis)
                if i == 0:
                    ax.set_title("optimality gap vs time, " + P.value_label("eps", 1))
        s = report["settings"]
        size = "full data" if s["subsample"] is None else f"n = {s['subsample']} subsample"
        P.finish(fig, title=f"wang2020 Figures 2-10 on {report['data_label']}",
                 params=P.param_line({"alpha": ALPHA}, lead=[f"{size}, {P.count(s['reps'], 'replicate')}"],
                                     extra=[f"$\\lambda$ = {LAM:g}", r"$\delta$ = 1/$n$",
                                            f"seed {s['seed']}"]))
        return P.save(fig, path)


FIGURES = Wang2020Figures()
