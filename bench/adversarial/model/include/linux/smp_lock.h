/* 2.6.39 removed this header with the BKL: a mutex target that still includes it breaks, as it would there. */
#if defined(MODEL_KERNEL_6_1)
#error "linux/smp_lock.h does not exist on this kernel"
#endif
#include "../../model_kernel.h"
