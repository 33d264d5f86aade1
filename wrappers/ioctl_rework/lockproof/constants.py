"""The value of a condition made of integer constants, as the compiler
folds it: `if ((DEBUG_ASSERT) && !(cond))` with DEBUG_ASSERT 0 never runs
its body, so a return there is no way out of the function.

Anything not a literal (a name, a call, sizeof) is unknown, and an
operator with an unknown operand is unknown, except where C fixes the
result anyway: `0 && x` and `x && 0` are 0, `1 || x` and `x || 1` are 1.
"""

from ioctl_rework.lockproof.lexer import Token

_BINARY = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
           ("<<", ">>"), ("+", "-"), ("*", "/", "%")]


def fold(tokens: list[Token]) -> int | None:
    """The integer value of TOKENS, or None when it is not a constant."""
    parser = _Folder([t.text for t in tokens])
    try:
        value = parser.binary(0)
    except (IndexError, ValueError, ZeroDivisionError):
        return None
    return value if parser.at == len(parser.texts) else None


class _Folder:
    def __init__(self, texts: list[str]):
        self.texts = texts
        self.at = 0

    def peek(self) -> str | None:
        return self.texts[self.at] if self.at < len(self.texts) else None

    def binary(self, level: int) -> int | None:
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in _BINARY[level]:
            op = self.texts[self.at]
            self.at += 1
            right = self.binary(level + 1)
            left = _apply(op, left, right)
        return left

    def unary(self) -> int | None:
        text = self.peek()
        if text in ("!", "-", "~", "+"):
            self.at += 1
            value = self.unary()
            if value is None:
                return None
            return {"!": int(not value), "-": -value, "~": ~value, "+": value}[text]
        if text == "(":
            self.at += 1
            value = self.binary(0)
            if self.peek() != ")":
                raise ValueError("unbalanced")
            self.at += 1
            return value
        self.at += 1
        literal = text.rstrip("uUlL") if text else ""
        try:
            return int(literal, 0)
        except ValueError:
            pass
        # A name (or a call, an index, a member): unknown, but skip it whole.
        depth = 0
        while self.peek() is not None and (depth or self.peek() in ("(", "[", ".", "->")):
            if self.peek() in ("(", "["):
                depth += 1
            elif self.peek() in (")", "]"):
                depth -= 1
            elif self.peek() in (".", "->"):
                self.at += 1
            self.at += 1
        return None


def _apply(op: str, left: int | None, right: int | None) -> int | None:
    if op == "&&":
        if left == 0 or right == 0:
            return 0
        return None if left is None or right is None else 1
    if op == "||":
        if (left is not None and left != 0) or (right is not None and right != 0):
            return 1
        return None if left is None or right is None else 0
    if left is None or right is None:
        return None
    if op in ("/", "%"):
        if right == 0:
            return None
        return int(left / right) if op == "/" else left - right * int(left / right)
    return {"|": left | right, "^": left ^ right, "&": left & right,
            "==": int(left == right), "!=": int(left != right), "<": int(left < right),
            ">": int(left > right), "<=": int(left <= right), ">=": int(left >= right),
            "<<": left << right if 0 <= right < 64 else None,
            ">>": left >> right if 0 <= right < 64 else None,
            "+": left + right, "-": left - right, "*": left * right}[op]
