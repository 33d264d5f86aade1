void lock_kernel(void);
void unlock_kernel(void);
