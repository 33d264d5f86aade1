#!/usr/bin/python3
"""Count the tool processes a test run starts: spatch, gcc, pahole, git.

Most of the unit suite's cpu is spent in the processes its tests start,
not in the tests' Python (bench/make_check.md), so this runs COMMAND with
a counting shim in front of each tool on PATH: the shim runs the real
tool, then appends one JSON line (the tool, the unit module whose worker
started it, its cpu with its children's, and for spatch the rule, the
number of files and a key of the arguments and the input files' content)
to a log.  The report gives, per module, the processes and their cpu, and
how many spatch processes ran on the same arguments and inputs as an
earlier one ("repeats": what a content-keyed cache could have answered;
the key leaves out the headers the rule may read, so it is an upper
bound).  A worker that runs a group of small modules (wrappers/tests/run,
worker_groups) counts under the group's first.  Each shim is a Python
start of its own (about 0.035 s of cpu, counted in the module that
started it): the run costs more than a plain one; its counts and the
tools' own cpu are the measure.

Usage: bench/make_check_census.py [--log FILE] -- COMMAND [ARG...]
e.g.   bench/make_check_census.py -- wrappers/tests/run -j 2
"""

import argparse
import collections
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

TOOLS = ("spatch", "gcc", "pahole", "git")

# The shim: argv[0]'s name is the tool; CENSUS_REAL_<TOOL> is the real one.
SHIM = r'''#!/usr/bin/python3
import hashlib, json, os, resource, subprocess, sys
tool = os.path.basename(sys.argv[0])
args = sys.argv[1:]

def module():
    pid = os.getppid()
    for _ in range(16):
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace").split("\0")
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            return "?"
        if "--worker" in cmd:
            return cmd[cmd.index("--worker") + 1]
        if any(c.endswith("semantic-patches/tests/run") for c in cmd):
            return "rule cases"
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return "?"

def digest(path):
    try:
        return hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]
    except OSError:
        return "-"

record = {"tool": tool, "module": module()}
if tool == "spatch":
    named, files, rule, i = [], [], "", 0
    while i < len(args):
        arg = args[i]
        if arg in ("--sp-file", "--cocci-file") and i + 1 < len(args):
            rule = os.path.basename(args[i + 1])
            named.append(rule + ":" + digest(args[i + 1])); i += 2; continue
        if arg == "--file-groups" and i + 1 < len(args):
            try:
                files += open(args[i + 1]).read().split()
            except OSError:
                pass
            i += 2; continue
        if arg in ("--macro-file", "--macro-file-builtins", "--python", "-o", "--tmp-dir"):
            i += 2; continue
        if arg.endswith((".c", ".h")) and not arg.startswith("-"):
            files.append(arg)
        else:
            named.append(arg)
        i += 1
    inputs = sorted((os.path.basename(f), digest(f)) for f in files)
    record.update(rule=rule or " ".join(args[:1]), files=len(files),
                  key=hashlib.sha256(json.dumps([named, inputs]).encode()).hexdigest()[:16])
rc = subprocess.run([os.environ["CENSUS_REAL_" + tool.upper()], *args]).returncode
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
record["cpu"] = round(usage.ru_utime + usage.ru_stime, 3)
with open(os.environ["CENSUS_LOG"], "a") as log:
    log.write(json.dumps(record) + "\n")
sys.exit(rc)
'''


def shim_dir(directory: Path) -> dict[str, str]:
    """The shims in DIRECTORY, and the environment that points them at the real tools."""
    env = {}
    (directory / "shim.py").write_text(SHIM)
    (directory / "shim.py").chmod(stat.S_IRWXU)
    for tool in TOOLS:
        real = shutil.which(tool)
        if real:
            (directory / tool).symlink_to(directory / "shim.py")
            env["CENSUS_REAL_" + tool.upper()] = real
    return env


def report(rows: list[dict]) -> str:
    by_module = collections.defaultdict(list)
    for row in rows:
        by_module[row["module"]].append(row)
    lines = ["| module | spatch | its cpu (s) | of one file | repeats | their cpu (s) "
             "| gcc + pahole | git |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    ranked = sorted(by_module.items(), key=lambda item: -sum(
        r["cpu"] for r in item[1] if r["tool"] == "spatch"))
    for module, found in ranked:
        spatch = [r for r in found if r["tool"] == "spatch" and r["files"]]
        seen, repeats = set(), []
        for r in spatch:
            (repeats.append(r) if r["key"] in seen else seen.add(r["key"]))
        probes = sum(1 for r in found if r["tool"] in ("gcc", "pahole"))
        git = sum(1 for r in found if r["tool"] == "git")
        lines.append(f"| {module} | {len(spatch)} | {sum(r['cpu'] for r in spatch):.1f} "
                     f"| {sum(1 for r in spatch if r['files'] == 1)} | {len(repeats)} "
                     f"| {sum(r['cpu'] for r in repeats):.1f} | {probes} | {git} |")
    rules = collections.defaultdict(list)
    for row in rows:
        if row["tool"] == "spatch" and row["files"]:
            rules[row["rule"]].append(row["cpu"])
    lines += ["", "| rule | processes | cpu (s) | cpu a process (s) |", "|---|---:|---:|---:|"]
    lines += [f"| {rule} | {len(cpu)} | {sum(cpu):.1f} | {sum(cpu) / len(cpu):.2f} |"
              for rule, cpu in sorted(rules.items(), key=lambda item: -sum(item[1]))]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", type=Path, help="keep the JSON lines here")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="make-check-census-") as tmp:
        log = args.log or Path(tmp) / "census.jsonl"
        shims = Path(tmp) / "bin"
        shims.mkdir()
        env = {**os.environ, **shim_dir(shims), "CENSUS_LOG": str(log),
               "PATH": f"{shims}{os.pathsep}{os.environ.get('PATH', '')}"}
        status = subprocess.run(args.command, env=env).returncode
        rows = [json.loads(line) for line in log.read_text().splitlines()] \
            if log.exists() else []
    sys.stderr.write(report(rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
