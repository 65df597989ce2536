/* SPDX-License-Identifier: MIT */
/*
 * Shared by strings.bpf.c and its loader strings.c: the record of one
 * captured string argument.
 */
#ifndef PRISM_TRACE_STRINGS_BPF_H
#define PRISM_TRACE_STRINGS_BPF_H

#define STRCAP_LEN 256 /* bytes of a string kept, its NUL included */
#define STRCAP_MAX_ID 1024 /* syscall ids the program looks at */

#define STRCAP_F_FAILED 1 /* the string could not be read (unmapped, not paged in) */
#define STRCAP_F_EXIT 2 /* read again at sys_exit, after the kernel faulted it in */

struct strcap_rec {
	__u32 tid;
	__u16 id;
	__u8 idx; /* the argument */
	__u8 flags;
	__u64 ptr; /* the argument's value */
	__s32 len; /* bytes read, NUL included */
	char str[STRCAP_LEN];
};

#endif /* PRISM_TRACE_STRINGS_BPF_H */
