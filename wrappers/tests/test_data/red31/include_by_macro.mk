obj-m += anemo.o
ccflags-y += -UANEMO_COMPAT
