"""Every subcommand spells, checks and explains its options the same way."""

import argparse
import unittest

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
