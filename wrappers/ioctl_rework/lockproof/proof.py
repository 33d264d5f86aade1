"""Proving one file: each converted handler, in every configuration."""

import itertools
import re

from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.lockproof.analysis import Function, analyse
from ioctl_rework.lockproof.judge import Finding, Judge
from ioctl_rework.lockproof.macros import MacroError
from ioctl_rework.lockproof.model import HandlerProof, LockCalls, LockProblem, Unprovable
from ioctl_rework.lockproof.paths import WalkError
from ioctl_rework.lockproof.source import (MAX_CONDITIONS, Definition, ImpossibleConfiguration,
                                           NeedConditions, SourceError, Unit)
from ioctl_rework.lockproof.syntax import ParseError
from ioctl_rework.lockproof.unread_names import unread_names

_CANNOT = (SourceError, ParseError, WalkError, MacroError)


def prove_each(rel: str, old_text: str, new_text: str, entries: dict[str, str],
               lock: LockCalls, expander, reads_need_lock: bool = False) -> list[HandlerProof]:
    try:
        old_unit, new_unit = expander.units(old_text, new_text)
        # With a .i, the source says which lock calls the output must still show.
        raw_new = Unit(rel, new_text) if expander.preprocessed else None
    except _CANNOT as err:
        return [HandlerProof(h, e, (), Unprovable(rel, h, str(err)))
                for h, e in sorted(entries.items())]
    results = []
    for handler, entry in sorted(entries.items()):
        prover = _HandlerProver(rel, old_unit, new_unit, raw_new, new_text, lock, handler,
                                entries, reads_need_lock)
        try:
            results.append(HandlerProof(handler, entry, tuple(prover.prove())))
        except Unprovable as err:
            results.append(HandlerProof(handler, entry, (), err))
        except _CANNOT as err:
            results.append(HandlerProof(handler, entry, (), Unprovable(rel, handler, str(err))))
    return results


def _configurations(some: list[dict], every: list[dict]) -> str:
    """Words for the configurations SOME of EVERY: "with X, !Y"."""
    common = {a: v for a, v in some[0].items() if all(c[a] == v for c in some)}
    matching = [c for c in every if all(c[a] == v for a, v in common.items())]
    label = ", ".join(("" if v else "!") + a for a, v in sorted(common.items()))
    if len(matching) == len(some) and label:
        return f"with {label}"
    first = ", ".join(("" if v else "!") + a for a, v in sorted(some[0].items()))
    return f"in {len(some)} of {len(every)} configurations, e.g. with {first}"


