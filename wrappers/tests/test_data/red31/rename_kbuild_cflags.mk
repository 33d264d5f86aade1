obj-m += hydro.o
KBUILD_CFLAGS += -Dunlocked_ioctl=ioctl
