/* scale's board macros; the unit comes from scale_b.h */
#include "scale_b.h"
#define SCALE_PORT()	(0x280 + SCALE_UNIT())
