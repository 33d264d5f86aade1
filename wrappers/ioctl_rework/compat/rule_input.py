"""The text the facts rule is given: the file with the bodies blanked of
the functions the rule reads nothing of.

The rule reports facts only of the handlers a file_operations names
(`.unlocked_ioctl = foo_ioctl`, `ioctl: foo_ioctl`), or of the callees it
is asked about, but spatch parses every function of the file and matches
its ~30 rules against each.  What a body of another function can change
is one thing, the rule's set of alias names, which it keeps per file by
name (`p = (T)arg` in any function makes `p` an alias in the handler
too): a body that names a handler's last parameter, or a name that may
become an alias from it, is kept.  Every other body whose shape is
certain is blanked, its newlines kept, so every line and column of what
is left stays where it was.  Where the shape is not certain (a directive
inside the body, a declarator that is not `NAME(...)`, braces that do
not balance, a handler whose definition is not read here or whose name
a macro pastes, a body that sets an ioctl member) the body is kept: a body
kept costs time, a handler blanked would lose its facts.  The #include
lines go too: spatch reads no header here.
"""

import re

from ioctl_rework.ctext import spans as c_spans

_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.MULTILINE)
# spatch reads no header (--no-includes), yet holds each #include line as
# one more top-level element that every rule is matched against.
_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include\b", re.MULTILINE)
_INCLUDED = re.compile(r"[ \t]*(?:<[^>\n]*>|\"[^\"\n]*\")")
_NAME_BEFORE_PARAMETERS = re.compile(r"^(?:\s*[A-Za-z_]\w*|\s*\*)*?\s*\b([A-Za-z_]\w*)\s*$")
# After the parameters: nothing but the kernel's attributes (`__acquires(x)`,
# `__attribute__((x))`); another word may be the next declaration's.
_AFTER_PARAMETERS = re.compile(r"^(?:\s*__\w*(?:\s*\((?:[^(){};=]|\([^(){};=]*\))*\))?)*\s*$")
# Where the entry rules find a handler, and more (the member in any
# structure): every name of the value counts, a cast's too (spatch's
# drop_cast isomorphism reads `(T)foo_ioctl` as foo_ioctl).
_ENTRY = re.compile(r"\b(?:unlocked_)?ioctl\s*[=:]")
_TAG = re.compile(r"\b(?:struct|union|enum)\s+\w+")
# The last parameter's words but these: its name among them, wherever an
# attribute puts it (`unsigned long arg __maybe_unused`).
_C_TYPE_WORDS = frozenset({"unsigned", "signed", "long", "int", "short", "char", "void",
                           "const", "volatile", "struct", "union", "__user"})
_WORD = re.compile(r"[A-Za-z_]\w*")
# A body that may hold a file_operations of its own (the entry rules match
# a local one too) is kept.
_MAY_NAME_A_HANDLER = re.compile(r"\b(?:unlocked_)?ioctl\s*[:=]")
_NOT_NAMES = frozenset({"__attribute__", "if", "while", "for", "switch", "return", "sizeof",
                        "typeof", "__typeof__", "asm", "__asm__"})


_BRACE_OR_END = re.compile(r"[{};]")


def _spaces(text: str) -> str:
    """TEXT as spaces, its newlines kept."""
    return re.sub(r"[^\n]", " ", text)


def _function_name(header: str) -> tuple[str, frozenset[str]] | None:
    """(NAME, the words of its last parameter) of a header `specifiers
    NAME(parameters) attributes`, None for any other shape (an
    initializer, a structure, a declarator in parentheses, K&R)."""
    if "=" in header:
        return None
    open_at = header.find("(")
    if open_at < 0:
        return None
    named = _NAME_BEFORE_PARAMETERS.match(header[:open_at])
    close_at = c_spans.closing(header, open_at, "()")
    if (named is None or named.group(1) in _NOT_NAMES or header[close_at] != ")"
            or not _AFTER_PARAMETERS.match(header[close_at + 1:])):
        return None
    last = c_spans.split_top_level(header[open_at + 1:close_at])[-1]
    return named.group(1), frozenset(_WORD.findall(last)) - _C_TYPE_WORDS


