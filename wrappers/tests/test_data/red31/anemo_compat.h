/* anemo on kernels before 2.6.11 */
#define ANEMO_COMPAT 1
