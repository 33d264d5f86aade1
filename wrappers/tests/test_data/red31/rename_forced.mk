obj-m += hydro.o
ccflags-y += -include $(src)/hydro_rename.h