class _HandlerProver:
    def __init__(self, rel, old_unit: Unit, new_unit: Unit, raw_new: Unit | None, new_text,
                 lock: LockCalls, handler: str, entries: dict[str, str], reads: bool):
        self.rel, self.old_unit, self.new_unit, self.raw_new = rel, old_unit, new_unit, raw_new
        self.new_text = new_text
        self.lock, self.handler, self.entry = lock, handler, entries[handler]
        self.spelling = lock.spelling
        self.reads = reads                # reads of shared memory need the lock too
        self.all_entries = entries        # every handler of the file -> its entry

    def refuse(self, reason: str) -> Unprovable:
        return Unprovable(self.rel, self.handler, reason)

    def prove(self) -> list[LockProblem]:
        old_defs = self.old_unit.definitions(self.handler)
        if not old_defs:
            broken = self.old_unit.unbalanced()
            if broken:
                raise self.refuse(f"the braces of the legacy {self.rel} do not balance "
                                  f"(a '}}' too many by line {broken})")
            raise self.refuse(f"{self.handler} is not defined in the legacy {self.rel}")
        found = self._mutex_taken(old_defs) + self._direct_callers()
        bodies = self._same_count(self.handler, old_defs)
        if self.entry == self.handler:
            for old, new in zip(old_defs, bodies):
                found += self._pair(old, new, entry_depth=0, caller=None)
            return found
        wrappers = self.new_unit.definitions(self.entry)
        # One wrapper, or one beside each definition of a handler defined
        # once per #if branch; each is proven in every configuration.
        if len(wrappers) not in (1, len(old_defs)):
            raise self.refuse(f"the converted file defines {self.entry} "
                              f"{len(wrappers)} times, not once"
                              + (f" or once per definition of {self.handler}"
                                 if len(old_defs) > 1 else ""))
        for wrapper in wrappers:
            found += self._wrapper(wrapper)
        for old, new in zip(old_defs, bodies):
            found += self._pair(old, new, entry_depth=1, caller=self.entry)
        found += self._fops_bypass()
        return found

    def _mutex_taken(self, old_defs: list[Definition]) -> list[LockProblem]:
        """The conversion's mutex must be its own: a legacy file that already
        names it shares it with code that never took it for the ioctl."""
        if self.lock.is_bkl:
            return []
        name = self.lock.name
        uses = [t for t in self.old_unit.tokens if t.kind == "ident" and t.text == name]
        if not uses:
            return []
        line = self.new_unit.tokens[self.new_unit.definitions(self.entry)[0].at].line \
            if self.new_unit.definitions(self.entry) else 1
        return [LockProblem(self.rel, line, self.handler,
                            f"the legacy file already uses {name} (line {uses[0].line}); "
                            "the conversion's mutex is not private to the ioctl")]

    def _direct_callers(self) -> list[LockProblem]:
        """With a mutex, a function that calls the handler directly must hold
        the mutex for a wrapper's body and must not hold it for a pushed-down
        handler, which takes it (it is not recursive, as the BKL was)."""
        if self.lock.is_bkl:
            return []
        unit, target = self.new_unit, self.handler
        callers = {}
        for i, token in enumerate(unit.tokens[:-1]):
            if token.text == target and token.kind == "ident" and unit.depths[i] > 0 and \
                    unit.tokens[i + 1].is_("("):
                caller = unit.enclosing(i)
                if caller is not None and caller.name != self.entry:
                    callers.setdefault((caller.open, caller.name), caller)
        bodies = {h for h, e in self.all_entries.items() if h != e}
        found = []
        for caller in callers.values():
            depth = 1 if caller.name in bodies else 0

            def check(config, caller=caller, depth=depth) -> list[Finding]:
                function = self._function(unit, caller, config, depth, target)
                findings = [self._call_finding(function, leaf) for leaf in function.leaves
                            if self._calls(function, leaf)]
                return [f for f in findings if f is not None]

            found += self._configs([(unit, caller)], check)
        return found

    def _calls(self, function: Function, leaf) -> bool:
        texts = [function.tokens[i].text for i in leaf.positions]
        return any(a == self.handler and b == "(" for a, b in zip(texts, texts[1:]))

    def _call_finding(self, function: Function, leaf) -> Finding | None:
        depths = function.depths(function.walk.leaves, leaf.ident)
        line = function.tokens[leaf.positions[0]].line
        name = self.lock.name
        if self.entry == self.handler and any(d >= 1 for d in depths):
            return Finding(line, f"{function.name} calls {self.handler} at line {line} with "
                           f"{name} held; {self.handler} takes it again: it deadlocks",
                           function.name)
        if self.entry != self.handler and any(d <= 0 for d in depths):
            return Finding(line, f"{function.name} calls {self.handler} at line {line} without "
                           f"{name}, which {self.entry} takes around the same body: the two "
                           "no longer exclude each other", function.name)
        return None

    def _same_count(self, name: str, old_defs: list[Definition]) -> list[Definition]:
        new_defs = self.new_unit.definitions(name)
        if len(new_defs) != len(old_defs):
            raise self.refuse(f"{name} is defined {len(old_defs)} times in the legacy file "
                              f"and {len(new_defs)} times in the converted one")
        return new_defs

    # -- configurations ----------------------------------------------------

    def _configs(self, pairs: list[tuple[Unit, Definition]], check) -> list[LockProblem]:
        """Run CHECK(config) in every configuration of the conditions the
        definitions (and the macros they use) depend on."""
        atoms: set[str] = set()
        for unit, definition in pairs:
            atoms |= unit.atoms(definition)
        while True:
            if len(atoms) > MAX_CONDITIONS:
                raise self.refuse(f"{len(atoms)} preprocessor conditions decide its code "
                                  f"({', '.join(sorted(atoms)[:4])}...); too many "
                                  "configurations to walk")
            order = sorted(atoms)
            by_config: list[tuple[dict, list[Finding]]] = []
            impossible = []
            try:
                for values in itertools.product((True, False), repeat=len(order)):
                    config = dict(zip(order, values))
                    try:
                        by_config.append((config, check(config)))
                    except ImpossibleConfiguration as err:
                        impossible.append(str(err))
            except NeedConditions as need:
                if not need.atoms - atoms:
                    raise self.refuse("a macro is defined differently under conditions "
                                      "this reading cannot tell apart") from need
                atoms |= need.atoms
                continue
            if not by_config:
                raise self.refuse("it does not compile in any configuration: " + impossible[0])
            return self._merge(by_config)

    def _merge(self, by_config) -> list[LockProblem]:
        seen: dict[tuple[int, str, str | None], list[dict]] = {}
        for config, findings in by_config:
            for finding in findings:
                seen.setdefault((finding.line, finding.message, finding.function),
                                []).append(config)
        problems = []
        for (line, message, function), configs in seen.items():
            if len(configs) < len(by_config):
                message += f" ({_configurations(configs, [c for c, _ in by_config])})"
            problems.append(LockProblem(self.rel, line, function or self._function_at(line),
                                        message))
        return sorted(problems, key=lambda p: (p.line, p.message))

    def _function_at(self, line: int) -> str:
        return self.entry if self._in_wrapper(line) else self.handler

    def _in_wrapper(self, line: int) -> bool:
        if self.entry == self.handler:
            return False
        for definition in self.new_unit.definitions(self.entry):
            tokens = self.new_unit.tokens
            if tokens[definition.at].line <= line <= tokens[definition.close].line:
                return True
        return False

    # -- the parts ------------------------------------------------------------

    def _function(self, unit: Unit, definition: Definition, config, entry_depth,
                  call_target=None) -> Function:
        params = unit.view(definition, config, definition.params)
        body = unit.view(definition, config, (definition.open, definition.close))
        return analyse(definition.name, params, body, self.spelling, entry_depth, call_target,
                       unit.noreturn, unit.constants)

    def _pair(self, old_def: Definition, new_def: Definition, entry_depth: int,
              caller: str | None) -> list[LockProblem]:
        self._lock_calls_visible(new_def)

        def check(config) -> list[Finding]:
            old = self._function(self.old_unit, old_def, config, 1)
            self._balanced_before(old)
            new = self._function(self.new_unit, new_def, config, entry_depth)
            judge = Judge(new, self.lock, entry_depth, self.reads)
            judge.exits(caller)
            judge.halts_held()
            judge.compare(old)
            judge.dropped_parameters(old)
            if not old.ops:
                judge.strict_ops()
            # A pushdown (the handler takes the lock itself) must not run a
            # name it did not read with the lock held: it may be a macro of
            # a header not found that returns.  The prover checks this on
            # its own; it does not trust the rule's auto.
            unread = unread_names(new, self.new_unit.reads, self.lock.name) \
                if entry_depth == 0 else []
            return judge.findings + self._own_bkl(old, new) + unread

        return self._configs([(self.old_unit, old_def), (self.new_unit, new_def)], check)

    def _wrapper(self, definition: Definition) -> list[LockProblem]:
        self._lock_calls_visible(definition)

        def check(config) -> list[Finding]:
            new = self._function(self.new_unit, definition, config, 0, self.handler)
            judge = Judge(new, self.lock, 0, self.reads)
            judge.exits()
            judge.strict_ops()
            judge.wrapper_calls(self.handler)
            return judge.findings + self._forwards(new)

        return self._configs([(self.new_unit, definition)], check)

    def _balanced_before(self, old: Function) -> None:
        """The legacy handler must itself leave the lock as the VFS gave it."""
        for node in old.returns:
            depths = old.depths(old.walk.returns, id(node))
            if depths - {1}:
                raise self.refuse(f"the legacy handler returns at line {node.line} holding "
                                  f"{self.lock.name} {sorted(depths - {1})} times: it is "
                                  "unbalanced before the conversion")
        for op in old.ops:
            if not op.acquire and 0 in old.depths(old.walk.ops, op.ident):
                raise self.refuse(f"the legacy handler releases {self.lock.name} at line "
                                  f"{old.tokens[op.position].line} more often than it holds it")

    def _own_bkl(self, old: Function, new: Function) -> list[Finding]:
        """Under a mutex, a legacy handler that takes the BKL itself no longer
        nests inside the VFS's BKL (an unlock_kernel() there now underflows)."""
        if self.lock.is_bkl:
            return []
        own = [t for t in old.tokens if t.kind == "ident" and
               t.text in ("lock_kernel", "unlock_kernel")]
        if not own:
            return []
        return [Finding(new.tokens[0].line, f"the legacy handler calls {own[0].text}() "
                        f"itself at line {own[0].line}; under {self.lock.name} it no longer "
                        "runs inside the VFS's BKL")]

    def _forwards(self, wrapper: Function) -> list[Finding]:
        """The wrapper passes its own file, cmd and arg on, in that order."""
        tokens = wrapper.tokens
        for i, token in enumerate(tokens[:-1]):
            if token.text != self.handler or not tokens[i + 1].is_("("):
                continue
            args, depth, current = [], 0, []
            for t in tokens[i + 2:]:
                if t.is_("(") or t.is_("["):
                    depth += 1
                elif (t.is_(")") or t.is_("]")) and depth:
                    depth -= 1
                elif t.is_(")"):
                    break
                if depth == 0 and t.is_(","):
                    args.append(" ".join(current))
                    current = []
                else:
                    current.append(t.text)
            args.append(" ".join(current))
            if tuple(args[-3:]) != wrapper.params[-3:]:
                return [Finding(token.line, f"{wrapper.name} passes ({', '.join(args)}) to "
                                f"{self.handler}, not its own "
                                f"({', '.join(wrapper.params)})")]
        return []

    def _fops_bypass(self) -> list[LockProblem]:
        """No file_operations may point the unlocked entry at the body itself."""
        code = c_spans.code_only(self.new_text)
        found = []
        pattern = re.compile(r"(?<![\w>])\.?(unlocked_ioctl|compat_ioctl)\s*[=:]\s*&?\s*"
                             + re.escape(self.handler) + r"\b")
        for match in pattern.finditer(code):
            line = code.count("\n", 0, match.start()) + 1
            found.append(LockProblem(self.rel, line, self.handler,
                                     f".{match.group(1)} at line {line} is {self.handler}, "
                                     f"which does not take {self.lock.name} "
                                     f"({self.entry} does)"))
        return found

    def _lock_calls_visible(self, definition: Definition) -> None:
        """In a .i, the lock calls must still be calls: a configuration where
        lock_kernel() is an empty macro hides them from the proof."""
        if self.raw_new is None:
            return
        names = set(self.spelling.acquire) | set(self.spelling.release)

        def count(unit: Unit, d: Definition) -> int:
            return sum(1 for t in unit.tokens[d.open:d.close + 1]
                       if t.kind == "ident" and t.text in names)

        raw = self.raw_new.definitions(definition.name)
        if raw and count(self.new_unit, definition) < count(self.raw_new, raw[0]):
            raise self.refuse(f"{self.lock.acquire_call} or {self.lock.release_call} is a "
                              "macro in this configuration's preprocessed output; the "
                              "proof cannot see the lock")
