"""Every structure that holds a file_operations, and every spelling of its
legacy entry, through the shared finder (ctext.ioctl_tokens,
ctext.fops_holders) and audit, check and convert.

test_data/structures/ holds one driver per class, written for these tests,
several spellings each: a fops embedded in another structure (C99 and GNU,
in a structure the file declares and in one it does not), a compound
literal (stored in a member, assigned, passed to a call), a device table
(in place, positional, a compound literal per element), a parenthesised
handler, split tokens.  `/* entry */` marks each legacy entry's line
(`/* entry above */`: the line before, where a line splice starts it).
other.c holds the same shapes around the ioctl of other structures: no
stage may call them legacy entries.
"""

import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.audit import scan as audit
from ioctl_rework.audit.findings import Effort, Kind
from ioctl_rework.cache import Cache
from ioctl_rework.convert import cli as convert
from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.ctext import candidates, ioctl_tokens
from ioctl_rework.ctext.fops_holders import Shape
from test_check_repo import GitRepo
from test_convert import parse_args

DATA = Path(__file__).resolve().parent / "test_data" / "structures"
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

# file -> (handler, the object as named, shape) of each marked entry, in order.
EXPECTED = {
    "embedded.c": [("emb_ioctl", "emb_driver.fops", Shape.EMBEDDED),
                   ("chip_ioctl", "chip.fops", Shape.EMBEDDED),
                   ("far_ioctl", "far.fops", Shape.EMBEDDED)],
    "embedded_gnu.c": [("gnu_ioctl", "gnu_driver.fops", Shape.EMBEDDED)],
    "compound.c": [("lit_ioctl", "lit_misc.fops", Shape.COMPOUND),
                   ("lit2_ioctl", "lit2_misc.fops", Shape.COMPOUND),
                   ("lit3_ioctl", "a compound literal", Shape.COMPOUND)],
    "table.c": [("tbl_a_ioctl", "tbl_devs[0].ops", Shape.TABLE),
                ("tbl_b_ioctl", "tbl_devs[1].ops", Shape.TABLE),
                ("tbl_c_ioctl", "tbl_devs[2].ops", Shape.TABLE),
                ("tbl_d_ioctl", "tbl_minors[0].fops", Shape.TABLE)],
    "parens.c": [("par_ioctl", "par_fops", Shape.DECLARED),
                 ("par_ioctl", "par_addr_fops", Shape.DECLARED),
                 ("par_ioctl", "par_two_fops", Shape.DECLARED),
                 ("par_ioctl", "par_gnu_fops", Shape.DECLARED),
                 ("par_ioctl", "par_rt_fops", None)],
    "split.c": [("spl_ioctl", "spl_fops", Shape.DECLARED),
                ("spl_ioctl", "spl_apart_fops", Shape.DECLARED),
                ("spl_ioctl", "spl_dot_fops", Shape.DECLARED),
                ("spl_ioctl", "spl_tail_fops", Shape.DECLARED)],
    "other.c": [],
}
# What the words of a listed entry say, per class (split.c: per line).
SPELLING = {"embedded.c": "embedded in struct", "embedded_gnu.c": "embedded in struct",
            "compound.c": "compound literal", "table.c": "device table",
            "parens.c": "in parentheses"}
SPLICED = {"split.c": (20, 35)}


def entry_lines(path: Path) -> list[int]:
    found = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if "/* entry above */" in line:
            found.append(n - 1)
        elif "/* entry */" in line:
            found.append(n)
    return found


def expected_entries() -> dict[tuple[str, int], tuple[str, str]]:
    """(file, line) -> (handler, object) of every marked entry."""
    found = {}
    for name, entries in EXPECTED.items():
        lines = entry_lines(DATA / name)
        assert len(lines) == len(entries), name
        found.update({(name, line): (handler, holder)
                      for line, (handler, holder, _) in zip(lines, entries)})
    return found


def words_for(name: str, line: int) -> str:
    if line in SPLICED.get(name, ()):
        return "line splice"
    return SPELLING.get(name, "")


