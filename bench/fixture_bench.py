#!/usr/bin/python3
"""Measure the four budgets of the fixture kernel (issue 3).

  first-build   tinyconfig + fragment, first `make bzImage` of the legacy
                drivers in an empty cache (budget 6 min)
  boot          qemu start to the guest powering off with its KTAP (15 s)
  rebuild       one driver file changed, rebuilt, booted, parsed (90 s)
  fresh-proof   everything `make fixture-test` does in an empty cache:
                unpack, shims, configure, first build, every conversion,
                every build and boot, the comparison (25 min)

Everything runs in a new cache directory (ccache included), so the
numbers are a fresh machine's; nothing in the repository is changed.

Usage: bench/fixture_bench.py [--cache DIR] [--skip-proof] [--output bench/fixture.md]
"""

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "wrappers"))

from ioctl_rework.fixture import kernel, proof, runner, variants  # noqa: E402

BUDGETS = {"first-build": 6 * 60, "boot": 15, "rebuild": 90, "fresh-proof": 25 * 60}


def log(message: str) -> None:
    print(f"fixture_bench: {message}", file=sys.stderr, flush=True)


def measure(cache: Path, skip_proof: bool) -> dict[str, float]:
    times: dict[str, float] = {}
    session = runner.Session(cache, log=log, fresh=True)
    start = time.monotonic()
    session.prepare_tree()
    times["unpack+configure"] = time.monotonic() - start
    legacy = variants.prepare(variants.LEGACY, cache / "variants")
    image, _ = session.build(legacy, cache / "bench")
    times["first-build"] = image.build_seconds
    boot = session.qemu.boot(image.bzimage, session.initramfs(), cache / "bench")
    proof.parse_transcript(boot.output, boot.console)
    times["boot"] = boot.seconds

    changed = cache / "bench-drivers"
    if changed.exists():
        shutil.rmtree(changed)
    shutil.copytree(legacy.directory, changed)
    victim = sorted(changed.glob("fx_*.c"))[0]
    victim.write_text(victim.read_text() + "\n/* touched by fixture_bench */\n")
    start = time.monotonic()
    image, _ = session.build(variants.PreparedVariant(variants.Variant("bench"), changed),
                             cache / "bench")
    boot = session.qemu.boot(image.bzimage, session.initramfs(), cache / "bench")
    proof.parse_transcript(boot.output, boot.console)
    times["rebuild"] = time.monotonic() - start

    if not skip_proof:
        # The proof in a second empty cache: its own unpack and first build.
        proof_cache = cache / "proof"
        env = dict(os.environ, IOCTL_REWORK_FIXTURE_CACHE=str(proof_cache), FIXTURE_FRESH="1")
        start = time.monotonic()
        tap = subprocess.run([str(REPO / "kernel-fixtures" / "run-proof")], env=env,
                             capture_output=True, text=True)
        times["fresh-proof"] = time.monotonic() - start
        failed = [line for line in tap.stdout.splitlines() if line.startswith("not ok")]
        if failed:
            log("the proof failed during the measurement:\n" + "\n".join(failed))
    return times


def render(times: dict[str, float]) -> str:
    lines = ["# Fixture kernel budgets", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on "
             f"{os.cpu_count()} cores ({platform.machine()}), `make -j{kernel.JOBS}`, "
             "empty cache, by `bench/fixture_bench.py`.", "",
             "| measure | seconds | budget | within |", "|---|---:|---:|---|"]
    for name, seconds in times.items():
        budget = BUDGETS.get(name)
        within = "" if budget is None else ("yes" if seconds <= budget else "**no**")
        lines.append(f"| {name} | {seconds:.0f} | {budget or ''} | {within} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, help="an empty directory to work in "
                        "(default: a new temporary one, removed afterwards)")
    parser.add_argument("--skip-proof", action="store_true",
                        help="measure the first three only (the proof takes ~20 min)")
    parser.add_argument("--output", type=Path, default=REPO / "bench" / "fixture.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=REPO / "build" if (REPO / "build").is_dir() else None) as tmp:
        times = measure(args.cache or Path(tmp), args.skip_proof)
    text = render(times)
    tmp_out = args.output.with_suffix(".tmp")
    tmp_out.write_text(text)
    tmp_out.replace(args.output)
    print(text)
    return 0 if all(times[k] <= b for k, b in BUDGETS.items() if k in times) else 1


if __name__ == "__main__":
    sys.exit(main())
