#include "../../model_kernel.h"
