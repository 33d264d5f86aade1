// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hints for spatch's C parser: kernel macros whose uses it cannot parse.
 *
 * Every spatch run of ioctl-rework passes this file with --macro-file
 * (wrappers/ioctl_rework/rules.py spatch_options(), `make cocci`, the
 * rule tests), as Coccinelle's own standard.h is passed for the macros
 * every C program meets.  spatch reads these definitions only when it
 * fails to parse a top-level definition and then expands the ones it
 * meets there; a file's own #define of the same name wins.  So an entry
 * changes nothing in a file that parses without it.
 *
 * A body is either one of spatch's hints (YACFE_ITERATOR: a loop head
 * before one statement; YACFE_DECLARATOR: a declaration with its name
 * made by the macro) or a short expansion that parses like the real one.
 * The bodies are ours, not the kernel's: they only need to parse.
 *
 * One family per block.  "Family: NAME" names the rule test
 * semantic-patches/tests/macro_NAME.c, which spatch parses only in part
 * without the block and whole with it (wrappers/tests/test_macro_file.py).
 *
 * Coccinelle's standard.h is applied to every file before this one; a
 * macro defined here is left out of the builtins ioctl-rework passes in
 * its place (wrappers/ioctl_rework/macro_builtins.py), so ours decides.
 *
 * Out of reach of any entry here (reports/parse-coverage.md): a #define
 * whose own body is not C on its own (`#define dprintk if (debug) printk`),
 * as spatch expands nothing inside a #define; a macro the file defines
 * itself; code that is not C (casts as lvalues, typos).
 */

/* Family: iterator. A loop or a scoped lock written as a call before one
 * statement, `scoped_guard(mutex, &m) ret = f();`: without the hint the
 * call needs a ';' and the whole function is lost. */
#define scoped_guard(_name, args...) YACFE_ITERATOR
#define kvm_for_each_vcpu(idx, vcpup, kvm) YACFE_ITERATOR

/* Family: attribute. Attributes the lexer does not know: an attribute
 * with an argument after a declarator, `u32 *p __free(kfree) = ...`, and
 * one that ends a declaration.  __free becomes a bare __name, which the
 * parser takes as an annotation: an __attribute__((...)) there parses,
 * but spatch 1.1.1 then matches nothing in the function. */
#define __free(_name) __cleanup
#define __latent_entropy __attribute__((latent_entropy))

/* Family: declarator. A macro that writes the type and name of a
 * definition with an initializer, `DEFINE_LSM(name) = { ... };`. */
#define DEFINE_LSM(lsm) YACFE_DECLARATOR

/* Family: definer. A macro that defines a whole function and takes no
 * ';', `static DEF_SCSI_QCMD(name)`: without an expansion the function
 * after it is lost.  A prototype is enough for the parser. */
#define DEF_SCSI_QCMD(func_name) \
	int func_name(struct Scsi_Host *shost, struct scsi_cmnd *cmd);

/* Family: type. A macro used as a type, in a local declaration
 * (`typeof_member(struct ops, read) read;`) or a structure member. */
#define typeof_member(T, m) typeof(((T *)0)->m)
#define STRUCT_KFIFO_REC_1(size) struct kfifo

/* Family: list. A macro that stands for several elements of an
 * initializer, each with its comma: `{ TRACE_FLAGS NULL }`. */
#define TRACE_FLAGS "trace-flags",

/* Family: per_cpu. A per-CPU variable, `static DEFINE_PER_CPU(int, n) = 0;`.
 * spatch parses the call as a declaration by itself, but Coccinelle's
 * standard.h expands it into an attribute before __typeof__ that spatch
 * 1.1.1 cannot parse, and its builtins win over this file: the builtins
 * ioctl-rework passes are standard.h less every macro defined here
 * (wrappers/ioctl_rework/macro_builtins.py), so this body, which parses,
 * is the one spatch has when it needs one. */
#define DEFINE_PER_CPU(type, name) __typeof__(type) name
