"""JSON: everything, for scripts (and for `ioctl-rework merge`)."""

import json

from ioctl_rework.audit.findings import Kind
from ioctl_rework.audit.formats import TOOL, Report


def _result(result) -> dict:
    return {
        # The directory's name only: a JSON report is shared, this machine's paths are not.
        "tree": result.tree_name,
        "version": result.version,
        "counts": {k.value: result.count(k) for k in Kind},
        "stats": {"candidates": result.stats.candidates, "cached": result.stats.cached,
                  "seconds": round(result.stats.seconds, 3),
                  "passed_by_table": result.stats.passed_by_table,
                  "stage_seconds": result.stats.stage_seconds},
        "findings": [f.to_json() for f in result.findings],
        "skipped": [{"file": s.file, "reason": s.reason, "partial": s.partial}
                    for s in result.skipped],
    }


def render(report: Report) -> str:
    value = {
        "tool": TOOL, "tool_version": report.tool_version,
        "trees": [_result(r) for r in report.results],
    }
    if report.several:
        value["trend"] = {
            "versions": [{"version": row.label, "counts": {k.value: row.counts[k] for k in Kind}}
                         for row in report.trend.rows],
            "changes": [{"from": c.before, "to": c.after,
                         "new": [f.to_json() for f in c.new],
                         "fixed": [f.to_json() for f in c.fixed]}
                        for c in report.trend.changes],
        }
    return json.dumps(value, indent=2) + "\n"
