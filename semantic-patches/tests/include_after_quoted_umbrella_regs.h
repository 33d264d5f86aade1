#define UM_RESET 0x4d01
