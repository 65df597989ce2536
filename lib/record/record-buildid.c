// SPDX-License-Identifier: MIT
/*
 * BUILD_ID feature without a second pass over the file: the MMAP/MMAP2
 * records seen while draining give each process's mappings; each sample's ip
 * marks the DSO it falls in (the kernel for kernel-mode samples).  At the end
 * only the DSOs that were hit have their build-id note read (libelf for
 * files, /sys/kernel/notes for the kernel).
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#if HAVE_LIBELF
#include <gelf.h>
#include <libelf.h>
#endif

#include <prism/symbol.h>

#include "record/record-internal.h"

static int dso_find_or_add(struct prism_record *r, const char *name, bool kernel)
{
	size_t i;

	for (i = r->nr_dsos; i-- > 0;)
		if (!strcmp(r->dsos[i].name, name))
			return (int)i;
	if (prism_ensure_mem((void **)&r->dsos, &r->cap_dsos, sizeof(*r->dsos), r->nr_dsos + 1))
		return -1;
	r->dsos[r->nr_dsos].name = strdup(name);
	if (!r->dsos[r->nr_dsos].name)
		return -1;
	r->dsos[r->nr_dsos].hit = false;
	r->dsos[r->nr_dsos].kernel = kernel;
	return (int)r->nr_dsos++;
}

void rec_track_mmap(struct prism_record *r, const uint8_t *rec, bool mmap2)
{
	const struct perf_event_header *h = (const void *)rec;
	size_t fname_off = mmap2 ? 8 + 8 + 24 + 24 + 8 : 8 + 8 + 24;
	uint32_t pid = get_u32(rec + 8);
	uint64_t start = get_u64(rec + 16), len = get_u64(rec + 24);
	const char *name = (const char *)rec + fname_off;
	struct rec_map *m;
	int dso;

	if (fname_off >= h->size || !memchr(name, 0, h->size - fname_off))
		return;
	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
		if (r->kernel_dso < 0 && !strncmp(name, "[kernel.kallsyms]", 17))
			r->kernel_dso = dso_find_or_add(r, "[kernel.kallsyms]", true);
		return;
	}
	if (name[0] != '/')
		return; /* [vdso], //anon, [heap]: no file to read */
	dso = dso_find_or_add(r, name, false);
	if (dso < 0 ||
	    prism_ensure_mem((void **)&r->maps, &r->cap_maps, sizeof(*r->maps), r->nr_maps + 1))
		return;
	m = &r->maps[r->nr_maps++];
	m->pid = pid;
	m->start = start;
	m->end = start + len;
	m->dso = dso;
}

void rec_track_sample(struct prism_record *r, uint32_t pid, uint64_t ip, uint16_t misc)
{
	static __thread size_t last;
	size_t i;

	if ((misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
		if (r->kernel_dso < 0)
			r->kernel_dso = dso_find_or_add(r, "[kernel.kallsyms]", true);
		if (r->kernel_dso >= 0)
			r->dsos[r->kernel_dso].hit = true;
		return;
	}
	if (last < r->nr_maps && r->maps[last].pid == pid && ip >= r->maps[last].start &&
	    ip < r->maps[last].end) {
		r->dsos[r->maps[last].dso].hit = true;
		return;
	}
	/* newest mapping first: a later mmap replaces an earlier one */
	for (i = r->nr_maps; i-- > 0;) {
		const struct rec_map *m = &r->maps[i];

		if (m->pid == pid && ip >= m->start && ip < m->end) {
			r->dsos[m->dso].hit = true;
			last = i;
			return;
		}
	}
}

static int kernel_build_id(uint8_t *id, size_t *len)
{
	uint8_t buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -EIO;
	return prism_note_build_id(buf, (size_t)n, id, 20, len);
}

static int file_build_id(const char *path, uint8_t *id, size_t *len)
{
#if HAVE_LIBELF
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = -ENOENT;
	Elf_Scn *scn = NULL;
	Elf *e;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e) {
		close(fd);
		return -EINVAL;
	}
	while (err && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf)
			err = prism_note_build_id(d->d_buf, d->d_size, id, 20, len);
	}
	elf_end(e);
	close(fd);
	return err;
#else
	(void)path;
	(void)id;
	(void)len;
	return -PRISM_E_NOFEATURE;
#endif
}

/* perf record's build-id cache entry; a failure costs report a source, not the file */
static void cache_add(const char *dir, const struct rec_dso *d, const uint8_t *id, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char s[41];
	size_t i;
	int err;

	for (i = 0; i < len && i < 20; i++) {
		s[2 * i] = hex[id[i] >> 4];
		s[2 * i + 1] = hex[id[i] & 15];
	}
	s[2 * i] = '\0';
	if (d->kernel)
		err = prism_buildid_cache__add(dir, "[kernel.kallsyms]", s, "/proc/kallsyms",
					       "kallsyms");
	else
		err = prism_buildid_cache__add(dir, d->name, s, d->name, "elf");
	if (err)
		pr_debug("record: build-id cache %s: %s: %s\n", dir, d->name, strerror(-err));
}

int rec_add_build_ids(struct prism_record *r)
{
	size_t i;

	for (i = 0; i < r->nr_dsos; i++) {
		const struct rec_dso *d = &r->dsos[i];
		uint8_t id[20];
		size_t len = 0;
		int err;

		if (!d->hit)
			continue;
		err = d->kernel ? kernel_build_id(id, &len) : file_build_id(d->name, id, &len);
		if (err) {
			pr_debug("record: no build id for %s: %s", d->name, strerror(-err));
			continue;
		}
		err = prism_writer__add_build_id(
			r->w, d->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, id, len,
			d->name);
		if (err)
			return err;
		if (r->o.buildid_cache)
			cache_add(r->o.buildid_cache, d, id, len);
	}
	return 0;
}

void rec_free_dsos(struct prism_record *r)
{
	size_t i;

	for (i = 0; i < r->nr_dsos; i++)
		free(r->dsos[i].name);
	free(r->dsos);
	free(r->maps);
	r->dsos = NULL;
	r->maps = NULL;
	r->nr_dsos = r->nr_maps = 0;
}
