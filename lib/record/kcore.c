// SPDX-License-Identifier: MIT
/*
 * The kernel's code as it ran, copied beside a recording (perf record
 * --kcore): DIR/kcore_dir holds a copy of kallsyms and modules and an ELF
 * file "kcore" with only the code segments of /proc/kcore, laid out as
 * perf's copy is so that perf reads it:
 *
 *   - the kernel's text: from _stext (else the lowest function symbol)
 *     rounded down to a page, to _etext rounded up (else a page past the
 *     highest function symbol rounded up);
 *   - the modules: from the lowest module address (modules, or the lowest
 *     module symbol) rounded down, to a page past the highest module
 *     symbol rounded up;
 *   - the page of each entry trampoline (__entry_SYSCALL_64_trampoline).
 *
 * Each is cut to the executable PT_LOAD segment of kcore that holds its
 * start.  The copies' bytes follow each other from the first page after
 * the program headers; a range whose bytes lie inside the kernel's (the
 * same physical text mapped twice) shares them.  No section headers.
 * kallsyms is read again at the end: a module loaded or unloaded during
 * the copy fails it (-EAGAIN).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/record.h>

#include "record/record-internal.h"

#define MAX_TRAMP 64

struct range {
	uint64_t addr, len, off; /* in the source: [addr, addr + len) at file offset off */
	uint64_t rel; /* offset of its bytes after the headers in the copy */
	bool shared; /* its bytes are inside the kernel's range */
};

struct kc {
	uint64_t page;
	uint64_t stext, etext, first, last; /* kernel function symbols */
	uint64_t first_mod, first_mod_sym, last_mod_sym;
	uint64_t tramp[MAX_TRAMP];
	size_t nr_tramp;
	struct range *r;
	size_t nr, cap;
	char *msg;
	size_t msg_len;
};

static __attribute__((format(printf, 3, 4))) int fail(struct kc *k, int err, const char *fmt, ...)
{
	va_list ap;

	if (k->msg && k->msg_len) {
		va_start(ap, fmt);
		vsnprintf(k->msg, k->msg_len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* the whole of a file whose size stat does not tell (/proc) */
static int slurp(const char *path, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t r;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		if (n + 4096 > cap) {
			p = realloc(buf, cap * 2);
			if (!p) {
				err = -ENOMEM;
				goto out;
			}
			buf = p;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto out;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
out:
	if (fd >= 0)
		close(fd);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400), err = 0;
	ssize_t w;

	if (fd < 0)
		return -errno;
	while (len) {
		w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = w < 0 ? -errno : -EIO;
			break;
		}
		buf += w;
		len -= (size_t)w;
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* kallsyms: "ADDR TYPE NAME[\t[MODULE]]" per line; functions are T/t and W/w */
static void parse_kallsyms(struct kc *k, char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char type, name[256];
		uint64_t a;
		int t;

		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) != 3)
			continue;
		t = toupper((unsigned char)type);
		if (t != 'T' && t != 'W')
			continue;
		if (strchr(line, '[')) {
			if (!k->first_mod_sym || a < k->first_mod_sym)
				k->first_mod_sym = a;
			if (a > k->last_mod_sym)
				k->last_mod_sym = a;
			continue;
		}
		if (!k->first || a < k->first)
			k->first = a;
		if (a > k->last)
			k->last = a;
		if (!strcmp(name, "_stext"))
			k->stext = a;
		else if (!strcmp(name, "_etext"))
			k->etext = a;
		else if (!strcmp(name, "__entry_SYSCALL_64_trampoline") && k->nr_tramp < MAX_TRAMP)
			k->tramp[k->nr_tramp++] = a;
	}
}

/* modules: "NAME SIZE REFS DEPS STATE 0xADDR ..." */
static void parse_modules(struct kc *k, char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t a;

		if (sscanf(line, "%*s %*s %*s %*s %*s %" SCNx64, &a) == 1 && a &&
		    (!k->first_mod || a < k->first_mod))
			k->first_mod = a;
	}
}

static uint64_t down(const struct kc *k, uint64_t a)
{
	return a & ~(k->page - 1);
}

static uint64_t up(const struct kc *k, uint64_t a)
{
	return (a + k->page - 1) & ~(k->page - 1);
}

