/* red33_inc_c_cases.c: cases of red33_inc_c's switch, included in its body. */
	case IC_RESET:
		outb(0, IC_PORT + 1);
		if (arg)
			return -EINVAL;
		break;
