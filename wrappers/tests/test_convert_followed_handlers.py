"""What the cross-file follow-up hands the records of each handler
(groups.followed_handlers): the files naming it, whether one exports it,
and why it is converted nowhere, by the file that decides it and its name;
a static handler is its own file's, and a handler with no group has no
entry."""

import unittest

from ioctl_rework.convert import groups
from ioctl_rework.convert.file_runs import FileRun
from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.spatch.rules import HandlerDecision

SIGNATURE = "(struct inode *inode, struct file *file, unsigned int cmd, unsigned long arg)"

TEXTS = {
    # A static handler, and another driver's static function of the same name.
    "drivers/a/a.c": f"static int dev_ioctl{SIGNATURE}\n{{\n\treturn 0;\n}}\n"
                     "static struct file_operations a_fops = {\n\t.ioctl = dev_ioctl,\n};\n",
    "drivers/b/b.c": f"static int dev_ioctl{SIGNATURE}\n{{\n\treturn 1;\n}}\n",
    # An exported handler and a caller of it in another file.
    "drivers/core/core.c": f"int core_ioctl{SIGNATURE}\n{{\n\treturn 0;\n}}\n"
                           "EXPORT_SYMBOL_GPL(core_ioctl);\n"
                           "static struct file_operations core_fops = {\n"
                           "\t.ioctl = core_ioctl,\n};\n",
    "drivers/core/user.c": f"int user_ioctl{SIGNATURE}\n{{\n"
                           "\treturn core_ioctl(inode, file, cmd, arg);\n}}\n",
    # A handler left alone by the rule, for a reason of its own file.
    "drivers/c/c.c": f"static int c_ioctl{SIGNATURE}\n{{\n\treturn 0;\n}}\n",
}


def decision(rel: str, handler: str, convert: bool = True, reason: str | None = None):
    return HandlerDecision(rel, 7, "fops", handler, convert, "pushdown" if convert else None,
                           reason, True, False)


def run(rel: str, *decisions: HandlerDecision) -> FileRun:
    text = TEXTS[rel].encode()
    return FileRun(rel, (), decisions, text, text, None)


class FollowedHandlers(unittest.TestCase):
    def setUp(self):
        self.runs = {
            "drivers/a/a.c": run("drivers/a/a.c", decision("drivers/a/a.c", "dev_ioctl")),
            "drivers/core/core.c": run("drivers/core/core.c",
                                       decision("drivers/core/core.c", "core_ioctl")),
            "drivers/c/c.c": run("drivers/c/c.c", decision("drivers/c/c.c", "c_ioctl", False,
                                                           "it sleeps with the lock held")),
        }
        mentions = {"dev_ioctl": {"drivers/a/a.c", "drivers/b/b.c"},
                    "core_ioctl": {"drivers/core/core.c", "drivers/core/user.c"},
                    "c_ioctl": {"drivers/c/c.c"}}
        self.cross = groups.build(self.runs, mentions, set(TEXTS),
                                  lambda rel: TEXTS[rel])

    def followed(self) -> dict:
        final = {**self.runs, "drivers/core/user.c": run("drivers/core/user.c")}
        return groups.followed_handlers(self.cross, final, lambda rel: TEXTS[rel])

    def test_a_static_handler_is_named_by_its_own_file_alone(self):
        found = self.followed()[("drivers/a/a.c", "dev_ioctl")]
        self.assertEqual(found.files, ("drivers/a/a.c",))
        self.assertFalse(found.exported)
        self.assertIsNone(found.dropped)

    def test_an_exported_handler_with_its_caller(self):
        found = self.followed()[("drivers/core/core.c", "core_ioctl")]
        self.assertEqual(found.files, ("drivers/core/core.c", "drivers/core/user.c"))
        self.assertTrue(found.exported)
        self.assertIsNone(found.dropped)

    def test_a_dropped_handler_says_why_and_is_not_counted_exported(self):
        verdict = groups.Verdict(HandlerStatus.SKIPPED, "its caller cannot follow")
        self.cross.dropped[groups.HandlerKey("core_ioctl")] = verdict
        found = self.followed()[("drivers/core/core.c", "core_ioctl")]
        self.assertIs(found.dropped, verdict)
        self.assertFalse(found.exported)

    def test_a_handler_the_rule_left_alone_has_no_entry(self):
        found = self.followed()
        self.assertNotIn(("drivers/c/c.c", "c_ioctl"), found)
        self.assertEqual(set(found), {("drivers/a/a.c", "dev_ioctl"),
                                      ("drivers/core/core.c", "core_ioctl")})


if __name__ == "__main__":
    unittest.main()
