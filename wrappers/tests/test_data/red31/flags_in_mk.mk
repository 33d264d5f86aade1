obj-m += fl.o
include $(src)/fl.mk
