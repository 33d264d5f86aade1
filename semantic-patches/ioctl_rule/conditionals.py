"""Preprocessor conditionals: which branches are never compiled (#if 0, the
#else of #if 1), which #if blocks are open at a line, and whether code at
one line is compiled wherever code at others is."""

import re

from ioctl_rework.ctext.spans import dead_branches

from .state import per_file
from .source import code_text, source_lines


CONDITIONAL = re.compile(r"\s*#\s*(if|ifdef|ifndef|endif)\b")


def open_conditional(file, first, line):
    """The line of the innermost #if that started in lines [first, line)
    and is still open at line, or None."""
    opened = []
    for number, text in enumerate(source_lines(file)[first - 1:line - 1], first):
        match = CONDITIONAL.match(text)
        if match and match.group(1) == "endif":
            if opened:
                opened.pop()
        elif match:
            opened.append(number)
    return opened[-1] if opened else None

ELSE = re.compile(r"[ \t]*#[ \t]*(else|elif)\b")


def without_dead_code(lines):
    """LINES with the code under #if 0, and under the #else of #if 1,
    blanked: never compiled, so no exit."""
    return ["" if dead or kind else text
            for text, (dead, kind) in zip(lines, dead_branches(lines))]


def sibling_branches(file, first, last, line):
    """[(from, to)] line ranges, within lines first..last, of the branches
    of each #if around LINE other than LINE's own: code that is never
    compiled together with it."""
    found, groups = [], []   # per open #if: [branch starts], its line
    for number, text in enumerate(source_lines(file)[first - 1:last], first):
        match = CONDITIONAL.match(text)
        if match and match.group(1) != "endif":
            groups.append([number])
        elif ELSE.match(text) and groups:
            groups[-1].append(number)
        elif match and groups:
            starts = groups.pop() + [number]
            branches = list(zip(starts, starts[1:]))
            if any(a < line < b for a, b in branches):
                found += [(a, b) for a, b in branches if not a < line < b]
    return found

_dead_lines = per_file({})


def never_compiled(file, line):
    """The line of the #if whose dead branch holds LINE of FILE, or None:
    #if 0 or the #else of #if 1."""
    if file not in _dead_lines:
        lines = code_text(file).split("\n")
        _dead_lines[file] = [dead for dead, _ in dead_branches(lines)]
    return _dead_lines[file][line - 1]


def why_never_compiled(file, branch):
    test = re.sub(r"\s+", " ", code_text(file).split("\n")[branch - 1].strip())
    return "in the branch of the %s at line %d that is never compiled" % (test, branch)

# Where inserted code lands (a wrapper, the mutex, a header) must be
# compiled in every configuration in which something uses it.
BRANCH = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")


def conditionals_at(file, line):
    """The #if blocks open at LINE, outermost first, each as (line of its
    #if, how many #elif/#else of it came before LINE)."""
    stack = []
    for number, text in enumerate(source_lines(file)[:line - 1], 1):
        match = BRANCH.match(text)
        if not match:
            continue
        if match.group(1) in ("if", "ifdef", "ifndef"):
            stack.append((number, 0))
        elif match.group(1) == "endif":
            if stack:
                stack.pop()
        elif stack:
            stack[-1] = (stack[-1][0], stack[-1][1] + 1)
    return tuple(stack)


def encloses(file, site, uses):
    """Whether code at line SITE is compiled wherever each line of USES is."""
    around = conditionals_at(file, site)
    return all(conditionals_at(file, use)[:len(around)] == around for use in uses)

GUARD = re.compile(r"\s*#\s*ifndef\s+(\w+)\s*$")


def is_guard(file, line):
    """Whether the #if at LINE is an include guard (#ifndef X, #define X)."""
    lines = source_lines(file)
    match = GUARD.match(lines[line - 1])
    rest = [l for l in lines[line:line + 3] if l.strip()]
    return bool(match and rest and
                re.match(r"\s*#\s*define\s+%s\b" % match.group(1), rest[0]))


def outside_ifs(file, line):
    """Whether LINE is inside no #if but include guards: spatch adds
    nothing after an include inside one."""
    return all(not branches and is_guard(file, at)
               for at, branches in conditionals_at(file, line))
