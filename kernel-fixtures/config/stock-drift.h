/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced into every fixture driver built against a stock kernel
 * (wrappers/ioctl_rework/fixture/stock.py): bridges API drift outside the
 * ioctl path that a later stock kernel has and the 2.6-era fixture drivers
 * predate, so that every converted driver is booted on each stock kernel.
 * Nothing of the ioctl path is bridged here; a port of a user's driver
 * gets such drift listed by api_drift.py instead (kernel-fixtures/port).
 */
#ifndef FIXTURE_STOCK_DRIFT_H
#define FIXTURE_STOCK_DRIFT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
/* 6.4: class_create() lost its module owner (declared before the macro). */
#include <linux/device.h>
#define class_create(owner, name) class_create(name)
#endif

#endif /* FIXTURE_STOCK_DRIFT_H */
