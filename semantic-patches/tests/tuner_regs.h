/* The tuner's registers: the base port of a unit, by a macro of tuner.c. */
#define TUNER_BASE	(TUNER_PORT() & 0xfff8)
