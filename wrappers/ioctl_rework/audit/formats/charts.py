"""Charts for the html report, drawn with matplotlib as PNG bytes."""

import io

from ioctl_rework.audit.findings import Kind

COLOURS = {Kind.LEGACY_IOCTL: "#c0392b", Kind.MISSING_COMPAT: "#2980b9",
           Kind.BKL_IN_UNLOCKED: "#8e44ad", Kind.ENOIOCTLCMD_UNLOCKED: "#d68910",
           Kind.FORWARDING: "#16a085"}


class ChartError(RuntimeError):
    """matplotlib is missing (Debian python3-matplotlib)."""


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError as err:
        raise ChartError("the html report needs python3-matplotlib; run `make deps`") from err
    return pyplot


def _plain(text: str) -> str:
    """TEXT as matplotlib shows it literally: "$...$" would be mathtext."""
    return text.replace("$", r"\$")


def _png(figure) -> bytes:
    out = io.BytesIO()
    figure.tight_layout()
    figure.savefig(out, format="png", dpi=96)
    _pyplot().close(figure)
    return out.getvalue()


def trend_chart(rows) -> bytes:
    """Grouped bars: findings per kind for each version."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(8, 3.6))
    kinds = list(Kind)
    width = 0.8 / len(kinds)
    for index, kind in enumerate(kinds):
        xs = [n + index * width for n in range(len(rows))]
        axes.bar(xs, [row.counts[kind] for row in rows], width, label=kind.value,
                 color=COLOURS[kind])
    axes.set_xticks([n + 0.4 - width / 2 for n in range(len(rows))])
    axes.set_xticklabels([row.label for row in rows])
    axes.set_ylabel("findings")
    axes.set_title("Findings per kernel version")
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _png(figure)


def subsystem_chart(table, title: str, limit: int = 15) -> bytes:
    """Stacked horizontal bars: the LIMIT subsystems with most findings."""
    plt = _pyplot()
    shown = table[:limit][::-1]
    figure, axes = plt.subplots(figsize=(8, 0.35 * len(shown) + 1.4))
    left = [0] * len(shown)
    names = [_plain(name if len(name) <= 48 else name[:45] + "...") for name, _ in shown]
    for kind in Kind:
        values = [counts[kind] for _, counts in shown]
        axes.barh(names, values, left=left, label=kind.value, color=COLOURS[kind])
        left = [a + b for a, b in zip(left, values)]
    axes.set_xlabel("findings")
    axes.set_title(_plain(title))
    axes.tick_params(axis="y", labelsize=8)
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _png(figure)
