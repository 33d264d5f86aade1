struct mutex { int locked; };
#define DEFINE_MUTEX(name) struct mutex name = { 0 }
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
