obj-m += hydro.o
HYDRO_RENAME := -Dunlocked_ioctl=ioctl
ccflags-y += $(HYDRO_RENAME)
