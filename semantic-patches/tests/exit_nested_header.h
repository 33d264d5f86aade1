/* Includes the tracing header of its sibling directory. */
#include "exit_headers/tracing.h"
