/* The driver's header already has a lock of the name the mutex would take. */
extern spinlock_t mutex_name_in_header_mutex;