def function_bodies(text: str) -> list[tuple[str, frozenset[str], int, int]] | None:
    """(name, words of its last parameter, "{" offset, "}" offset) of each function
    definition at file scope whose shape is certain; None when the braces
    do not balance."""
    code = _DIRECTIVE.sub(lambda m: _spaces(m.group()), c_spans.code_only(text))
    found, start, at = [], 0, 0
    while True:
        match = _BRACE_OR_END.search(code, at)
        if match is None:
            return found
        at = match.start()
        if code[at] == "}":
            return None
        if code[at] == ";":
            start = at = at + 1
            continue
        end = c_spans.closing(code, at)
        if code[end] != "}":
            return None
        named = _function_name(code[start:at])
        if named is not None:
            found.append((*named, at, end))
        start = at = end + 1


def words_outside_bodies(text: str) -> frozenset[str] | None:
    """The words of TEXT's code outside the bodies of its functions, those
    of every directive included: a function definition spatch can find
    names the function there (a macro that writes one, too).  None when
    the bodies cannot be told apart."""
    bodies = function_bodies(text)
    if bodies is None:
        return None
    code = c_spans.code_only(text)
    outside, done = [], 0
    for _, _, open_at, close_at in bodies:
        outside.append(code[done:open_at])
        done = close_at + 1
    outside.append(code[done:])
    outside += _DIRECTIVE.findall(code)
    return frozenset(_WORD.findall("\n".join(outside)))


def _value(code: str, start: int) -> str:
    """The text from START of CODE to the first "," ";" or "}" outside
    parentheses: an initializer's value."""
    depth = 0
    for at in range(start, len(code)):
        if code[at] in "([":
            depth += 1
        elif code[at] in ")]":
            depth -= 1
        elif code[at] in ",;}" and depth <= 0:
            return code[start:at]
    return code[start:]


def _alias_names(code: str, parameters: set[str]) -> set[str]:
    """Every name set from one of PARAMETERS, cast or not, and from those
    in turn: more than the rule's aliases (`p = (T)arg`, `T *q = p;`)."""
    found: set[str] = set()
    todo = set(parameters)
    while todo:
        name = todo.pop()
        for match in re.finditer(r"\b([A-Za-z_]\w*)\s*=\s*(?:\((?:[^()]|\([^()]*\))*\)\s*)*"
                                 rf"\(?\s*{re.escape(name)}\b", code):
            if match.group(1) not in found | parameters:
                found.add(match.group(1))
                todo.add(match.group(1))
    return found


def for_rule(text: str, listed: tuple[str, ...] = ()) -> str:
    """TEXT with the bodies blanked that the rule reads nothing of: of
    functions that are neither a handler its entries name nor LISTED (the
    callees it is asked about, which leave the entries out), and that name
    none of their last parameters nor what may become an alias of one."""
    bodies = function_bodies(text) or []
    code = c_spans.code_only(text)
    handlers = set(listed) if listed else {
        name for entry in _ENTRY.finditer(code)
        for name in _WORD.findall(_TAG.sub(" ", _value(code, entry.end())))} - _C_TYPE_WORDS
    # A handler named through a macro of the file: every name of its text.
    macros = set()
    for define in _DIRECTIVE.finditer(code):
        named = re.match(r"\s*#\s*define\s+(\w+)", define.group())
        if named is not None and named.group(1) in handlers:
            macros.add(named.group(1))
            handlers |= set(_WORD.findall(define.group(), named.end()))
    defined = {name for name, _, _, _ in bodies}
    # A handler named more than once may be defined in a shape not read
    # here: whose parameters are not known.
    unread = [name for name in handlers - defined - macros
              if len(re.findall(rf"\b{re.escape(name)}\b", code)) > 1]
    parameters = {word for name, words, _, _ in bodies if name in handlers for word in words}
    read = parameters | _alias_names(code, parameters)
    directives = [m.start() for m in _DIRECTIVE.finditer(code)]
    blanked = [(open_at + 1, close_at) for name, _, open_at, close_at in bodies
               if name not in handlers and not unread
               and not any(open_at < d < close_at for d in directives)
               and not _MAY_NAME_A_HANDLER.search(code, open_at, close_at)
               and not read & set(_WORD.findall(code, open_at, close_at))]
    for include in _INCLUDE.finditer(code):
        named = _INCLUDED.match(text, include.end())
        if named is not None:
            blanked.append((include.start(), named.end()))
    pieces, done = [], 0
    for start, end in sorted(blanked):
        pieces += [text[done:start], _spaces(text[start:end])]
        done = end
    return "".join(pieces) + text[done:]
