// SPDX-License-Identifier: MIT
/*
 * floor: the lower bound for reading a perf.data file.  It maps the data
 * section in windows, steps every record header (type u32, misc u16,
 * size u16) and counts records per type, without decoding anything else.
 *
 *   floor FILE
 *
 * Also prints the largest FINISHED_ROUND span (bytes between two rounds),
 * which bounds what a time-ordering reader must hold.
 *
 * Handles file mode (data section from the header) and pipe mode (records
 * right after the 16-byte header), in either byte order.
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WINDOW (16u << 20)
#define MAX_TYPE 128

static const uint64_t magic = 0x32454c4946524550ULL; /* "PERFILE2" */

static uint64_t rd64(const uint8_t *p, int swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? bswap_64(v) : v;
}

int main(int argc, char **argv)
{
	uint64_t counts[MAX_TYPE + 1] = { 0 }, total = 0, pos, end, win_off = 0;
	uint64_t round_start, max_round = 0;
	uint8_t hdr[64], *win = NULL;
	size_t win_len = 0;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	int fd, swap, t;

	if (argc != 2) {
		fprintf(stderr, "usage: floor FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "floor: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (pread(fd, hdr, sizeof(hdr), 0) < 16) {
		fprintf(stderr, "floor: %s: shorter than a perf.data header\n", argv[1]);
		return 1;
	}
	if (rd64(hdr, 0) == magic)
		swap = 0;
	else if (rd64(hdr, 1) == magic)
		swap = 1;
	else {
		fprintf(stderr, "floor: %s: no PERFILE2 magic at offset 0\n", argv[1]);
		return 1;
	}
	if (rd64(hdr + 8, swap) == 16) { /* pipe mode */
		pos = 16;
		end = (uint64_t)st.st_size;
	} else {
		pos = rd64(hdr + 40, swap);
		end = pos + rd64(hdr + 48, swap);
		if (end > (uint64_t)st.st_size || end < pos) {
			fprintf(stderr, "floor: %s: data section beyond the end of the file\n",
				argv[1]);
			return 1;
		}
	}
	round_start = pos;
	while (pos + 8 <= end) {
		const uint8_t *p;
		uint32_t type;
		uint16_t size;

		if (!win || pos + 8 > win_off + win_len) {
			if (win)
				munmap(win, win_len);
			win_off = pos & ~((uint64_t)page - 1);
			win_len = end - win_off < WINDOW ? (size_t)(end - win_off) : WINDOW;
			win = mmap(NULL, win_len, PROT_READ, MAP_PRIVATE, fd, (off_t)win_off);
			if (win == MAP_FAILED) {
				fprintf(stderr, "floor: mmap %s at %#" PRIx64 ": %s\n", argv[1],
					win_off, strerror(errno));
				return 1;
			}
			madvise(win, win_len, MADV_SEQUENTIAL);
		}
		p = win + (pos - win_off);
		memcpy(&type, p, 4);
		memcpy(&size, p + 6, 2);
		if (swap) {
			type = bswap_32(type);
			size = bswap_16(size);
		}
		if (size < 8) {
			fprintf(stderr, "floor: %s: record at %#" PRIx64 " has size %u\n", argv[1],
				pos, size);
			return 1;
		}
		counts[type < MAX_TYPE ? type : MAX_TYPE]++;
		total++;
		if (type == 68) { /* PERF_RECORD_FINISHED_ROUND */
			if (pos - round_start > max_round)
				max_round = pos - round_start;
			round_start = pos + size;
		}
		pos += size;
	}
	printf("%16s: %12" PRIu64 "\n", "TOTAL", total);
	for (t = 0; t <= MAX_TYPE; t++)
		if (counts[t])
			printf("%12s%4d: %12" PRIu64 "\n", t == MAX_TYPE ? ">=" : "type", t,
			       counts[t]);
	if (pos - round_start > max_round)
		max_round = pos - round_start;
	printf("%16s: %12" PRIu64 " bytes\n", "largest round", max_round);
	return 0;
}
