"""SARIF 2.1.0, so that CI systems show the findings inline."""

import hashlib
import json

from ioctl_rework.audit.findings import Kind
from ioctl_rework.audit.formats import TOOL, Report
from ioctl_rework.audit.formats.text import describe
from ioctl_rework.names import uri

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/ioctl-rework/ioctl-rework"
LEVELS = {Kind.LEGACY_IOCTL: "warning", Kind.MISSING_COMPAT: "note",
          Kind.BKL_IN_UNLOCKED: "note", Kind.ENOIOCTLCMD_UNLOCKED: "note",
          Kind.FORWARDING: "warning"}


def _rules() -> list[dict]:
    return [{"id": kind.value, "name": kind.name.title().replace("_", ""),
             "shortDescription": {"text": kind.description},
             "defaultConfiguration": {"level": LEVELS[kind]}} for kind in Kind]


def _result(finding) -> dict:
    identity = "\0".join(finding.identity).encode("utf-8", "surrogateescape")
    value = {
        "ruleId": finding.kind.value,
        "ruleIndex": list(Kind).index(finding.kind),
        "level": LEVELS[finding.kind],
        "message": {"text": describe(finding)},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": uri(finding.file), "uriBaseId": "SRCROOT"},
            "region": {"startLine": finding.line}}}],
        # Stable across line moves, so CI does not see every finding as new.
        "partialFingerprints": {"ioctlReworkIdentity/v1":
                                hashlib.sha256(identity).hexdigest()},
        "properties": {k: v for k, v in finding.to_json().items()
                       if k not in ("file", "line", "kind") and v not in (None, "", [])},
    }
    return value


def _run(result, version: str) -> dict:
    run = {
        "tool": {"driver": {"name": TOOL, "version": version,
                            "informationUri": INFORMATION_URI, "rules": _rules()}},
        "invocations": [{
            "executionSuccessful": True,
            "toolExecutionNotifications": [
                {"level": "warning" if not s.partial else "note",
                 "message": {"text": ("partly parsed: " if s.partial else "skipped: ")
                             + s.reason},
                 "locations": [{"physicalLocation": {
                     "artifactLocation": {"uri": uri(s.file), "uriBaseId": "SRCROOT"}}}]}
                for s in result.skipped]}],
        "results": [_result(f) for f in result.findings],
    }
    # SRCROOT is left to the viewer (the checkout a CI job has): a path of
    # the machine that ran the audit means nothing elsewhere, and a report
    # re-read with --from-json, which knows only the tree's name, stays the same.
    if result.version:
        run["properties"] = {"kernelVersion": result.version}
    return run


def render(report: Report) -> str:
    value = {"$schema": SCHEMA, "version": "2.1.0",
             "runs": [_run(r, report.tool_version) for r in report.results]}
    return json.dumps(value, indent=2) + "\n"