/* the ranges wanted, page aligned; 0 or -EINVAL when kallsyms tells no kernel text */
static int plan(struct kc *k)
{
	k->stext = down(k, k->stext ? k->stext : k->first);
	if (k->etext)
		k->etext = up(k, k->etext);
	else if (k->last)
		k->etext = up(k, k->last) + k->page;
	if (k->first_mod_sym && (!k->first_mod || k->first_mod_sym < k->first_mod))
		k->first_mod = k->first_mod_sym;
	k->first_mod = down(k, k->first_mod);
	if (k->last_mod_sym)
		k->last_mod_sym = up(k, k->last_mod_sym) + k->page;
	if (!k->stext || !k->etext || k->etext <= k->stext)
		return -EINVAL;
	if (k->first_mod && !k->last_mod_sym)
		return -EINVAL;
	return 0;
}

static int add(struct kc *k, uint64_t start, uint64_t end, uint64_t off, uint64_t s, uint64_t e)
{
	struct range *r;

	if (s < start || s >= end || e <= s)
		return 0;
	if (prism_ensure_mem((void **)&k->r, &k->cap, sizeof(*k->r), k->nr + 1))
		return -ENOMEM;
	r = &k->r[k->nr++];
	memset(r, 0, sizeof(*r));
	r->addr = s;
	r->len = (e < end ? e : end) - s;
	r->off = s - start + off;
	return 0;
}

/* cut the wanted ranges to kcore's executable segments */
static int map_segments(struct kc *k, Elf *e)
{
	size_t i, j, n;
	int err;

	if (elf_getphdrnum(e, &n))
		return -ENOEXEC;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t start, end;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		start = ph.p_vaddr;
		end = start + (ph.p_filesz > ph.p_memsz ? ph.p_filesz : ph.p_memsz);
		err = add(k, start, end, ph.p_offset, k->stext, k->etext);
		if (!err)
			err = add(k, start, end, ph.p_offset, k->first_mod, k->last_mod_sym);
		for (j = 0; !err && j < k->nr_tramp; j++) {
			uint64_t s = down(k, k->tramp[j]);

			err = add(k, start, end, ph.p_offset, s, s + k->page);
		}
		if (err)
			return err;
	}
	return 0;
}

/* where each range's bytes go: one after the other, those inside the kernel's shared */
static void layout(struct kc *k)
{
	struct range *kern = NULL;
	uint64_t rel = 0;
	size_t i;

	for (i = 0; i < k->nr && !kern; i++)
		if (k->r[i].addr <= k->stext && k->stext < k->r[i].addr + k->r[i].len)
			kern = &k->r[i];
	for (i = 0; i < k->nr; i++) {
		struct range *r = &k->r[i];

		r->shared = kern && r != kern && r->off >= kern->off &&
			    r->off + r->len <= kern->off + kern->len;
		if (!r->shared) {
			r->rel = rel;
			rel += r->len;
		}
	}
	for (i = 0; i < k->nr; i++)
		if (k->r[i].shared)
			k->r[i].rel = k->r[i].off - kern->off + kern->rel;
}

