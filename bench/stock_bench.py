#!/usr/bin/python3
"""Measure what the stock kernels add to a clean CI run (issue 16: both
together within 15 minutes).

For each stock kernel, in a stock cache that does not exist yet (as on a
fresh machine: no unpacked tree, no objects, no ccache), time what
kernel-fixtures/run-stock does for it: unpack and configure, the kernel
build (bzImage, and `modules` for Module.symvers), the legacy and the
converted module builds, the boot and the comparison.  The fixture
kernel's legacy baseline and the converted drivers come from the usual
cache: run-proof makes them in CI before run-stock runs.  The stock caches
it fills are the ones make test uses afterwards.

Usage: bench/stock_bench.py [--versions 6.1,6.12] [--output bench/stock.md]
"""

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "wrappers"))

from ioctl_rework.fixture import kernel, runner, stock, stock_proof, variants  # noqa: E402

BUDGET = 15 * 60          # both stock kernels together


def log(message: str) -> None:
    print(f"stock_bench: {message}", file=sys.stderr, flush=True)


def measure(session: runner.Session, legacy, stock_kernel) -> dict[str, float]:
    proving = stock_proof.StockSession(session, stock_kernel)
    if proving.tree.cache.exists():
        raise SystemExit(f"stock_bench: {proving.tree.cache} exists; move it aside to measure "
                         "a fresh build")
    start, cpu_start = time.monotonic(), _children_cpu()
    proving.tree.prepare()
    prepared = time.monotonic() - start
    run = proving.run(legacy)
    total = time.monotonic() - start
    cpu = _children_cpu() - cpu_start
    if run.failures or run.transcript is None:
        log(f"{stock_kernel.name}: the proof failed during the measurement: "
            + "; ".join(map(str, run.failures[:5])))
    return {"unpack+configure": prepared, "kernel build": run.kernel_seconds,
            "boot": run.boot_seconds,
            "module builds, conversion, comparison":
                total - prepared - run.kernel_seconds - run.boot_seconds,
            "total": total, "CPU": cpu, f"CPU / {kernel.JOBS} jobs": cpu / kernel.JOBS}


def _children_cpu() -> float:
    """CPU seconds of every finished child (make, gcc, qemu, spatch): what
    the other sessions sharing the machine do not inflate."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def render(times: dict[str, dict[str, float]], load: tuple[float, float]) -> str:
    lines = ["# Stock kernels in CI", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on "
             f"{os.cpu_count()} cores ({platform.machine()}), `make -j{kernel.JOBS}`, "
             f"empty stock caches, load average {load[0]:.1f} before and {load[1]:.1f} after, "
             "by `bench/stock_bench.py`.", "",
             "| kernel | " + " | ".join(next(iter(times.values()))) + " |",
             "|---|" + "---:|" * len(next(iter(times.values())))]
    for name, parts in times.items():
        lines.append(f"| {name} | " + " | ".join(f"{s:.0f}" for s in parts.values()) + " |")
    together = sum(parts["total"] for parts in times.values())
    idle = sum(parts[f"CPU / {kernel.JOBS} jobs"] for parts in times.values())
    lines += ["", f"Together: {together:.0f} s ({together / 60:.1f} min) on the clock, of a "
              f"{BUDGET // 60}-minute budget: {'within' if together <= BUDGET else '**over**'}. "
              f"Their CPU time over {kernel.JOBS} jobs, about what an idle machine takes: "
              f"{idle:.0f} s ({idle / 60:.1f} min): "
              f"{'within' if idle <= BUDGET else '**over**'}."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--versions", default=",".join(k.version for k in stock.STOCK_KERNELS))
    parser.add_argument("--output", type=Path, default=REPO / "bench" / "stock.md")
    args = parser.parse_args()
    wanted = args.versions.split(",")
    load_before = os.getloadavg()[0]
    session = runner.Session(log=log)
    session.prepare_tree()
    legacy = session.run(variants.LEGACY)
    # The converted drivers are shared by the stock kernels: made once, timed once.
    start, cpu_start = time.monotonic(), _children_cpu()
    session.prepare(stock_proof.MODERN_VARIANT)
    converting, converting_cpu = time.monotonic() - start, _children_cpu() - cpu_start
    times = {k.name: measure(session, legacy, k) for k in stock.STOCK_KERNELS
             if k.version in wanted}
    times["conversion (once, shared)"] = {name: 0.0 for name in next(iter(times.values()))}
    times["conversion (once, shared)"].update({
        "module builds, conversion, comparison": converting, "total": converting,
        "CPU": converting_cpu, f"CPU / {kernel.JOBS} jobs": converting_cpu / kernel.JOBS})
    text = render(times, (load_before, os.getloadavg()[0]))
    tmp_out = args.output.with_suffix(".tmp")
    tmp_out.write_text(text)
    tmp_out.replace(args.output)
    print(text)
    return 0 if sum(t["total"] for t in times.values()) <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
