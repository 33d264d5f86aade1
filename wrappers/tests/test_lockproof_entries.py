"""lockproof.entries: which handlers a conversion converted, read from the
file_operations of both texts.  An array of fops is one fops per element:
read as one, only its first handler was proven and the others passed
unread (purity_parameter_members' six handlers, one proven)."""

import unittest

from ioctl_rework.lockproof.entries import entry_points

OLD = """static struct file_operations demo_fops[] = {
	{ .owner = THIS_MODULE, .ioctl = demo_a_ioctl, },
	{
		.ioctl = demo_b_ioctl,
	},
	{ .ioctl = demo_c_ioctl },
};
static struct file_operations one_fops = { .ioctl = one_ioctl, };
"""


class EntryPointsTest(unittest.TestCase):
    def test_every_element_of_a_fops_array_is_an_entry(self):
        new = OLD.replace(".ioctl = demo_b_ioctl", ".unlocked_ioctl = demo_b_unlocked") \
            .replace(".ioctl", ".unlocked_ioctl")
        self.assertEqual(entry_points(OLD, new), {"demo_a_ioctl": "demo_a_ioctl",
                                                  "demo_b_ioctl": "demo_b_unlocked",
                                                  "demo_c_ioctl": "demo_c_ioctl",
                                                  "one_ioctl": "one_ioctl"})

    def test_an_element_left_legacy_is_no_entry(self):
        new = OLD.replace(".ioctl = demo_a_ioctl", ".unlocked_ioctl = demo_a_ioctl")
        self.assertEqual(entry_points(OLD, new), {"demo_a_ioctl": "demo_a_ioctl"})

    def test_designated_elements_are_entries_too(self):
        old = ("static struct file_operations demo_fops[2] = {\n"
               "\t[0] = { .ioctl = demo_a_ioctl },\n\t[DEMO_B] = {\n\t\t.ioctl = demo_b_ioctl,\n"
               "\t},\n};\n")
        new = old.replace(".ioctl", ".unlocked_ioctl")
        self.assertEqual(entry_points(old, new), {"demo_a_ioctl": "demo_a_ioctl",
                                                  "demo_b_ioctl": "demo_b_ioctl"})

    def test_an_array_written_by_a_macro_is_read_whole(self):
        old = ("static struct file_operations demo_fops[] = {\n"
               "\tDEMO_FOPS(demo_a_ioctl),\n\t{ .ioctl = demo_b_ioctl },\n};\n"
               "#define DEMO_FOPS(h) { .ioctl = h }\n")
        new = old.replace("{ .ioctl = demo_b", "{ .unlocked_ioctl = demo_b")
        self.assertEqual(entry_points(old, new), {"demo_b_ioctl": "demo_b_ioctl"})

if __name__ == "__main__":
    unittest.main()
