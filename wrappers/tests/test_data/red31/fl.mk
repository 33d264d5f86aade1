ccflags-y += '-DFL_ENTER(f)=do { if (!fl_up(f)) return -ENODEV; } while (0)'