class FinderTest(unittest.TestCase):
    """The shared finder, without spatch."""

    def test_every_marked_entry_is_found_once_with_its_handler_and_holder(self):
        for name, entries in EXPECTED.items():
            text = (DATA / name).read_text()
            found = ioctl_tokens.legacy_entries(text)
            with self.subTest(file=name):
                self.assertEqual([t.line for t in found], entry_lines(DATA / name))
                self.assertEqual([t.handler for t in found], [h for h, _, _ in entries])
                for token, (_, holder, shape) in zip(found, entries):
                    if shape is None:
                        self.assertIsNone(token.holder)
                        self.assertEqual(token.base, holder)
                    else:
                        self.assertEqual((token.holder.name, token.holder.shape),
                                         (holder, shape))

    def test_the_prefilter_keeps_every_file_with_an_entry_and_only_those(self):
        for name, entries in EXPECTED.items():
            with self.subTest(file=name):
                self.assertEqual(candidates.may_hold_legacy_entry((DATA / name).read_bytes()),
                                 bool(entries))

    def test_other_structures_are_told_apart_by_the_members_the_file_declares(self):
        text = (DATA / "other.c").read_text()
        code = ioctl_tokens.spans.code_only(text)
        types = {t.line: t.holder.type for t in ioctl_tokens.tokens(text)}
        self.assertEqual(types, {29: "tty_operations", 34: "block_device_operations",
                                 39: "tty_operations"})
        self.assertFalse(any(ioctl_tokens.of_file_operations(code, t)
                             for t in ioctl_tokens.tokens(text)))

    def test_an_undeclared_holder_is_taken_for_a_file_operations_and_says_so(self):
        text = (DATA / "embedded.c").read_text()
        emb, chip, far = ioctl_tokens.legacy_entries(text)
        self.assertIn("struct drm_driver is not declared", ioctl_tokens.spelling(emb))
        self.assertIn("struct far_driver is not declared", ioctl_tokens.spelling(far))
        self.assertNotIn("not declared", ioctl_tokens.spelling(chip))
        self.assertEqual(chip.holder.type, "file_operations")

    def test_a_structure_a_macro_declares_by_a_pasted_name(self):
        # 2.6.9's <linux/net.h> writes a proto_ops this way: not a
        # file_operations, so no entry to convert (and no record of one).
        for struct, pasted, legacy in (("proto_ops", "name##_ops", False),
                                       ("proto_ops", "name ## _ops ## _locked", False),
                                       ("file_operations", "name##_fops", True)):
            text = (f"#define WRAP(name) \\\nstatic struct {struct} {pasted} = {{ \\\n"
                    "\t.owner = THIS_MODULE, \\\n\t.ioctl = __lock_##name##_ioctl, \\\n};\n")
            with self.subTest(struct=struct, pasted=pasted):
                [token] = ioctl_tokens.tokens(text)
                self.assertEqual((token.struct, token.macro), (struct, "WRAP"))
                code = ioctl_tokens.spans.code_only(text)
                self.assertEqual(bool(ioctl_tokens.of_file_operations(code, token)), legacy)

    def test_split_spellings(self):
        cases = {
            ".io\\\nctl = h,": (3, "h", True),
            ". ioctl\n\t= h,": (3, "h", False),
            ".\n\tioctl = h,": (3, "h", False),
            ".ioctl \\\n\t= h,": (3, "h", False),
            "io\\\nctl: h,": (3, "h", True),
            ".OLD_OP = h,": (3, "h", False),
        }
        for body, (line, handler, spliced) in cases.items():
            text = ("#define OLD_OP ioctl\nstatic struct file_operations f = {\n\t"
                    + body + "\n};\n")
            with self.subTest(body=body):
                found = ioctl_tokens.legacy_entries(text)
                self.assertEqual([(t.line, t.handler, t.spliced) for t in found],
                                 [(line, handler, spliced)])

    def test_handlers_in_parentheses_and_casts(self):
        for value, handler in [("(h)", "h"), ("(&h)", "h"), ("((h))", "h"), ("& (h)", "h"),
                               ("(void *)h", "h"), ("(void *)(h)", "h"), ("h", "h"),
                               ("NULL", None), ("(NULL)", None), ("pick(h)", None),
                               ("fast ? a : b", None)]:
            text = f"static struct file_operations f = {{\n\t.ioctl = {value},\n}};\n"
            with self.subTest(value=value):
                [token] = ioctl_tokens.legacy_entries(text)
                self.assertEqual(token.handler, handler)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class StagesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="structures-test-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = self.tmp / "tree"
        shutil.copytree(DATA, self.tree)

    def test_audit_lists_every_entry_once_at_its_line(self):
        result = audit.audit([self.tree], jobs=2, cache=Cache(None), compat_classes=False)
        found = [(Path(f.file).name, f.line, f.handler, f.struct, f)
                 for f in result.findings if f.kind is Kind.LEGACY_IOCTL]
        self.assertEqual(sorted((n, ln) for n, ln, *_ in found), sorted(expected_entries()))
        expected = expected_entries()
        for name, line, handler, struct, finding in found:
            with self.subTest(file=name, line=line):
                self.assertEqual((handler, struct), expected[name, line])
                self.assertEqual(finding.effort, Effort.MANUAL.value)
                self.assertIn(words_for(name, line), finding.reason)
        # Only split.c is partly parsed (spatch's parser stops at the splices).
        self.assertEqual({Path(s.file).name for s in result.skipped}, {"split.c"})
        self.assertTrue(all(s.partial for s in result.skipped))

    def test_audit_lists_an_entry_it_cannot_read_as_partly_parsed_with_its_line(self):
        (self.tree / "picked.c").write_text(
            "#include <linux/fs.h>\n\nstatic struct drm_driver pick_driver = {\n"
            "\t.fops = {\n\t\t.ioctl = PICK_IOCTL(2),\n\t},\n};\n")
        result = audit.audit([self.tree / "picked.c"], jobs=1, cache=Cache(None),
                             compat_classes=False)
        self.assertEqual(result.findings, [])
        [skipped] = result.skipped
        self.assertTrue(skipped.partial)
        self.assertIn("line 5:", skipped.reason)
        self.assertIn("PICK_IOCTL(2)", skipped.reason)

    def test_convert_lists_every_entry_with_its_handler_and_why(self):
        before = {p.name: p.read_bytes() for p in self.tree.iterdir()}
        args = parse_args(["--no-cache", "--target", "2.6.20", "--in-place",
                           "--no-kernel-headers", "--", str(self.tree)])
        request = convert.request_from_args(args)
        result = convert.convert(request)
        convert.write_in_place(result, request.root)
        self.assertEqual({p.name: p.read_bytes() for p in self.tree.iterdir()}, before)
        records = {(h.file, h.line): h for h in result.summary.handlers}
        expected = expected_entries()
        self.assertEqual(set(records), set(expected))
        for (name, line), record in records.items():
            with self.subTest(file=name, line=line):
                self.assertEqual(record.handler, expected[name, line][0])
                self.assertNotEqual(record.status, HandlerStatus.CONVERTED)
                self.assertIn(words_for(name, line), record.reason)
        # Nothing of other.c is an entry: its members are explained.
        self.assertEqual({(t.file, t.kind) for t in result.summary.tokens},
                         {("other.c", "other-structure")})

    def check(self, *argv: str, cwd: Path | None = None) -> set[tuple[str, int]]:
        with GitRepo() as repo:
            repo.commit("base", {"README": "a tree\n"})
            repo.commit("add drivers", {f"drivers/misc/{p.name}": p.read_text()
                                        for p in sorted(DATA.iterdir())})
            if argv[0] == "--git":
                out = repo.run_cli("check", *argv)
            else:
                patch = self.tmp / "drivers.patch"
                patch.write_text(repo.git("format-patch", "-1", "--stdout", "HEAD").stdout)
                tree = self.tmp / "base"
                tree.mkdir(exist_ok=True)
                out = repo.run_cli("check", "--diff", str(patch),
                                   *(["--tree", str(tree)] if argv[0] == "--tree" else []))
        self.assertEqual(out.returncode, 1, out.stderr)
        shown = re.findall(r"^ERROR:LEGACY_IOCTL: .*\n#\d+: FILE: drivers/misc/([\w.]+):(\d+):",
                           out.stdout, re.M)
        self.assertEqual(len(shown), len(set(shown)), out.stdout)
        self.assertNotIn("other.c", out.stdout)
        return {(name, int(line)) for name, line in shown}

    def test_check_calls_every_entry_a_legacy_ioctl_error_in_every_mode(self):
        for mode in ("--git", "--bare", "--tree"):
            with self.subTest(mode=mode):
                args = ("--git", "HEAD") if mode == "--git" else (mode,)
                self.assertEqual(self.check(*args), set(expected_entries()))

    def test_check_calls_an_entry_added_to_an_existing_structure_an_error(self):
        names = ["embedded.c", "embedded_gnu.c", "compound.c", "table.c", "parens.c"]
        without = {f"drivers/misc/{n}": "".join(
            line for line in (DATA / n).read_text().splitlines(True)
            if "/* entry */" not in line) for n in names}
        with GitRepo() as repo:
            repo.commit("base", {**without, "drivers/misc/drm_like.h":
                                 (DATA / "drm_like.h").read_text()})
            repo.commit("add the entries", {f"drivers/misc/{n}": (DATA / n).read_text()
                                            for n in names})
            out = repo.run_cli("check", "--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        shown = set(re.findall(r"^ERROR:LEGACY_IOCTL: .*\n#\d+: FILE: drivers/misc/([\w.]+):"
                               r"(\d+):", out.stdout, re.M))
        self.assertEqual({(n, int(ln)) for n, ln in shown},
                         {key for key in expected_entries() if key[0] in names})


