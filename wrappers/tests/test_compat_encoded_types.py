"""The types the commands encode go in the probe's first compile when
their #define names them (compat.encoded_types); what a guess gets wrong
costs a compile, never a result."""

import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import ioctl_rework.compat as compat
from ioctl_rework.compat import encoded_types, probe
from ioctl_rework.spatch import runner as spatch

ERA = Path(__file__).resolve().parent / "test_data" / "compat_era" / "linux-2.6.12"


class GuessTest(unittest.TestCase):
    def guess(self, text: str, commands) -> list[str]:
        with tempfile.TemporaryDirectory(prefix="encoded-types-") as tmp:
            header = Path(tmp) / "adapter.h"
            header.write_text(text)
            return encoded_types.guess(commands, (header,))

    def test_the_type_of_each_typed_form(self):
        text = ("#define AD_GET\t_IOR('a', 1, struct ad_state)\n"
                "#define AD_SET _IOW( 'a' , 2 ,  unsigned   long )\n"
                "  #  define AD_XCHG\t_IOWR(AD_BASE, 3, __u32)\n")
        self.assertEqual(self.guess(text, ["AD_GET", "AD_SET", "AD_XCHG"]),
                         ["struct ad_state", "unsigned long", "__u32"])

    def test_comments_and_nested_parentheses(self):
        text = ("#define AD_GET _IOR('a', 1, struct ad_state) /* the state, (all) */\n"
                "/* #define AD_SET _IOW('a', 2, long) */\n"
                "#define AD_SET _IOW('a', 2, int[(4)])\n")
        self.assertEqual(self.guess(text, ["AD_GET", "AD_SET"]), ["struct ad_state", "int[(4)]"])

    def test_no_guess_without_a_typed_define_of_the_command(self):
        text = ("#define AD_RESET _IO('a', 4)\n"
                "#define AD_RAW _IOC(_IOC_READ, 'a', 5, 8)\n"
                "#define AD_ALIAS AD_GET\n"
                "#define AD_LONG _IOR('a', 6, \\\n\tlong)\n"
                "#define AD_GET _IOR('a', 1, struct ad_state)\n")
        self.assertEqual(self.guess(text, ["AD_RESET", "AD_RAW", "AD_ALIAS", "AD_LONG",
                                           "AD_MISSING", "AD_GET + 1"]), [])

    def test_the_first_define_and_one_guess_a_type(self):
        text = ("#define AD_GET _IOR('a', 1, int)\n"
                "#define AD_GET _IOR('a', 1, long)\n"
                "#define AD_SET _IOW('a', 2, int)\n")
        self.assertEqual(self.guess(text, ["AD_GET", "AD_SET"]), ["int"])


@unittest.skipIf(probe.tools_missing() or shutil.which(spatch.SPATCH) is None,
                 "gcc, pahole or spatch missing (make deps)")
class FirstCompileTest(unittest.TestCase):
    def test_the_encoded_types_are_compiled_with_the_commands(self):
        compiled = []
        compile_ = probe._compile

        def counted(items, *args):
            compiled.append({item.text for item in items})
            return compile_(items, *args)
        driver = ERA / "drivers" / "misc" / "fxa_timeout.c"
        with mock.patch.object(probe, "_compile", counted):
            found = compat.classify_files([driver], ERA, jobs=1)
        self.assertEqual(len(compiled), 1, compiled)
        self.assertTrue({"FXA_GET_TIMEOUT", "struct fxa_timeout"} <= compiled[0], compiled)
        self.assertEqual([c.compat_class.value for c in found], ["translated"])

    def test_a_wrong_guess_is_no_result(self):
        results = {}
        probe_ = probe.probe

        def recorded(items, *args):
            found = probe_(items, *args)
            results.update(found)
            return found
        driver = ERA / "drivers" / "misc" / "fxa_timeout.c"
        with mock.patch.object(encoded_types, "guess", lambda *_: ["struct fxa_timeout",
                                                                   "long long"]), \
                mock.patch.object(probe, "probe", recorded):
            stdout = compat.rule_outputs([driver], 1, 60, None)[driver]
            layouts = compat.file_layouts(driver, stdout, ERA, None, compat.FileDigests())
        self.assertIn(probe.ProbeItem("type", "long long"), results)   # it was compiled
        self.assertNotIn("long long", layouts.sizes)


if __name__ == "__main__":
    unittest.main()
