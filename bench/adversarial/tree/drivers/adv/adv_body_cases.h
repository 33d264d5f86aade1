/* The cases of adv_body_include's switch, kept with the command table. */
	case BI_LED_ON:
		bi_leds |= 1 << (arg & 7);
		return 0;
	case BI_LED_OFF:
		if ((arg & 7) == 7)
			return -EPERM;
		bi_leds &= ~(1 << (arg & 7));
		return 0;
	case BI_LED_GET:
		return bi_leds;
