/* hb_chain.h: includes the header that holds the fops. */
#include "hb_body.h"