class OuterTypeWordsTest(unittest.TestCase):
    """The words of a listed entry name the outermost object's type as it is
    written: a union (red33_fops_nest), a typedef, a struct; never a
    Python None ("embedded in struct None")."""

    UNION = "union fn_ops {\n\tstruct file_operations fops;\n\tlong pad[32];\n};\n\n"
    CASES = {
        "union, designated": (
            UNION + "static union fn_ops fn_alt = {\n\t.fops = {\n\t\t.ioctl = fn_ioctl,\n"
            "\t},\n};\n",
            "a file_operations embedded in union fn_ops (fn_alt.fops)"),
        "union, positional": (
            UNION + "static union fn_ops fn_alt = {\n\t{\n\t\t.ioctl = fn_ioctl,\n\t},\n};\n",
            "a file_operations embedded in union fn_ops (fn_alt.fops)"),
        "array of a union": (
            UNION + "static union fn_ops fn_alts[] = {\n\t{ .fops = { .ioctl = fn_ioctl } },\n};\n",
            "a file_operations in a device table of union fn_ops (fn_alts[0].fops)"),
        "union not declared": (
            "static union fn_ops fn_alt = {\n\t.fops = {\n\t\t.ioctl = fn_ioctl,\n\t},\n};\n",
            "a file_operations embedded in union fn_ops (fn_alt.fops; union fn_ops is not "
            "declared in the file, so the member is taken for a file_operations)"),
        "typedef": (
            "static board_t fn_board = {\n\t.fops = { .ioctl = fn_ioctl },\n};\n",
            "a file_operations embedded in board_t (fn_board.fops; board_t is not declared in "
            "the file, so the member is taken for a file_operations)"),
        "struct": (
            "struct fn_dev {\n\tconst char *name;\n\tstruct file_operations fops;\n};\n\n"
            "static struct fn_dev fn_devs[] = {\n\t{ \"a\", { .ioctl = fn_ioctl } },\n};\n",
            "a file_operations in a device table of struct fn_dev (fn_devs[0].fops)"),
    }

    def test_each_outer_type_is_named_as_written(self):
        for case, (text, words) in self.CASES.items():
            with self.subTest(case=case):
                found = ioctl_tokens.legacy_entries(text)
                self.assertEqual([ioctl_tokens.spelling(t) for t in found], [words])


