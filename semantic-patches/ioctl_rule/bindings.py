"""What a script rule binds for the rewriting rules, as plain values until
spatch makes them: the logic stays testable without spatch, and only
bind() needs spatch's cocci object."""

from dataclasses import dataclass

# A name no code contains: a rule inheriting it matches nothing.  A script
# rule that dropped its match instead (cocci.include_match(False)) would drop
# every binding made so far with it.
NO_MATCH = "ioctl_rework_no_match_"


@dataclass(frozen=True)
class Ident:
    """An identifier; None (or empty) binds NO_MATCH."""
    name: str | None

    def make(self, cocci):
        return cocci.make_ident(self.name or NO_MATCH)


@dataclass(frozen=True)
class Expr:
    text: str

    def make(self, cocci):
        return cocci.make_expr(self.text)


@dataclass(frozen=True)
class Stmt:
    text: str

    def make(self, cocci):
        return cocci.make_stmt(self.text)


def bind(cocci, coccinelle, values):
    """Bind each name of VALUES ({name: Ident | Expr | Stmt}) for the rules
    that inherit it from the calling script rule."""
    for name, value in values.items():
        setattr(coccinelle, name, value.make(cocci))
