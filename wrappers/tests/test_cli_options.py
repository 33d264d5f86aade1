"""Every subcommand spells, checks and explains its options the same way."""

import argparse
import unittest
from unittest import mock

from ioctl_rework import cli
from test_cli import run_main

NUMBERED = ("audit", "convert", "check", "fixture")     # the ones with --jobs and --timeout
# A source each subcommand needs before it looks at anything else.
SOURCE = {"audit": ["."], "convert": ["."], "check": ["--staged"], "fixture": ["list"],
          "merge": ["s.json"]}


def subcommand_parser(name: str) -> argparse.ArgumentParser:
    parser, _ = cli.build_parser([name])
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices[name]


class NumbersTest(unittest.TestCase):
    def test_zero_and_negative_numbers_are_usage_errors_everywhere(self):
        for name in NUMBERED:
            for option, value in (("--jobs", "0"), ("--jobs", "-1"), ("-j", "0"),
                                  ("--timeout", "0"), ("--timeout", "-5"),
                                  ("--jobs", "two")):
                with self.subTest(name, option=option, value=value):
                    status, out, err = run_main([name, f"{option}={value}", *SOURCE[name]])
                    self.assertEqual((status, out), (2, ""))
                    self.assertIn(f"want a whole number of at least 1, not {value!r}", err)

    def test_the_shared_options_are_spelled_the_same_way(self):
        for name in NUMBERED:
            with self.subTest(name):
                actions = {a.dest: a for a in subcommand_parser(name)._actions}
                self.assertEqual(actions["jobs"].option_strings, ["-j", "--jobs"])
                self.assertEqual(actions["jobs"].metavar, "N")
                self.assertEqual(actions["timeout"].option_strings, ["--timeout"])
                self.assertEqual(actions["timeout"].metavar, "SECONDS")
        for name, dest in (("audit", "cache_dir"), ("convert", "cache_dir"), ("prove", "cache_dir"),
                           ("fixture", "cache")):
            with self.subTest(name, option="--cache-dir"):
                actions = {a.dest: a for a in subcommand_parser(name)._actions}
                self.assertIn("--cache-dir", actions[dest].option_strings)
                self.assertEqual(actions[dest].metavar, "DIR")


class GroupsTest(unittest.TestCase):
    """One concept, one spelling and one text on every subcommand (options.py)."""

    def actions(self, name: str) -> dict:
        return {a.dest: a for a in subcommand_parser(name)._actions}

    def test_jobs_default_to_the_cores_this_process_may_use(self):
        with mock.patch("os.sched_getaffinity", return_value={0, 1, 2, 3, 4}):
            for name in ("audit", "convert", "check"):
                with self.subTest(name):
                    jobs = self.actions(name)["jobs"]
                    self.assertEqual(jobs.default, 5)
                    self.assertIn("the cores this process may use", jobs.help)
        with mock.patch("os.sched_getaffinity", return_value={3}):
            self.assertEqual(self.actions("convert")["jobs"].default, 1)

    def test_the_cache_options_are_declared_once(self):
        texts = {}
        for name in ("audit", "convert", "prove"):
            actions = self.actions(name)
            with self.subTest(name):
                self.assertEqual(actions["no_cache"].option_strings, ["--no-cache"])
                self.assertEqual(actions["cache_dir"].option_strings, ["--cache-dir"])
                texts.setdefault("no_cache", set()).add(actions["no_cache"].help)
                texts.setdefault("cache_dir", set()).add(actions["cache_dir"].help)
        self.assertEqual({k: len(v) for k, v in texts.items()}, {"no_cache": 1, "cache_dir": 1})

    def test_every_subcommand_that_writes_a_report_takes_o_and_format(self):
        formats = {"audit": {"text", "json", "csv", "markdown", "html", "sarif"},
                   "convert": {"diff", "json", "text"}, "merge": {"diff", "json", "text"},
                   "check": {"text", "json", "sarif"}, "prove": {"text", "json"}}
        helps = set()
        for name, wanted in formats.items():
            with self.subTest(name):
                actions = self.actions(name)
                self.assertEqual(actions["output"].option_strings, ["-o", "--output"])
                self.assertEqual(actions["output"].metavar, "FILE")
                self.assertEqual(set(actions["format"].choices), wanted)
                helps.add(actions["output"].help)
        self.assertEqual(len(helps), 1)
        # --json FILE stays where it was: convert and merge.
        for name in ("convert", "merge"):
            with self.subTest(name, option="--json"):
                self.assertEqual(self.actions(name)["json"].option_strings, ["--json"])
        for name in ("audit", "check", "prove"):
            self.assertNotIn("json", self.actions(name))

    def test_the_target_options_are_spelled_and_explained_once(self):
        texts = {}
        for name, dests in (("convert", ("target", "lock", "strategy", "multi_kernel", "compat")),
                            ("check", ("target", "lock", "strategy", "multi_kernel", "compat")),
                            ("audit", ("target",))):
            actions = self.actions(name)
            for dest in dests:
                with self.subTest(name, option=dest):
                    texts.setdefault(dest, set()).add(actions[dest].help)
        self.assertEqual({dest: len(t) for dest, t in texts.items()},
                         dict.fromkeys(("target", "lock", "strategy", "multi_kernel", "compat"), 1))

    def test_split_has_no_default_that_hides_a_missing_series(self):
        for name in ("convert", "merge"):
            self.assertIsNone(self.actions(name)["split"].default)


class HelpTest(unittest.TestCase):
    def test_every_option_has_help_and_every_subcommand_an_example(self):
        for command in cli.SUBCOMMANDS:
            parser = subcommand_parser(command.name)
            with self.subTest(command.name):
                self.assertIn("examples:\n  ioctl-rework ", parser.epilog or "")
                self.assertIn(f"\n  ioctl-rework {command.name} ", parser.epilog)
            for action in parser._actions:
                with self.subTest(command.name, option=action.dest):
                    self.assertTrue(action.help, f"{action.option_strings or action.dest} "
                                                 "has no help text")


if __name__ == "__main__":
    unittest.main()
