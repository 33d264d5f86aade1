/* A sound header of the tree: a guard that returns -EBUSY while streaming. */
#ifndef _SOUND_ADVSND_H
#define _SOUND_ADVSND_H

#define SND_ADV_GUARD(chip) \
	do { if ((chip)->streaming) return -EBUSY; } while (0)

#endif
