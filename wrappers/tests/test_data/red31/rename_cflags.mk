obj-m += hydro.o
EXTRA_CFLAGS += -O2
CFLAGS += -Dunlocked_ioctl=ioctl
