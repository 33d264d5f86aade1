"""The variables a top-level declaration declares.

A name declared as a variable in what the prover read is no macro: an
object-like macro of that name, defined before the declaration, would
have left the declaration without a name, and the file would not
compile.  So a variable of the file or of a header read, standing alone
as a condition under the lock (`if (busy)`, `switch (mode)`), hides no
return, as a function with a prototype does not.
"""

from ioctl_rework.lockproof.lexer import Token

_TAGS = frozenset({"struct", "union", "enum"})
_NOT_DECLARATIONS = frozenset({"typedef", "#"})


def declared_variables(tokens: list[Token]) -> list[str]:
    """The names the declaration TOKENS (up to, not including, its `;` or
    the `{` of its initializer) declares as variables: the last name of
    each declarator before its `=` or its array bounds, and before the
    kernel's annotation words (`__initdata`, `__read_mostly`).  [] for a typedef,
    a function, a tag alone (`struct x;`) or anything with no type before
    the name."""
    if any(t.text in _NOT_DECLARATIONS and t.kind != "string" for t in tokens):
        return []
    names, declarator, depth, first = [], [], 0, True
    for token in tokens + [None]:
        if token is not None and (token.is_("(") or token.is_("[")):
            depth += 1
        elif token is not None and (token.is_(")") or token.is_("]")):
            depth -= 1
        if token is not None and not (depth == 0 and token.is_(",")):
            declarator.append(token)
            continue
        name = _declarator_name(declarator, first)
        if name is None:
            return []           # a function, a cast, a macro call: not a variable list
        names.append(name)
        declarator, first = [], False
    return names


def _declarator_name(tokens: list[Token], first: bool) -> str | None:
    head = []
    depth = 0
    for token in tokens:
        if depth == 0 and token.is_("="):
            break
        if token.is_("("):
            return None         # int (*fn)(void), DEFINE_MUTEX(x): leave them to others
        depth += token.is_("[") - token.is_("]")
        if depth == 0 and not token.is_("]"):
            head.append(token)
    while head and head[-1].kind != "ident":
        head.pop()
    while len(head) > 2 and head[-1].text.startswith("__"):
        head.pop()              # a section or attribute word after the name: __initdata
    if not head or (first and len(head) < 2) or len(head) >= 2 and head[-2].text in _TAGS:
        return None
    return head[-1].text
