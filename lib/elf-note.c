// SPDX-License-Identifier: MIT
/*
 * The GNU build-id note in a block of ELF notes (a SHT_NOTE section, or
 * /sys/kernel/notes), for the reader's symbolization and the recorder's
 * BUILD_ID feature alike.
 */
#include "internal.h"

#define NOTE_GNU_BUILD_ID 3

/*
 * Each note: namesz, descsz, type (u32 each), then the name and the
 * descriptor, each padded to 4 bytes.  The sizes come from a file: padded
 * in 64 bits and checked with range_ok(), they cannot wrap.
 */
int prism_note_build_id(const void *notes, size_t len, uint8_t *id, size_t max, size_t *id_len)
{
	const uint8_t *p = notes;
	size_t off = 0;

	while (range_ok(off, 12, len)) {
		uint32_t namesz = get_u32(p + off), descsz = get_u32(p + off + 4);
		uint32_t type = get_u32(p + off + 8);
		uint64_t name_al = ((uint64_t)namesz + 3) & ~3ull;
		uint64_t desc_al = ((uint64_t)descsz + 3) & ~3ull;

		off += 12;
		if (!range_ok(off, name_al + desc_al, len))
			break;
		if (type == NOTE_GNU_BUILD_ID && namesz == 4 && !memcmp(p + off, "GNU", 4)) {
			*id_len = descsz > max ? max : descsz;
			memcpy(id, p + off + name_al, *id_len);
			return 0;
		}
		off += name_al + desc_al;
	}
	return -ENOENT;
}
