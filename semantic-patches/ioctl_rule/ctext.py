"""C text as text: comments, strings and character constants blanked, the
patterns of identifiers, directives and attributes, and which types an int
holds.  Pure functions of strings: nothing here knows the file being
converted."""

import re

# One copy with the wrappers: comments, strings and character constants
# (NOT_CODE), code_only(), which blanks them keeping lines, and
# closing_or_none(), the bracket that closes another.
from ioctl_rework.ctext.spans import NOT_CODE, closing_or_none, code_only  # noqa: F401


PREPROCESSOR = re.compile(r"\s*#")
# Spelled apart: SmPL would read a comment opener here as one.
COMMENT_START, COMMENT_END, LINE_COMMENT = "/" "*", "*" "/", "/" "/"
INT = {"int", "signed", "signed int"}
# Types whose every value an int holds: such a local is returned as it is.
# A local of any other arithmetic type goes through the int temporary.
INT_FITS = INT | {"short", "short int", "signed short", "signed short int", "unsigned short",
                  "unsigned short int", "char", "signed char", "unsigned char", "s8", "s16",
                  "s32", "u8", "u16", "__s8", "__s16", "__s32", "__u8", "__u16", "int8_t",
                  "int16_t", "int32_t", "uint8_t", "uint16_t", "bool", "_Bool"}
# Returned from a long function such a value is zero-extended where the
# legacy int function gave a negative errno: it is returned as (int)x.
UNSIGNED_INT = {"unsigned", "unsigned int", "u32", "__u32", "uint32_t", "u_int32_t",
                "uint", "u_int"}
QUALIFIERS = re.compile(r"\b(const|volatile|register|auto)\b")


def plain_type(t):
    return " ".join(QUALIFIERS.sub(" ", t).split())


def fits_int(t):
    """Whether every value of type T is an int, or T is no arithmetic type."""
    t = plain_type(t)
    return t in INT_FITS or "*" in t or re.match(r"(struct|union)\b", t) is not None

INT_LITERAL = re.compile(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
NEGATED_OR_PARENTHESIZED = re.compile(r"^\s*(?:-|\()\s*(.*?)\s*\)?\s*$", re.DOTALL)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")

# A preprocessor directive with its continuation lines.
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)

# Attributes a declaration may carry: __initdata, __pmacdata,
# __attribute__((unused)), ____cacheline_aligned.
ATTRIBUTE = r"(?<!\w)__\w+\s*(?:\(\s*\([^()]*\)\s*\)|\([^()]*\))?\s*"
ATTRIBUTES = "(?:" + ATTRIBUTE + ")*"

CASE_LABEL = re.compile(r"\b(case\b|default\s*:)")