static int copy_bytes(int from, uint64_t from_off, int to, uint64_t to_off, uint64_t len)
{
	size_t cap = 1 << 16;
	char *buf = malloc(cap);
	int err = buf ? 0 : -ENOMEM;

	while (len && !err) {
		size_t n = len < cap ? (size_t)len : cap;
		ssize_t r = pread(from, buf, n, (off_t)from_off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			err = r < 0 ? -errno : -EIO;
		else if (pwrite(to, buf, (size_t)r, (off_t)to_off) != r)
			err = errno ? -errno : -EIO;
		else {
			from_off += (uint64_t)r;
			to_off += (uint64_t)r;
			len -= (uint64_t)r;
		}
	}
	free(buf);
	return err;
}

/* the ELF header and program headers through libelf, then the bytes */
static int write_kcore(struct kc *k, Elf *src, int src_fd, const char *path)
{
	GElf_Ehdr seh, eh;
	uint64_t base;
	int fd, cls, err = 0;
	size_t i;
	Elf *e;

	if (!gelf_getehdr(src, &seh) || (cls = gelf_getclass(src)) == ELFCLASSNONE)
		return -ENOEXEC;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	if (fd < 0)
		return -errno;
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !gelf_newehdr(e, cls) || !gelf_getehdr(e, &eh)) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(eh.e_ident, seh.e_ident, EI_NIDENT);
	eh.e_type = seh.e_type;
	eh.e_machine = seh.e_machine;
	eh.e_version = seh.e_version;
	eh.e_flags = seh.e_flags;
	eh.e_entry = eh.e_shoff = 0;
	eh.e_shnum = eh.e_shstrndx = eh.e_shentsize = 0;
	if (!gelf_update_ehdr(e, &eh) || !gelf_newphdr(e, k->nr)) {
		err = -ENOMEM;
		goto out;
	}
	base = gelf_fsize(e, ELF_T_EHDR, 1, EV_CURRENT) +
	       gelf_fsize(e, ELF_T_PHDR, k->nr, EV_CURRENT);
	base = up(k, base);
	for (i = 0; i < k->nr; i++) {
		GElf_Phdr ph = {
			.p_type = PT_LOAD,
			.p_flags = PF_R | PF_W | PF_X,
			.p_offset = base + k->r[i].rel,
			.p_vaddr = k->r[i].addr,
			.p_filesz = k->r[i].len,
			.p_memsz = k->r[i].len,
			.p_align = k->page,
		};

		if (!gelf_update_phdr(e, (int)i, &ph)) {
			err = -EINVAL;
			goto out;
		}
	}
	if (elf_update(e, ELF_C_WRITE) < 0) {
		err = -EIO;
		goto out;
	}
	for (i = 0; i < k->nr && !err; i++)
		if (!k->r[i].shared)
			err = copy_bytes(src_fd, k->r[i].off, fd, base + k->r[i].rel, k->r[i].len);
out:
	if (e)
		elf_end(e);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static char *join(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

static int copy_text(struct kc *k, const char *from, const char *to, const char *name, char **text)
{
	char src[4096], dst[4096];
	size_t len;
	int err = slurp(join(src, sizeof(src), from, name), text, &len);

	if (err)
		return fail(k, err, "cannot read %s: %s", src, strerror(-err));
	err = write_file(join(dst, sizeof(dst), to, name), *text, len);
	if (err)
		return fail(k, err, "cannot write %s: %s", dst, strerror(-err));
	return 0;
}

static int same_file(struct kc *k, const char *from, const char *to, const char *name)
{
	char a[4096], b[4096], *x = NULL, *y = NULL;
	size_t xl = 0, yl = 0;
	int err = slurp(join(a, sizeof(a), from, name), &x, &xl);

	if (!err)
		err = slurp(join(b, sizeof(b), to, name), &y, &yl);
	if (!err && (xl != yl || memcmp(x, y, xl)))
		err = fail(k, -EAGAIN,
			   "%s changed while the kernel's code was copied "
			   "(a module was loaded or unloaded)",
			   a);
	else if (err)
		fail(k, err, "cannot read %s again: %s", a, strerror(-err));
	free(x);
	free(y);
	return err;
}

static int copy_kcore(struct kc *k, const char *from, const char *to)
{
	char src[4096], dst[4096];
	int fd, err;
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(k, -ENOSYS, "libelf is not usable");
	fd = open(join(src, sizeof(src), from, "kcore"), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(k, -errno, "cannot read %s: %s", src, strerror(errno));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		err = fail(k, -ENOEXEC, "%s is not an ELF file", src);
		goto out;
	}
	err = map_segments(k, e);
	if (err) {
		fail(k, err, "cannot read the program headers of %s", src);
		goto out;
	}
	if (!k->nr) {
		err = fail(k, -ENOENT,
			   "%s has no executable segment with the kernel's text (%#" PRIx64 ")",
			   src, k->stext);
		goto out;
	}
	layout(k);
	err = write_kcore(k, e, fd, join(dst, sizeof(dst), to, "kcore"));
	if (err)
		fail(k, err, "cannot copy %s to %s: %s", src, dst, strerror(-err));
out:
	if (e)
		elf_end(e);
	close(fd);
	return err;
}

int prism_kcore__copy(const char *from, const char *to, char *msg, size_t msg_len)
{
	struct kc k = { .msg = msg, .msg_len = msg_len };
	char *syms = NULL, *mods = NULL, path[4096];
	long page = sysconf(_SC_PAGESIZE);
	int err;

	if (msg && msg_len)
		msg[0] = '\0';
	k.page = page > 0 ? (uint64_t)page : 4096;
	if (mkdir(to, 0700))
		return fail(&k, -errno, "cannot create %s: %s", to, strerror(errno));
	err = copy_text(&k, from, to, "kallsyms", &syms);
	if (!err)
		err = copy_text(&k, from, to, "modules", &mods);
	if (!err) {
		parse_kallsyms(&k, syms);
		parse_modules(&k, mods);
		err = plan(&k);
		if (err)
			fail(&k, err, "%s/kallsyms tells no kernel text (_stext, _etext)%s", from,
			     getuid() ? ": its addresses are hidden from non-root users" : "");
	}
	free(syms);
	free(mods);
	if (!err)
		err = copy_kcore(&k, from, to);
	free(k.r);
	if (!err)
		err = same_file(&k, from, to, "kallsyms");
	if (err) {
		unlink(join(path, sizeof(path), to, "kcore"));
		unlink(join(path, sizeof(path), to, "modules"));
		unlink(join(path, sizeof(path), to, "kallsyms"));
		rmdir(to);
	}
	return err;
}

/* --- prism record --kcore: the output directory --- */

/* remove what a recording wrote in @dir (data, data.N, kcore_dir), then @dir */
static int remove_data_dir(const char *dir)
{
	static const char *const kc[] = { "kcore", "kallsyms", "modules" };
	char path[4096];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/data", dir);
	unlink(path);
	for (i = 0;; i++) {
		snprintf(path, sizeof(path), "%s/data.%u", dir, i);
		if (unlink(path))
			break;
	}
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/kcore_dir/%s", dir, kc[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	rmdir(path);
	return rmdir(dir) ? -errno : 0;
}

/* the old output out of the way (kept as OUTPUT.old unless !keep_old), then OUTPUT created */
static int make_dir(struct prism_record *r, const char *dir)
{
	char old[4096];
	struct stat st;
	int err = 0;

	snprintf(old, sizeof(old), "%s.old", dir);
	if (!lstat(dir, &st)) {
		if (r->o.keep_old) {
			if (!lstat(old, &st) && S_ISDIR(st.st_mode))
				err = remove_data_dir(old);
			if (!err && rename(dir, old))
				err = -errno;
		} else {
			err = S_ISDIR(st.st_mode) ? remove_data_dir(dir) : unlink(dir) ? -errno : 0;
		}
		if (err) {
			rec_error(r, "cannot move the old %s out of the way: %s", dir,
				  strerror(-err));
			rec_hint(r, "it holds files a recording does not write: remove it, or "
				    "name another output with -o");
			return err;
		}
	}
	if (mkdir(dir, 0700)) { /* as perf: the kernel's code is for root */
		err = -errno;
		rec_error(r, "cannot create the directory %s: %s", dir, strerror(errno));
		return err;
	}
	return 0;
}

int rec_kcore_prepare(struct prism_record *r)
{
	const char *proc = r->o.kcore_proc ? r->o.kcore_proc : "/proc";
	char *data, path[4096];
	int err, fd;

	if (!r->o.kcore)
		return 0;
	snprintf(path, sizeof(path), "%s/kcore", proc);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		rec_error(r, "--kcore: %s is not readable: %s", path, strerror(errno));
		if (err == -ENOENT && !r->o.kcore_proc)
			rec_hint(r, "this kernel has no /proc/kcore (built without "
				    "CONFIG_PROC_KCORE): record without --kcore");
		else
			rec_hint(r, "reading it takes root (CAP_SYS_RAWIO)");
		return err;
	}
	close(fd);
	err = make_dir(r, r->output);
	if (err)
		return err;
	if (asprintf(&data, "%s/data", r->output) < 0)
		return rec_error(r, "out of memory"), -ENOMEM;
	r->dir = r->output;
	r->output = data;
	return 0;
}

int rec_kcore_copy(struct prism_record *r)
{
	char to[4096], msg[1024];
	int err;

	if (!r->dir)
		return 0;
	snprintf(to, sizeof(to), "%s/kcore_dir", r->dir);
	err = prism_kcore__copy(r->o.kcore_proc ? r->o.kcore_proc : "/proc", to, msg, sizeof(msg));
	if (err) {
		rec_error(r, "--kcore: %s", msg);
		if (err == -EAGAIN)
			rec_hint(r, "record again once no module is being loaded");
	}
	return err;
}