if __name__ == "__main__":
    unittest.main()


class MacroEntryTest(unittest.TestCase):
    """An entry written in a macro of the file is set where the macro is
    used: each use is a candidate and is listed as partly parsed with its
    line, never dropped (the finder leaves the #define out, and nothing
    expands it)."""

    USED = {
        "paste.c": ("#define FOPS_ENTRY(pfx) .ioctl = pfx##_ioctl\n"
                    "static struct file_operations pm_fops = {\n"
                    "\t.owner = THIS_MODULE,\n\tFOPS_ENTRY(pm),\n};\n", [(4, "FOPS_ENTRY", 1)]),
        "declare.c": ("#define DECLARE_FOPS(n) \\\n"
                      "\tstatic struct file_operations n##_fops = { .ioctl = n##_ioctl }\n"
                      "DECLARE_FOPS(dm);\nDECLARE_FOPS(dn);\n",
                      [(3, "DECLARE_FOPS", 1), (4, "DECLARE_FOPS", 1)]),
        "object.c": ("#define OLD_ENTRY .ioctl = old_ioctl\n"
                     "static struct file_operations o_fops = { OLD_ENTRY };\n",
                     [(2, "OLD_ENTRY", 1)]),
        "nested.c": ("#define INNER .ioctl = n_ioctl\n"
                     "#define N_FOPS { .owner = THIS_MODULE, INNER }\n"
                     "static struct file_operations n_fops = N_FOPS;\n", [(3, "N_FOPS", 1)]),
    }
    UNUSED = {
        "tty.c": "#define TTY_ENTRY .ioctl = t_ioctl\n"
                 "static struct tty_operations t_ops = { TTY_ENTRY };\n",
        "never.c": "#define OLD_ENTRY .ioctl = old_ioctl\n",
        "if0.c": "#define OLD_ENTRY .ioctl = old_ioctl\n#if 0\n"
                 "static struct file_operations o_fops = { OLD_ENTRY };\n#endif\n",
        "undef.c": "#define OLD_ENTRY .ioctl = old_ioctl\n#undef OLD_ENTRY\n",
    }

    def test_each_use_is_found_with_its_define(self):
        for name, (text, expected) in self.USED.items():
            with self.subTest(name):
                found = ioctl_tokens.macro_entries(text)
                self.assertEqual([(u.line, u.macro, u.defined) for u in found], expected)
                self.assertTrue(candidates.may_hold_legacy_entry(text.encode()))
        for name, text in self.UNUSED.items():
            with self.subTest(name):
                self.assertEqual(ioctl_tokens.macro_entries(text), [])

    def test_the_audit_lists_each_use_as_partly_parsed(self):
        from ioctl_rework.audit import text_entries
        with tempfile.TemporaryDirectory() as tmp:
            files = {}
            for name, (text, _) in self.USED.items():
                Path(tmp, name).write_text(text)
                files[name] = Path(tmp, name)
            merged = text_entries.merge([], files)
        said = sorted((p.file, p.reason.split(":")[0]) for p in merged.partly)
        self.assertEqual(said, sorted((name, f"line {line}")
                                      for name, (_, uses) in self.USED.items()
                                      for line, _, _ in uses))
        self.assertTrue(all("written in the macro" in p.reason and p.partial
                            for p in merged.partly))

    def test_an_entry_the_rule_read_at_the_define_is_not_listed_again(self):
        # spatch expands an object-like macro of the file and reports the
        # entry at its #define: that answers for the one use, not for two.
        from ioctl_rework.audit import text_entries
        from ioctl_rework.audit.findings import Finding
        text = ("#define EM_IOCTL \\\n\t.ioctl = em_ioctl,\n"
                "static struct file_operations em_fops = {\n\tEM_IOCTL\n};\n")
        twice = text + "static struct file_operations em2_fops = {\n\tEM_IOCTL\n};\n"
        for name, body, at, listed in (("once.c", text, 2, []), ("twice.c", twice, 2, [4, 7]),
                                       ("used.c", text, 4, []), ("none.c", text, None, [4])):
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                Path(tmp, name).write_text(body)
                reported = [] if at is None else [
                    Finding(name, at, Kind.LEGACY_IOCTL, "em_fops", "em_ioctl")]
                merged = text_entries.merge(reported, {name: Path(tmp, name)})
                self.assertEqual([int(p.reason.split(":")[0].split()[1]) for p in merged.partly],
                                 listed)
