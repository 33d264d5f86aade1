"""The structure a member named ioctl is taken from, proven from declarations.

`gadget->ops->ioctl(gadget, code, value)` calls through a usb_gadget_ops,
not a file_operations, when `gadget` is declared `struct usb_gadget *`
and the body of struct usb_gadget, read from the file or a header it
includes, declares `const struct usb_gadget_ops *ops`.  Such a site is no
forwarding call: a conversion cannot leave it with a NULL member.

Default-deny: the proof holds only when every step is read.  The object
is a plain chain of names, `.`, `->` and subscripts (no cast, call or
parenthesis); its first name has a declaration in scope (the innermost
block, the parameters, then file scope: the file and its headers), every
declaration found there agrees, and nothing there that may declare it
goes unread (a statement that is a call holding the name among its
arguments, any position, any case, after qualifiers too, may be a macro
declaring it: unread unless the callee is a function whose prototype or
definition is read; in a block, a statement made of one name alone,
`SETUP();` or `SETUP;`, may too unless it is a function read or a macro
whose expansion neither spells the name nor pastes; a declarator in
grouping parentheses, after an attribute or a struct body is not read);
each struct in the chain has a body read, whose member has
one declared type; a typedef'd name counts only when its typedef is read
and no typedef of it is not (another form, an attribute, inside a block);
no name of the chain is a macro (a #define read, or a kbuild -D/-U of
the flags that apply to the file), and no kbuild flag that applies to the
file forces in a header (-include, -imacros) or is not expanded.  Proven
only when the last struct is not file_operations, is no macro, and its body declares the member ioctl.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.ctext import header_cache, include_search, ioctl_tokens, spans

# Qualifiers and kernel annotations a declaration may carry.
_QUALIFIER = (r"(?:const|volatile|static|extern|register|auto|__user|__iomem|__kernel|"
              r"__rcu|__percpu|__force|__read_mostly|__initdata|__devinitdata|__exitdata|"
              r"__cpuinitdata|__maybe_unused|__used|__attribute_used__|__unused)")
_SPEC = r"(struct\s+\w+|union\s+\w+|enum\s+\w+|(?:(?:unsigned|signed|short|long)\s+)*\w+)"
_KEYWORDS = {"return", "case", "sizeof", "goto", "else", "do", "typedef", "struct", "union",
             "enum", "if", "while", "for", "switch", "break", "continue", "default"}
# C's own type words: `int (*hook)(...)` is a declaration, never a call.
_TYPE_WORDS = {"void", "char", "short", "int", "long", "float", "double", "signed",
               "unsigned", "_Bool"}
# The calls a conversion writes into a handler: kernel functions (or empty
# macros) on every target, declaring nothing, whose header a scratch or
# partial tree may not hold.
_CONVERSION_CALLS = {"lock_kernel", "unlock_kernel", "mutex_lock", "mutex_unlock"}
_MEMBER = re.compile(r"(?:\.|->)\s*ioctl\b")
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.M)
_DEFINITION = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?(.*)$", re.M)
_TYPEDEF = re.compile(
    rf"(?:\A|(?<=[;{{}}]))\s*typedef\s+(?:{_QUALIFIER}\s+)*{_SPEC}\s*(?:\{{\}})?\s*"
    rf"(?:{_QUALIFIER}\s+)*(\**)\s*(\w+)\s*;")
_STRUCT_BODY = re.compile(r"\bstruct\s+(\w+)\s*\{")
_IOCTL_MEMBER = re.compile(r"\(\s*\*\s*ioctl\s*\)\s*\(|[\s*]ioctl\s*(?:\[[^\]]*\]\s*)*[;,]")


@dataclass(frozen=True)
class Corpus:
    """The texts a file's names are declared in: the file's own (FILE, its
    path) and those of the headers it includes, path -> code."""

    file: str
    texts: dict
    flag_names: frozenset = frozenset()   # names a kbuild -D/-U of the file (re)defines
    unread_flags: tuple = ()              # -include/-imacros, unexpanded flags: nothing proven

    @functools.cached_property
    def macros(self) -> frozenset:
        """Names a macro may stand for: the #defines read and the kbuild
        -D/-U names (no step of a proof may be one)."""
        return self.flag_names | frozenset(
            name for text in self.texts.values() for name in _DEFINE.findall(text))

    @functools.cached_property
    def _prepared(self) -> dict:
        return {path: _prepare(text) for path, text in self.texts.items()}

    @functools.cached_property
    def typedefs(self) -> dict:
        """typedef name -> the set of (spec, stars) it is written as."""
        found: dict = {}
        for code in self._prepared.values():
            for spec, stars, name in _TYPEDEF.findall(_top_level(code)):
                found.setdefault(name, set()).add(" ".join(spec.split()))
        return found

    @functools.cached_property
    def pointer_typedefs(self) -> frozenset:
        """The typedef names read as a pointer (`typedef struct x *x_p;`)
        in any typedef of them."""
        return frozenset(name for code in self._prepared.values()
                         for _, stars, name in _TYPEDEF.findall(_top_level(code)) if stars)

    @functools.cached_property
    def unread_typedef_words(self) -> frozenset:
        """The words a typedef statement not read may declare (its parameter
        lists left out): one at file scope in a form _TYPEDEF does not take,
        or any inside braces (a block's type name hides the file's)."""
        words = set()
        for path, code in self._prepared.items():
            for piece in self.file_scope[path].split(";"):
                statement = re.search(r"(?:\A|\})\s*(typedef\b.*)\Z", piece, re.S)
                if statement and _TYPEDEF.match(statement[1] + ";") is None:
                    words.update(_declared_words(statement[1]))
            depth = 0
            for match in re.finditer(r"[{}]|\btypedef\b[^;{}]*", code):
                if match.group() in "{}":
                    depth += 1 if match.group() == "{" else -1
                elif depth > 0:
                    words.update(_declared_words(match.group()))
        return frozenset(words)

    @functools.cached_property
    def bodies(self) -> dict:
        """struct tag -> the bodies read for it (their member declarations
        only: nested braces emptied)."""
        found: dict = {}
        for code in self._prepared.values():
            for match in _STRUCT_BODY.finditer(code):
                close = spans.closing(code, match.end() - 1)
                found.setdefault(match.group(1), []).append(
                    _flatten(code[match.end():close], "{}"))
        return found

    @functools.cached_property
    def file_scope(self) -> dict:
        """path -> its top-level text (braces emptied)."""
        return {path: _top_level(code)
                for path, code in self._prepared.items()}

    def function_read(self, name: str) -> bool:
        """Whether NAME is a function whose prototype or definition is read
        (a type before it, a parameter list after; 2.6's `extern void
        FASTCALL(lock_sock(struct sock *sk));` too) and no macro."""
        return name not in self.macros and any(
            (re.search(rf"[\w*]\s*(?<![\w]){re.escape(name)}\s*\([^;{{}}]*\)\s*(?:;|\{{)", scope)
             or re.search(rf"\b(?:FASTCALL|fastcall)\s*\(\s*{re.escape(name)}\s*\([^;{{}}()]*\)"
                          rf"\s*\)\s*;", scope))
            and re.search(rf"(?:\A|[;{{}}])\s*{re.escape(name)}\s*\(", scope) is None
            for scope in self.file_scope.values())

    def expands_to_a_call(self, name: str) -> bool:
        """Whether every #define of NAME read expands to nothing or to a call
        of a function read with its one argument as the argument list: the
        2.6 debug idiom `#define dprintk(x) printk x` (else empty), called
        `dprintk((KERN_INFO "%p", dev))`.  A function's name followed by
        tokens declares nothing, whatever they are."""
        bodies = self.define_bodies.get(name)
        if not bodies:
            return False
        for parameters, body in bodies:
            body = body.strip()
            if body == "" or re.fullmatch(r"do\s*\{\s*\}\s*while\s*\(\s*0\s*\)", body):
                continue
            call = re.fullmatch(r"([A-Za-z_]\w*)\s+([A-Za-z_]\w*)", body)
            if call is None or call.group(2) not in parameters or len(parameters) != 1 or \
                    call.group(1) in self.define_bodies or not self.function_read(call.group(1)):
                return False
        return True

    @functools.cached_property
    def define_bodies(self) -> dict:
        """macro name -> [(its parameters, its body)] for every #define read."""
        found: dict = {}
        for text in self.texts.values():
            for match in _DEFINITION.finditer(spans.code_only(text).replace("\\\n", "  ")):
                parameters = set(re.findall(r"\w+", match.group(2) or ""))
                found.setdefault(match.group(1), []).append((parameters, match.group(3)))
        return found

    def macro_may_declare(self, callee: str, name: str) -> bool:
        """Whether a statement made of CALLEE alone (`SETUP;`, `SETUP(a);`,
        its arguments not naming NAME) may declare NAME: CALLEE is neither
        a function nor a macro read, or its expansion (through the macros
        it uses, any depth) spells NAME, pastes tokens (`a##b`; GNU's
        `, ## args` pastes nothing) or uses a kbuild -D/-U name."""
        if callee in self.flag_names:
            return True
        if callee not in self.define_bodies:
            return callee not in _CONVERSION_CALLS and not self.function_read(callee)
        words = self._expansion_words(callee)
        return words is None or name in words or bool(words & self.flag_names)

    def _expansion_words(self, macro: str) -> frozenset | None:
        """The words MACRO's bodies and those of the macros they use spell
        (their parameters left out); None when one pastes tokens."""
        memo = self.__dict__.setdefault("_expansions", {})
        if macro not in memo:
            words, todo, seen = set(), [macro], {macro}
            while todo and words is not None:
                for parameters, body in self.define_bodies.get(todo.pop(), []):
                    if "##" in re.sub(r",\s*##", ",", body):
                        words = None
                        break
                    used = set(re.findall(r"[A-Za-z_]\w*", body)) - parameters
                    words |= used
                    todo += [word for word in used - seen if word in self.define_bodies]
                    seen |= used
            memo[macro] = None if words is None else frozenset(words)
        return memo[macro]

    @property
    def code(self) -> str:
        return self._prepared[self.file]


def corpus(root: Path | None, rel: str, text: str,
           one_pass: include_search.Pass | None = None) -> Corpus:
    """The Corpus of REL (TEXT, its text in the run) and the headers it
    includes, found as the compiler finds them under ROOT (a tree's include
    paths, the directory's kbuild -I) with the kbuild flags that apply to
    it (a -D/-U name may stand for anything; a header forced in by
    -include/-imacros, or a flag not expanded, leaves nothing proven);
    ROOT None: the file alone.  ONE_PASS: the caller's include_search.Pass,
    when it reads several files."""
    texts = {rel: text}
    if root is None:
        return Corpus(rel, texts)
    headers = include_search.read_headers(root, rel, one_pass=one_pass)
    texts.update((path, header) for path, header in headers.texts.items() if path != rel)
    flags = include_search.kbuild_flags(root, rel)
    return Corpus(rel, texts, frozenset(flags.named),
                  flags.forced + flags.unexpanded + headers.search.unexpanded)


def other_structures(corpus: Corpus, line: int) -> set[str] | None:
    """The structures every member named ioctl on LINE (1-based) of the
    corpus's file is proven to be taken from, none of them a
    file_operations; None when any is not proven (or there is none)."""
    code = corpus.code
    lines = code.split("\n")
    if not 0 < line <= len(lines):
        return None
    start = sum(len(text) + 1 for text in lines[:line - 1])
    found = set()
    for match in _MEMBER.finditer(lines[line - 1]):
        structure = structure_of(corpus, start + match.start())
        if structure is None:
            return None
        found.add(structure)
    return found or None


def only_other_structures(corpus: Corpus) -> bool:
    """Whether every call, test or copy of a member named ioctl in the
    corpus's file (not an initializer's entry nor an assignment to it) is
    proven to be taken from another structure than a file_operations: a
    member spelled through a macro, or in one's body, is not."""
    text = corpus.texts[corpus.file]
    for token in ioctl_tokens.tokens(text):
        if token.use in (ioctl_tokens.Use.ENTRY, ioctl_tokens.Use.ASSIGNMENT):
            continue
        if token.alias or token.macro or token.spliced or \
                not other_structures(corpus, token.line):
            return False
    return True


def contested(corpus: Corpus, line: int) -> bool:
    """Whether what the file alone says of a member named ioctl on LINE
    (its object declared another structure's) may not be what the compiler
    sees: a kbuild flag forces in a header or is not expanded, a -D/-U of
    the file's flags names a step of its object (a name, a member, the
    declared type, a typedef to it), or the object is a plain name whose
    declaration in scope is not read (a macro call may declare it)."""
    code = corpus.code
    lines = code.split("\n")
    if not 0 < line <= len(lines):
        return True
    start = sum(len(text) + 1 for text in lines[:line - 1])
    for match in _MEMBER.finditer(lines[line - 1]):
        if corpus.unread_flags:
            return True
        chain = _chain(code, start + match.start())
        if chain is None:
            continue                    # no plain chain: not the file's proof to contest
        base, base_at, members = chain
        spec = _declared(corpus, base, base_at)
        named, followed = {base, *members}, set()
        # FOLLOWED ends a cycle: `typedef struct ctl_table ctl_table;` leads
        # back to "struct ctl_table", a spec of two words NAMED never holds.
        while spec is not None and spec not in followed and len(named) < 16:
            followed.add(spec)
            named |= set(spec.split())
            targets = corpus.typedefs.get(spec.split()[-1], set())
            spec = _one(targets) if len(targets) == 1 and _one(targets) not in named else None
        if named & corpus.flag_names or not members and _declared(corpus, base, base_at) is None:
            return True
    return False


def typedef_structure(corpus: Corpus, name: str) -> str | None:
    """The struct tag the type name NAME (`snd_pcm_ops_t`) is proven to be:
    through typedefs read in the file or its headers, every one of them
    agreeing, none a pointer, no name on the way a macro; None otherwise."""
    if corpus.unread_flags:
        return None         # a header forced in, or a flag not expanded, by kbuild
    spec, seen = name, set()
    while spec not in seen and len(seen) < 8:
        seen.add(spec)
        words = spec.split()
        if any(word in corpus.macros for word in words):
            return None
        if words[0] == "struct" and len(words) == 2:
            return words[1]
        if len(words) != 1 or spec in corpus.pointer_typedefs or _unread_typedef(corpus, spec):
            return None
        targets = corpus.typedefs.get(spec, set())
        if len(targets) != 1:
            return None
        spec = next(iter(targets))
    return None


def _unread_typedef(corpus: Corpus, name: str) -> bool:
    """Whether a typedef statement of the file or its headers names NAME
    in a form not read (`typedef struct x name, *name_p;`, a function type,
    an attribute) or inside a block (a type name of the block, hiding the
    file's)."""
    return name in corpus.unread_typedef_words

def other_typedef_structure(corpus: Corpus, name: str) -> str | None:
    """The struct tag of the type name NAME, when proven (typedef_structure)
    no file_operations and its body read declares a member ioctl: an
    initializer `NAME x = { .ioctl = ... }` sets no entry of a file_operations."""
    structure = typedef_structure(corpus, name)
    if structure is None or structure == "file_operations" or \
            not declares_ioctl(corpus, structure):
        return None
    return structure


def declares_ioctl(corpus: Corpus, structure: str) -> bool:
    """Whether every body read of STRUCTURE declares a member ioctl (and one is read)."""
    bodies = corpus.bodies.get(structure, [])
    return bool(bodies) and all(_IOCTL_MEMBER.search(body) for body in bodies)


def structure_of(corpus: Corpus, at: int) -> str | None:
    """The struct tag the member whose `.` or `->` is at offset AT of the
    corpus's file is proven to be taken from, when it is not
    file_operations; else None."""
    code = corpus.code
    chain = _chain(code, at)
    if chain is None or corpus.unread_flags:
        return None
    base, base_at, members = chain
    names = {base, *members}
    if names & corpus.macros:
        return None
    structure = _struct_of(corpus, _declared(corpus, base, base_at))
    for member in members:
        structure = _struct_of(corpus, _member_spec(corpus, structure, member))
    if structure is None or structure == "file_operations" or structure in corpus.macros:
        return None
    return structure if declares_ioctl(corpus, structure) else None


def _chain(code: str, at: int) -> tuple[str, int, list[str]] | None:
    """The object before the member at AT: (its first name, where that name
    is, the members after it), when it is only names, `.`, `->` and
    subscripts; else None (a cast, a call, a parenthesis)."""
    members: list[str] = []
    i = at
    while True:
        j = i
        while j > 0 and code[j - 1].isspace():
            j -= 1
        while j > 0 and code[j - 1] == "]":
            depth = 0
            while j > 0:
                j -= 1
                depth += (code[j] == "]") - (code[j] == "[")
                if depth == 0:
                    break
            if depth:
                return None
            while j > 0 and code[j - 1].isspace():
                j -= 1
        name = re.search(r"[A-Za-z_]\w*$", code[max(0, j - 200):j])
        if name is None:
            return None
        begin = j - len(name.group())
        if begin and re.match(r"\w", code[begin - 1]):
            return None
        k = begin
        while k > 0 and code[k - 1].isspace():
            k -= 1
        if code[max(0, k - 2):k] == "->" or code[k - 1:k] == "." and code[k - 2:k - 1] != ".":
            members.insert(0, name.group())
            i = k - (2 if code[k - 2:k] == "->" else 1)
            continue
        if name.group() in _KEYWORDS:
            return None
        return name.group(), begin, members


def _declared(corpus: Corpus, name: str, at: int) -> str | None:
    """The type NAME has where it is used at offset AT of the file: the
    declarations of the innermost scope that has any, when they agree and
    nothing there that may declare it goes unread; None otherwise."""
    code = corpus.code
    inner = at
    brace = spans.enclosing_brace(code, at)
    while brace is not None:
        found = _in_region(_flatten(code[brace + 1:inner], "{}"), name,
                           lambda callee: corpus.function_read(callee) or
                           corpus.expands_to_a_call(callee),
                           corpus.macro_may_declare)
        if found is not None:
            return _one(found)
        if _function_body(code, brace):
            found = _parameters(code, brace, name)
            if found is not None:
                return _one(found)
            break                # the parameters' scope ends; file scope is next
        inner, brace = brace, spans.enclosing_brace(code, brace)
    specs: set[str] = set()
    for scope in corpus.file_scope.values():
        found = _in_region(scope, name, corpus.function_read)
        if found is not None:
            specs |= found
    return _one(specs) if specs else None


def _function_body(code: str, brace: int) -> bool:
    """Whether the `{` at BRACE opens a function's body: after `name(...)`
    that is no statement (if, while, for, switch) nor a function-like macro
    of a statement; or K&R declarations after one."""
    head = code[:brace].rstrip()
    if not head.endswith(")"):
        return bool(re.search(r"\)\s*(?:[^;{}()]*;)+$", head)) and \
            spans.enclosing_brace(code, brace) is None
    open_at = _opening(head)
    called = re.search(r"(\w+)\s*$", head[:open_at])
    return bool(called) and called.group(1) not in _KEYWORDS and \
        re.search(r"[;{}]\s*$", head[:called.start()]) is None


def _opening(head: str) -> int:
    """Where the `(` that the `)` ending HEAD closes is."""
    depth, open_at = 0, len(head) - 1
    while open_at > 0:
        depth += (head[open_at] == ")") - (head[open_at] == "(")
        if depth == 0:
            break
        open_at -= 1
    return open_at


def _parameters(code: str, brace: int, name: str) -> set | None:
    """NAME's declarations in the parameters of the function whose body
    opens at BRACE: None when none names it."""
    head = code[:brace].rstrip()
    if not head.endswith(")"):
        # K&R declarations between `)` and `{`: not read.
        tail = head[head.rfind(")") + 1:]
        return {None} if re.search(rf"\b{re.escape(name)}\b", tail) else None
    open_at = _opening(head)
    found = set()
    for parameter in spans.split_top_level(head[open_at + 1:-1]):
        if not re.search(rf"\b{re.escape(name)}\b", parameter):
            continue
        match = re.fullmatch(
            rf"\s*(?:{_QUALIFIER}\s+)*{_SPEC}(?:\s+{_QUALIFIER})*\s*[\s*]\s*"
            rf"(?:\*\s*|{_QUALIFIER}\s+)*{re.escape(name)}\s*(?:\[[^\]]*\]\s*)*",
            parameter)
        found.add(" ".join(match.group(1).split()) if match else None)
    return found or None


_LABEL = re.compile(r"\s*(?:(?:case\b[^:]*|default|[A-Za-z_]\w*)\s*:(?!:))*")
_LEADING_QUALIFIERS = re.compile(rf"\s*(?:{_QUALIFIER}\s+)*")
_MEMBER_AFTER = re.compile(r"\s*(?:->|\.(?!\.))")


def _statement(piece: str) -> str:
    """PIECE without its labels, a for's `for (` (its init is a statement)
    and its leading qualifiers (`static M(x)` is M's statement)."""
    statement = piece[_LABEL.match(piece).end():]
    if re.match(r"\s*for\s*\(", statement):
        statement = statement[statement.index("(") + 1:]
    return statement[_LEADING_QUALIFIERS.match(statement).end():]


def _in_unread_call(statement: str, word: re.Pattern, function_read) -> bool:
    """Whether STATEMENT (from _statement) is a call (a function-like macro
    may be one: `grab(p)` or `static grab(p)` expanding to `struct x *p =
    ...`) holding the name in its arguments, at any position, whose callee
    is not a function read (FUNCTION_READ(callee) false): what it declares
    is not read."""
    call = re.match(r"\s*([A-Za-z_]\w*)\s*\(", statement)
    if call is None or call.group(1) in (_KEYWORDS | _TYPE_WORDS) - {"typedef"}:
        return False
    # The name followed by -> or . is no declarator whatever the macro makes
    # of it (`memcpy(lo->name, ...)`): C has no declarator with a member
    # operator after its name, and a macro cannot split its argument's tokens.
    return any(not _MEMBER_AFTER.match(statement[m.end():])
               for m in word.finditer(statement, call.end())) and \
        not function_read(call.group(1))


def _statement_macro(statement: str) -> str | None:
    """The name a STATEMENT (from _statement) is made of alone, bare or
    called (`SETUP;`, `SETUP(a, b);`): a macro there may declare any name."""
    called = re.match(r"\s*([A-Za-z_]\w*)\s*", statement)
    if called is None or called.group(1) in _KEYWORDS | _TYPE_WORDS:
        return None
    rest = statement[called.end():]
    if rest.startswith("("):
        rest = rest[spans.closing(rest, 0, "()") + 1:]
    return called.group(1) if not rest.strip() else None


def _hidden_declarator(statement: str, word: re.Pattern, after_body: bool = False) -> bool:
    """Whether STATEMENT (from _statement) is shaped as a declaration whose
    declarators spell the name where _declarators does not read them: in
    grouping parentheses (`struct x (*o);`, `*(o[2])`), after an attribute
    or a word not read, after a macro standing for the type (`TYPE() o;`),
    or in the declarator list after a struct body (AFTER_BODY)."""
    rest = statement
    if not after_body:
        spec = re.match(r"\s*(?:(?:struct|union|enum)\s+\w+|[A-Za-z_]\w*)", statement)
        if spec is None or spec.group().split()[0] in _KEYWORDS - {"struct", "union", "enum"}:
            return False
        rest = statement[spec.end():]
        if rest.lstrip().startswith("(") and spec.group().strip() not in _TYPE_WORDS and \
                len(spec.group().split()) == 1:
            at = rest.index("(")
            rest = rest[spans.closing(rest, at, "()") + 1:]     # M(...) o: a macro type
        if not re.match(r"\s*(?:[A-Za-z_(*])", rest):
            return False        # an assignment, a call, a member: an expression
    for declarator in spans.split_top_level(rest):
        if any(not _MEMBER_AFTER.match(_declarator_part(declarator)[m.end():])
               for m in word.finditer(_declarator_part(declarator))):
            return True
    return False


def _declarator_part(declarator: str) -> str:
    """DECLARATOR before its initializer, its parameter lists (a `(` after a
    name, `)` or `]`, each parameter typed) emptied: where a name is
    declared.  A list of bare names (`PTR(o)`) is a macro's arguments: kept."""
    depth = 0
    for i, char in enumerate(declarator):
        depth += (char in "([") - (char in ")]")
        if char == "=" and depth == 0:
            declarator = declarator[:i]
            break
    at = 0
    while (params := re.compile(r"[\w)\]]\s*\(").search(declarator, at)) is not None:
        close = spans.closing(declarator, params.end() - 1, "()")
        inside = declarator[params.end():close]
        if all(len(re.findall(r"\w+", part)) > 1 or "*" in part or
               part.strip() in ("", "void", "...") for part in spans.split_top_level(inside)):
            declarator = declarator[:params.end()] + declarator[close:]
        at = params.end()
    return declarator


def _in_region(region: str, name: str, function_read=lambda callee: False,
               macro_may_declare=None) -> set | None:
    """NAME's declarations in REGION (a scope's text, nested braces
    emptied), statement by statement: None when no statement may declare
    it; a set holding None for one that may and is not read.
    MACRO_MAY_DECLARE(callee, name), given for a block, says whether a
    statement made of a name alone (`SETUP();`) may declare NAME."""
    word = re.compile(rf"(?<![\w.>]){re.escape(name)}\b")
    found: set = set()
    pieces = re.split(r"([;{}])", region)
    for index in range(0, len(pieces), 2):
        piece = pieces[index]
        statement = _statement(piece)
        if not word.search(piece):
            callee = _statement_macro(statement)
            if macro_may_declare and callee and macro_may_declare(callee, name):
                found.add(None)  # SETUP(); a macro (or a name not read) declaring NAME
            continue
        after_body = index >= 2 and pieces[index - 1] == "}" and index >= 4 and \
            re.search(r"\b(?:struct|union|enum)(?:\s+\w+)?\s*$", pieces[index - 4]) is not None
        if _in_unread_call(statement, word, function_read) or after_body and \
                _hidden_declarator(statement, word, True) or \
                re.match(r"\s*(?:typeof|__typeof__|__typeof)\b", statement):
            found.add(None)      # DECLARE_WAITQUEUE(name, ...), typeof(x) *name: not read
            continue
        flat = _flatten(piece, "()")
        declared = _declarators(_flatten(statement, "()")) if word.search(flat) else None
        if declared is not None and name in declared[1]:
            found.add(declared[0])
        elif _hidden_declarator(statement, word):
            found.add(None)      # struct x (*name), TYPE() name: a declarator not read
        elif declared is None and word.search(flat) and \
                any(_may_declare(flat[:m.start()]) for m in word.finditer(flat)):
            found.add(None)
    return found or None


_PREFIX = re.compile(rf"\s*(?:{_QUALIFIER}\s+)*{_SPEC}(?:\s+{_QUALIFIER})*(?=[\s*])")
_DECLARATOR = re.compile(rf"\s*(?:\*\s*|{_QUALIFIER}\s+)*([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*"
                         rf"(?:{_QUALIFIER}\s*)*(?:=.*)?", re.S)


def _declarators(statement: str) -> tuple[str, list[str]] | None:
    """(type, the names declared) when STATEMENT (parentheses emptied) is a
    declaration: a type and declarators; else None."""
    prefix = _PREFIX.match(statement)
    if prefix is None or prefix.group(1).split()[0] in _KEYWORDS - {"struct", "union", "enum"}:
        return None
    names = []
    for declarator in spans.split_top_level(statement[prefix.end():]):
        match = _DECLARATOR.fullmatch(declarator)
        if match is None:
            return None
        names.append(match.group(1))
    return " ".join(prefix.group(1).split()), names


def _may_declare(before: str) -> bool:
    """Whether a name after BEFORE may be a declarator: after a type-like
    word, a `*` or a comma, not after a member operator or a keyword."""
    before = before.rstrip()
    if before.endswith(("->", ".")):
        return False
    if before.endswith(","):
        return True
    word = re.search(r"(\w+)\s*\**\s*$", before)
    return bool(word) and word.group(1) not in _KEYWORDS


def _declared_words(statement: str) -> set[str]:
    """The words of a declaration STATEMENT but those of its parameter
    lists (a parenthesis after a `)`), which declare nothing here."""
    while (params := re.search(r"\)\s*\(", statement)) is not None:
        close = spans.closing(statement, params.end() - 1, "()")
        statement = statement[:params.start() + 1] + statement[close + 1:]
    return set(re.findall(r"[A-Za-z_]\w*", statement))


def _one(specs: set) -> str | None:
    return next(iter(specs)) if len(specs) == 1 else None


def _member_spec(corpus: Corpus, structure: str | None, member: str) -> str | None:
    """The type MEMBER is declared with in every body read of STRUCTURE."""
    if structure is None or structure in corpus.macros:
        return None
    bodies = corpus.bodies.get(structure)
    if not bodies:
        return None
    specs = set()
    for body in bodies:
        found = _in_region(body, member)
        if not found:
            return None
        specs |= found
    return _one(specs)


def _struct_of(corpus: Corpus, spec: str | None, depth: int = 0) -> str | None:
    """The struct tag SPEC names, through typedefs read; None otherwise."""
    if spec is None or depth > 8:
        return None
    words = spec.split()
    if words[0] == "struct" and len(words) == 2:
        return None if words[1] in corpus.macros else words[1]
    if len(words) != 1 or spec in corpus.macros or _unread_typedef(corpus, spec):
        return None
    targets = corpus.typedefs.get(spec, set())
    return _struct_of(corpus, _one(targets), depth + 1) if len(targets) == 1 else None


@header_cache.by_content     # the same headers come with every file of a run
def _prepare(text: str) -> str:
    """TEXT's code (comments, literals blanked) with each preprocessor line
    made a `;`, offsets and lines kept: a directive ends a declaration."""
    lines = spans.code_only(text).split("\n")
    dead = spans.dead_branches(lines)
    code = "\n".join(" " * len(line) if where else line
                     for line, (where, _) in zip(lines, dead))
    return _DIRECTIVE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()).replace(" ", ";", 1)
                          if m.group().strip() else m.group(), code)


@header_cache.by_content
def _top_level(code: str) -> str:
    """CODE's file scope: the text inside each outermost {} removed."""
    return _flatten(code, "{}")


def _flatten(code: str, pair: str) -> str:
    """CODE with the text inside each outermost PAIR ("{}", "()") removed."""
    out, depth, at = [], 0, 0
    for match in re.finditer(re.escape(pair[0]) + "|" + re.escape(pair[1]), code):
        if match.group() == pair[0]:
            if depth == 0:
                out.append(code[at:match.end()])
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                at = match.start()
    out.append(code[at:] if depth == 0 else "")
    return "".join(out)
