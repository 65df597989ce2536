// SPDX-License-Identifier: MIT
/*
 * The symbolization context: address spaces fed from records, kernel
 * symbols, and address -> frame resolution.
 */
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <prism/features.h>

#include "symbol-internal.h"

#define KSYM_TYPE_BPF 1
#define KSYM_FLAG_UNREGISTER 1

static int parse_path_map(struct prism_symbols *sy, const char *const *pm)
{
	size_t n = 0, i;

	while (pm && pm[n])
		n++;
	if (!n)
		return 0;
	sy->path_map = calloc(2 * n, sizeof(*sy->path_map));
	if (!sy->path_map)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const char *eq = strchr(pm[i], '=');

		if (!eq || eq == pm[i])
			return -EINVAL;
		sy->path_map[2 * i] = strndup(pm[i], (size_t)(eq - pm[i]));
		sy->path_map[2 * i + 1] = strdup(eq + 1);
		sy->nr_path_map++;
		if (!sy->path_map[2 * i] || !sy->path_map[2 * i + 1])
			return -ENOMEM;
	}
	return 0;
}

struct prism_symbols *prism_symbols__new(const struct prism_symbols_opts *opts)
{
	struct prism_symbols *sy = calloc(1, sizeof(*sy));
	const char *home = getenv("HOME");
	char buf[PATH_MAX];
	int err = -ENOMEM;

	if (!sy)
		return NULL;
	if (opts)
		sy->opts = *opts;
	sy->symfs = sy->opts.symfs && *sy->opts.symfs ? strdup(sy->opts.symfs) : NULL;
	sy->kallsyms_path = strdup(sy->opts.kallsyms ? sy->opts.kallsyms : "/proc/kallsyms");
	sy->kallsyms_given = sy->opts.kallsyms != NULL;
	sy->debug_dir = strdup(sy->opts.debug_dir ? sy->opts.debug_dir : "/usr/lib/debug");
	sy->jit_dir = strdup(sy->opts.jit_dir ? sy->opts.jit_dir : "/tmp");
	if (sy->opts.buildid_dir) {
		sy->buildid_dir = strdup(sy->opts.buildid_dir);
	} else if (home && *home) {
		snprintf(buf, sizeof(buf), "%s/.debug", home);
		sy->buildid_dir = strdup(buf);
	}
	if (sy->symfs) {
		snprintf(buf, sizeof(buf), "%s/.debug", sy->symfs);
		sy->dso_cache_dir = strdup(buf);
	} else if (sy->buildid_dir) {
		sy->dso_cache_dir = strdup(sy->buildid_dir);
	}
	if (sy->opts.cache_dir) {
		sy->cache_dir = *sy->opts.cache_dir ? strdup(sy->opts.cache_dir) : NULL;
	} else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME")) {
		snprintf(buf, sizeof(buf), "%s/prism", getenv("XDG_CACHE_HOME"));
		sy->cache_dir = strdup(buf);
	} else if (home && *home) {
		snprintf(buf, sizeof(buf), "%s/.cache/prism", home);
		sy->cache_dir = strdup(buf);
	}
	sy->opts.symfs = sy->opts.kallsyms = sy->opts.debug_dir = sy->opts.cache_dir = NULL;
	sy->opts.buildid_dir = sy->opts.jit_dir = NULL;
	sy->opts.path_map = NULL;
	sy->kmaps = maps__new();
	sy->unknown.name = strdup("[unknown]");
	sy->unknown.path = strdup("[unknown]");
	sy->unknown.loaded = true;
	if (!sy->kallsyms_path || !sy->debug_dir || !sy->jit_dir || !sy->kmaps ||
	    !sy->unknown.name || !sy->unknown.path || (sy->symfs && !sy->dso_cache_dir))
		goto err;
	err = parse_path_map(sy, opts ? opts->path_map : NULL);
	if (err)
		goto err;
	return sy;
err:
	prism_symbols__free(sy);
	errno = -err;
	return NULL;
}

void prism_symbols__free(struct prism_symbols *sy)
{
	size_t i;

	if (!sy)
		return;
	unwind__release(sy); /* its sessions hold maps and read the DSOs' files */
	for (i = 0; i < sy->dso_hash_size; i++) {
		struct prism_dso *d = sy->dso_hash[i], *next;

		for (; d; d = next) {
			next = d->next;
			dso__free(d);
		}
	}
	free(sy->dso_hash);
	for (i = 0; i < sy->procs_cap; i++)
		if (sy->procs[i].used)
			maps__put(sy->procs[i].maps);
	free(sy->procs);
	maps__put(sy->kmaps);
	ksyms__release(&sy->ksyms);
	free(sy->cache_dir);
	free(sy->kname_long);
	free(sy->kname_short);
	for (i = 0; i < sy->nr_bids; i++)
		free(sy->bids[i].path);
	free(sy->bids);
	for (i = 0; i < 2 * sy->nr_path_map; i++)
		free(sy->path_map[i]);
	free(sy->path_map);
	free(sy->kernel_note);
	free(sy->symfs);
	free(sy->kallsyms_path);
	free(sy->debug_dir);
	free(sy->buildid_dir);
	free(sy->dso_cache_dir);
	free(sy->jit_dir);
	free(sy->unknown.name);
	free(sy->unknown.path);
	kcode__free(sy);
	free(sy);
}

static int add_bid(struct prism_symbols *sy, const char *path, const uint8_t *id, uint8_t size,
		   bool kernel)
{
	struct bid_entry *b;

	if (!path || !size)
		return 0;
	if (symbols__bid(sy, path))
		return 0;
	if (prism_ensure_mem((void **)&sy->bids, &sy->alloc_bids, sizeof(*sy->bids),
			     sy->nr_bids + 1))
		return -ENOMEM;
	b = &sy->bids[sy->nr_bids];
	b->path = strdup(path);
	if (!b->path)
		return -ENOMEM;
	b->size = size > BUILD_ID_MAX ? BUILD_ID_MAX : size;
	memcpy(b->id, id, b->size);
	b->kernel = kernel;
	sy->nr_bids++;
	return 0;
}

static bool is_kernel_mode(unsigned int cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

int prism_symbols__set_features(struct prism_symbols *sy, const struct prism_features *f)
{
	const struct prism_feat_build_ids *b = f ? prism_features__build_ids(f) : NULL;
	const char *arch = f ? prism_features__str(f, PRISM_FEAT_ARCH) : NULL;
	size_t i;
	int err;

	/* the unwinder reads x86-64 registers: another machine's would give made-up frames */
	sy->unw_foreign_arch = arch && strcmp(arch, "x86_64");
	sy->has_arch = arch != NULL;
	if (!b)
		return 0;
	for (i = 0; i < b->nr; i++) {
		const struct prism_feat_build_id *e = &b->entries[i];
		bool kernel = is_kernel_mode(e->misc & PRISM_MISC_CPUMODE_MASK) && e->filename;

		err = add_bid(sy, e->filename, e->build_id, e->size, kernel);
		if (err)
			return err;
	}
	return 0;
}

/* ---- processes ---- */

static __wraps size_t pid_slot(uint32_t pid, size_t cap)
{
	return (size_t)(pid * 2654435761u) & (cap - 1);
}

static struct proc *find_proc(const struct prism_symbols *sy, uint32_t pid)
{
	size_t s;

	if (!sy->procs_cap)
		return NULL;
	for (s = pid_slot(pid, sy->procs_cap); sy->procs[s].used; s = (s + 1) & (sy->procs_cap - 1))
		if (sy->procs[s].pid == pid)
			return &sy->procs[s];
	return NULL;
}

static int grow_procs(struct prism_symbols *sy)
{
	size_t cap = sy->procs_cap ? sy->procs_cap * 2 : 256, i;
	struct proc *p = calloc(cap, sizeof(*p));

	if (!p)
		return -ENOMEM;
	for (i = 0; i < sy->procs_cap; i++) {
		size_t s;

		if (!sy->procs[i].used)
			continue;
		for (s = pid_slot(sy->procs[i].pid, cap); p[s].used; s = (s + 1) & (cap - 1))
			;
		p[s] = sy->procs[i];
	}
	free(sy->procs);
	sy->procs = p;
	sy->procs_cap = cap;
	return 0;
}

static struct proc *get_proc(struct prism_symbols *sy, uint32_t pid)
{
	struct proc *p = find_proc(sy, pid);
	size_t s;

	if (p)
		return p;
	if ((sy->nr_procs + 1) * 2 > sy->procs_cap && grow_procs(sy))
		return NULL;
	for (s = pid_slot(pid, sy->procs_cap); sy->procs[s].used; s = (s + 1) & (sy->procs_cap - 1))
		;
	p = &sy->procs[s];
	p->maps = maps__new();
	if (!p->maps)
		return NULL;
	p->used = true;
	p->pid = pid;
	sy->nr_procs++;
	return p;
}

/*
 * perf 6.1's map__new(): executable memory without a file (anonymous,
 * /dev/zero, huge pages, [heap], [stack*], SysV segments) is named
 * /tmp/perf-PID.map after the process, whose JIT may describe it there
 */
static bool is_jit_memory(const struct prism_ev_mmap *m, bool mmap2)
{
	static const char *const prefixes[] = { "/dev/zero", "/anon_hugepage", "[stack", "/SYSV" };
	const char *fn = m->filename;
	size_t i;

	if (!strcmp(fn, "//anon") || !strcmp(fn, "[heap]"))
		return true;
	if (mmap2 && !m->no_prot && (m->flags & MAP_HUGETLB))
		return true;
	for (i = 0; i < PRISM_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(fn, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * perf's kernel-mode maps: "[kernel.kallsyms]..." is the kernel, any other
 * name that is a path or "[...]" a module, named as perf names it
 * ("[virtio_net]" for .../virtio_net.ko) and symbolized from kallsyms lines
 * tagged with that module
 */
static int kernel_map_dso(struct prism_symbols *sy, struct prism_dso *dso, const char *filename)
{
	char name[PATH_MAX];

	(void)sy;
	if (dso->kind != DSO_USER && dso->kind != DSO_MODULE)
		return 0;
	if (!strncmp(filename, "[kernel.kallsyms", 16) ||
	    (filename[0] != '/' && filename[0] != '['))
		return 0;
	kmod__name(filename, name, sizeof(name));
	if (dso->kind != DSO_MODULE || strcmp(dso->name, name)) {
		char *n = strdup(name);

		if (!n)
			return -ENOMEM;
		free(dso->name);
		dso->name = n;
	}
	dso->kind = DSO_MODULE;
	dso->loaded = true;
	return 0;
}

static int on_mmap(struct prism_symbols *sy, const struct prism_event *ev)
{
	const struct prism_ev_mmap *m = &ev->mmap;
	unsigned int cpumode = ev->raw->misc & PRISM_MISC_CPUMODE_MASK;
	const char *path = m->filename;
	char jit[32];
	struct prism_dso *dso;
	struct maps *maps;
	bool exec;

	if (ev->type == PERF_RECORD_MMAP2 && !m->no_prot &&
	    !(ev->raw->misc & PRISM_MISC_MMAP_BUILD_ID))
		exec = m->prot & PROT_EXEC;
	else if (ev->type == PERF_RECORD_MMAP2 && !m->no_prot)
		exec = m->prot ? (m->prot & PROT_EXEC) : true;
	else /* MMAP, and MMAP2 without prot: the kernel marks data mappings */
		exec = !(ev->raw->misc & PERF_RECORD_MISC_MMAP_DATA);
	if ((!exec && !sy->opts.data_maps) || !m->filename)
		return 0;
	if (!is_kernel_mode(cpumode) && is_jit_memory(m, ev->type == PERF_RECORD_MMAP2)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)m->pid);
		path = jit;
	}
	dso = symbols__dso(sy, path, m->build_id, m->build_id_size);
	if (!dso)
		return -ENOMEM;
	dso->code |= exec;
	dso->data_only = !dso->code;
	if (is_kernel_mode(cpumode) || m->pid == (uint32_t)-1) {
		int err = kernel_map_dso(sy, dso, m->filename);

		if (err)
			return err;
		if (dso->kind == DSO_KERNEL) {
			sy->kernel = dso;
			sy->kmap.start = m->start;
			sy->kmap.end = m->start + (m->len > UINT64_MAX - m->start ? 0 : m->len);
			sy->kmap.pgoff = m->pgoff;
			sy->kmap.dso = dso;
		}
		maps = sy->kmaps;
	} else {
		struct proc *p = get_proc(sy, m->pid);

		if (!p)
			return -ENOMEM;
		maps = p->maps;
	}
	return maps__insert(maps, m->start, m->len, m->pgoff, dso);
}

static int on_fork(struct prism_symbols *sy, const struct prism_event *ev)
{
	const struct prism_ev_fork *f = &ev->fork;
	struct proc *parent, *child;
	struct maps *copy;

	if (f->pid == f->ppid)
		return 0; /* a new thread shares its process's space */
	/* get_proc() may grow the table: look the parent up afterwards */
	child = get_proc(sy, f->pid);
	if (!child)
		return -ENOMEM;
	parent = find_proc(sy, f->ppid);
	copy = parent ? maps__clone(parent->maps) : maps__new();
	if (!copy)
		return -ENOMEM;
	maps__put(child->maps);
	child->maps = copy;
	return 0;
}

static int on_comm(struct prism_symbols *sy, const struct prism_event *ev)
{
	struct proc *p;
	struct maps *fresh;

	if (!ev->comm.exec)
		return 0;
	p = find_proc(sy, ev->comm.pid);
	if (!p)
		return 0;
	fresh = maps__new();
	if (!fresh)
		return -ENOMEM;
	/* keep one space back: samples inside execve() still unwind the old image */
	fresh->prev = p->maps;
	fresh->unwind_ready = p->maps && p->maps->unwind_ready; /* perf's process keeps it */
	if (fresh->prev && fresh->prev->prev) {
		maps__put(fresh->prev->prev);
		fresh->prev->prev = NULL;
	}
	p->maps = fresh;
	return 0;
}

static int on_ksymbol(struct prism_symbols *sy, const struct prism_event *ev)
{
	const struct prism_ev_ksymbol *k = &ev->ksymbol;
	struct prism_dso *dso;
	char key[PATH_MAX];

	if (k->ksym_type != KSYM_TYPE_BPF || !k->name)
		return 0;
	if (k->flags & KSYM_FLAG_UNREGISTER) {
		maps__remove(sy->kmaps, k->addr, k->len);
		return 0;
	}
	snprintf(key, sizeof(key), "[bpf]%s", k->name);
	dso = symbols__dso(sy, key, NULL, 0);
	if (!dso)
		return -ENOMEM;
	if (dso->kind != DSO_BPF) {
		char *name = strdup(k->name);

		if (!name)
			return -ENOMEM;
		free(dso->name);
		dso->name = name;
		dso->kind = DSO_BPF;
		dso->loaded = true;
	}
	if (!symtab__find(&dso->syms, k->addr)) {
		if (symtab__add(&dso->syms, k->addr, k->len, k->name, STB_GLOBAL, true))
			return -ENOMEM;
		symtab__fixup(&dso->syms);
	}
	return maps__insert(sy->kmaps, k->addr, k->len, 0, dso);
}

/* PERF_RECORD_HEADER_BUILD_ID: header, pid, build_id[24], filename */
static int on_build_id(struct prism_symbols *sy, const struct prism_event *ev)
{
	const uint8_t *p = (const uint8_t *)ev->raw;
	size_t size = ev->raw->size;
	uint8_t id_size = BUILD_ID_MAX;
	char name[PATH_MAX];

	if (size <= 8 + 4 + 24)
		return 0;
	if (ev->raw->misc & PRISM_MISC_BUILD_ID_SIZE)
		id_size = p[8 + 4 + 20];
	if (id_size > BUILD_ID_MAX)
		id_size = BUILD_ID_MAX;
	snprintf(name, sizeof(name), "%.*s", (int)(size - 36), (const char *)p + 36);
	return add_bid(sy, name, p + 12, id_size,
		       is_kernel_mode(ev->raw->misc & PRISM_MISC_CPUMODE_MASK));
}

int prism_symbols__event(struct prism_symbols *sy, const struct prism_event *ev)
{
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(sy, ev);
	case PERF_RECORD_FORK:
		return on_fork(sy, ev);
	case PERF_RECORD_COMM:
		return on_comm(sy, ev);
	case PERF_RECORD_KSYMBOL:
		return on_ksymbol(sy, ev);
	case PRISM_RECORD_HEADER_BUILD_ID:
		return on_build_id(sy, ev);
	default:
		return 0;
	}
}

struct maps *symbols__maps(struct prism_symbols *sy, uint32_t pid)
{
	struct proc *p = find_proc(sy, pid);

	return p ? p->maps : NULL;
}

/* ---- kernel ---- */

const char *prism_symbols__kernel_build_id(struct prism_symbols *sy)
{
	uint8_t id[BUILD_ID_MAX];
	uint8_t size;

	if (!sy->kernel_bid_read) {
		sy->kernel_bid_read = true;
		if (!kernel__read_build_id(id, &size))
			build_id__hex(id, size, sy->kernel_bid_hex);
	}
	return sy->kernel_bid_hex[0] ? sy->kernel_bid_hex : NULL;
}

/* ---- resolution ---- */

static void fill_unknown(struct prism_symbols *sy, struct prism_frame *out, uint64_t ip,
			 bool kernel)
{
	memset(out, 0, sizeof(*out));
	out->ip = ip;
	out->dso_addr = ip;
	out->map_addr = ip;
	out->dso_name = "[unknown]";
	out->dso_path = "[unknown]";
	out->kernel = kernel;
	out->kind = kernel ? PRISM_FRAME_KERNEL : PRISM_FRAME_USER;
}

/*
 * perf's map_ip: the kernel, modules, BPF, anonymous memory (perf 6.1's
 * list: //anon, /dev/zero, /anon_hugepage) and maps without a file show the
 * sampled address; file maps (memfd ones included) their offset + pgoff
 */
static const struct sym *find_cached(struct prism_symbols *sy, const struct symtab *t,
				     uint64_t addr)
{
	size_t h = (size_t)((addr ^ (addr >> 13) ^ ((uintptr_t)t >> 4)) &
			    (PRISM_ARRAY_SIZE(sy->sym_cache) - 1));
	struct sym_cache_entry *e = &sy->sym_cache[h];

	if (e->table != t || e->addr != addr) {
		e->table = t;
		e->addr = addr;
		e->sym = symtab__find(t, addr);
	}
	return e->sym;
}

static bool map_is_identity(struct prism_dso *dso)
{
	static const char *const prefixes[] = { "//anon", "/dev/zero", "/anon_hugepage",
						"[stack", "/SYSV",     "[heap]" };
	size_t i;

	if (dso->map_identity)
		return dso->map_identity > 0;
	dso->map_identity = -1;
	/* a module's address is relative to its map (perf report "[k] 0x5b1e") */
	if (dso->kind == DSO_KERNEL || dso->kind == DSO_BPF || dso->kind == DSO_JIT)
		dso->map_identity = 1;
	for (i = 0; i < PRISM_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(dso->path, prefixes[i], strlen(prefixes[i])))
			dso->map_identity = 1;
	return dso->map_identity > 0;
}

/*
 * perf's names of the kernel: the build-id table's kernel entry names it
 * (a vmlinux path shows in perf script as it is, in perf report as
 * "[kernel.vmlinux]"), else "[kernel.kallsyms]"
 */
static void kernel_names(struct prism_symbols *sy)
{
	const struct bid_entry *kb = kernel_bid(sy);

	sy->kname_done = true;
	if (!kb || !strncmp(kb->path, "[kernel.kallsyms]", 17))
		return;
	sy->kname_long = strdup(kb->path);
	sy->kname_short = strdup(strstr(kb->path, "vmlinux") ? "[kernel.vmlinux]" : kb->path);
}

/*
 * The map of kernel address @ip.  Once perf has loaded the kernel's
 * symbols, its kernel map reaches the last of them: it wins over module
 * maps below that end, and covers addresses past the recorded length.
 */
static struct map *find_kernel_map(struct prism_symbols *sy, uint64_t ip)
{
	struct map *map = maps__find(sy->kmaps, ip);

	if (map && map->dso->kind != DSO_MODULE)
		return map;
	if (!sy->kmap.dso || ip < sy->kmap.start)
		return map;
	if (!sy->ksyms_loaded)
		ksyms__load_for(sy);
	if (sy->ksyms_usable && ip < sy->ksyms.kernel_end)
		return &sy->kmap;
	return map;
}

int prism_symbols__resolve(struct prism_symbols *sy, uint32_t pid, uint8_t cpumode, uint64_t ip,
			   struct prism_frame *out)
{
	bool kernel = is_kernel_mode(cpumode);
	struct map *map = NULL;
	const struct sym *s = NULL;
	const struct symtab *t;
	struct prism_dso *dso;

	fill_unknown(sy, out, ip, kernel);
	if (kernel) {
		/* no kernel map in the file: perf names nothing ("[unknown]") */
		map = find_kernel_map(sy, ip);
	} else {
		struct proc *p = find_proc(sy, pid);

		if (p)
			map = maps__find(p->maps, ip);
	}
	if (!map)
		return 1;
	dso = map->dso;
	/* the DSO's segments decide dso_addr (an ET_EXEC's addresses are absolute) */
	if (!dso->loaded && !dso->data_only && dso->kind != DSO_KERNEL && dso->kind != DSO_MODULE &&
	    dso->kind != DSO_BPF)
		dso__load(sy, dso, pid);
	out->dso = dso;
	out->dso_name = dso->name;
	out->dso_path = dso->path;
	out->dso_addr = map__dso_addr(map, ip);
	if (!map_is_identity(dso))
		out->map_addr = map__file_off(map, ip);
	switch (dso->kind) {
	case DSO_KERNEL:
		if (!sy->kname_done)
			kernel_names(sy);
		/* perf shows the kernel as [kernel.kallsyms], not its map's name (..._text) */
		out->dso_name = sy->kname_short ? sy->kname_short : dso->name;
		out->dso_path = sy->kname_long ? sy->kname_long : dso->name;
		if (!sy->ksyms_loaded)
			ksyms__load_for(sy);
		s = sy->ksyms_usable ? find_cached(sy, &sy->ksyms.kernel, ip) : NULL;
		out->kernel = true;
		out->kind = PRISM_FRAME_KERNEL;
		break;
	case DSO_MODULE:
		/* perf script and report both show a module as "[name]" */
		out->dso_path = dso->name;
		if (!sy->ksyms_loaded)
			ksyms__load_for(sy);
		t = NULL;
		if (sy->ksyms_usable && dso->name[0] == '[') {
			char mod[256];
			size_t n = strlen(dso->name);

			if (n >= 3 && n - 2 < sizeof(mod)) {
				snprintf(mod, sizeof(mod), "%.*s", (int)(n - 2), dso->name + 1);
				t = ksyms__module(&sy->ksyms, mod, false);
			}
		}
		s = t ? find_cached(sy, t, ip) : NULL;
		out->kernel = true;
		out->kind = PRISM_FRAME_KERNEL;
		break;
	case DSO_BPF:
		/* perf script shows a BPF program's own name, not the key "[bpf]name" */
		out->dso_path = dso->name;
		s = symtab__find(&dso->syms, ip);
		out->kernel = true;
		out->kind = PRISM_FRAME_BPF;
		break;
	default:
		/* perf-PID.map symbols may be added later: not cached */
		s = dso->kind == DSO_JIT ? symtab__find(&dso->syms, out->dso_addr) :
					   find_cached(sy, &dso->syms, out->dso_addr);
		/* demangled on first use (dso.c) */
		if (s && s->mangled)
			symtab__demangle(&dso->syms, (struct sym *)s, sy->opts.demangle_params);
		if (dso->kind == DSO_JIT)
			out->kind = PRISM_FRAME_JIT;
		break;
	}
	if (!s)
		return 1;
	out->sym = s->name;
	out->sym_id = s;
	out->sym_start = s->start;
	out->sym_end = s->end;
	out->sym_binding = s->binding;
	out->symoff = out->dso_addr - s->start;
	return 0;
}

static int cc_push(struct prism_callchain *cc, const struct prism_frame *f)
{
	if (prism_ensure_mem((void **)&cc->frames, &cc->alloc, sizeof(*cc->frames), cc->nr + 1))
		return -ENOMEM;
	cc->frames[cc->nr++] = *f;
	return 0;
}

/*
 * A frame expanded into the functions DWARF places at its address
 * (innermost inlined function first, the containing function last), as perf
 * does for unwound frames: names other than the ELF symbol's are inlined
 * frames, the one equal to it (or without a name) is the frame itself.
 */
static int push_with_inlines(struct prism_callchain *cc, const struct prism_frame *f)
{
	const char *names[16];
	int n = 0, i;

	if (f->dso && f->sym && !f->kernel)
		n = srcline__inlines(f->dso, f->dso_addr, names, PRISM_ARRAY_SIZE(names));
	if (n <= 0)
		return cc_push(cc, f);
	for (i = 0; i < n; i++) {
		struct prism_frame in = *f;

		if (names[i] && strcmp(names[i], f->sym)) {
			in.sym = names[i];
			in.sym_id = names[i];
			in.kind = PRISM_FRAME_INLINED;
		}
		if (cc_push(cc, &in))
			return -ENOMEM;
	}
	return 0;
}

/*
 * perf 6.1 (libunwind) sets a process up for DWARF unwinding when a map
 * whose file it can read as ELF enters its address space; until then, in a
 * file that names its architecture, it unwinds nothing and prints no frame
 * (a file of another machine whose binaries are all absent).  Once set up,
 * it stays so.
 */
static bool unwind_ready(struct prism_symbols *sy, uint32_t pid)
{
	struct maps *maps = symbols__maps(sy, pid), *m;
	size_t i;

	if (!sy->has_arch)
		return true; /* perf sets every process up then */
	if (!maps)
		return false;
	for (m = maps; m && !maps->unwind_ready; m = m->prev) {
		if (m->unwind_ready) {
			maps->unwind_ready = true;
			break;
		}
		for (i = 0; i < m->nr && !maps->unwind_ready; i++)
			maps->unwind_ready = dso__has_elf_file(sy, m->maps[i].dso);
	}
	return maps->unwind_ready;
}

struct unw_ctx {
	struct prism_symbols *sy;
	struct prism_callchain *cc;
	uint32_t pid;
	bool inlines;
	int err;
};

static int unw_frame(void *arg, uint64_t pc)
{
	struct unw_ctx *c = arg;
	struct prism_frame f;

	prism_symbols__resolve(c->sy, c->pid, PERF_RECORD_MISC_USER, pc, &f);
	c->err = c->inlines ? push_with_inlines(c->cc, &f) : cc_push(c->cc, &f);
	return c->err;
}

int prism_symbols__callchain(struct prism_symbols *sy, const struct prism_event *ev,
			     struct prism_callchain *cc, unsigned int flags)
{
	bool inlines = flags & PRISM_CALLCHAIN_INLINE;
	const struct prism_sample *s = &ev->sample;
	uint8_t cpumode = ev->raw->misc & PRISM_MISC_CPUMODE_MASK;
	uint8_t mode = cpumode;
	bool have_user = false;
	struct prism_frame f;
	uint64_t i;
	int err;

	cc->nr = cc->nr_recorded = 0;
	for (i = 0; i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
				mode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			case PERF_CONTEXT_KERNEL:
				mode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
				mode = PERF_RECORD_MISC_USER;
				break;
			case PERF_CONTEXT_GUEST_KERNEL:
				mode = PERF_RECORD_MISC_GUEST_KERNEL;
				break;
			case PERF_CONTEXT_GUEST_USER:
				mode = PERF_RECORD_MISC_GUEST_USER;
				break;
			default:
				break;
			}
			continue;
		}
		prism_symbols__resolve(sy, s->pid, mode, ip, &f);
		have_user |= !f.kernel;
		err = inlines ? push_with_inlines(cc, &f) : cc_push(cc, &f);
		if (err)
			return err;
	}
	/*
	 * --call-graph dwarf: the user part comes from unwinding the stack
	 * copy, and is empty when nothing can be trusted (perf prints no frame)
	 */
	cc->nr_recorded = cc->nr;
	if (!have_user && (s->type & PERF_SAMPLE_STACK_USER) &&
	    (s->user_stack_size || s->user_regs)) {
		if (!unwind_ready(sy, s->pid))
			return 0;
		struct unw_ctx c = { .sy = sy,
				     .cc = cc,
				     .pid = s->pid,
				     .inlines = flags & (PRISM_CALLCHAIN_INLINE |
							 PRISM_CALLCHAIN_INLINE_UNWOUND) };
		int n = unwind__user(sy, ev, unw_frame, &c);

		if (n < 0 || c.err)
			return n < 0 ? n : c.err;
		return 0;
	}
	/* no chain (or only markers): the sample address alone */
	if (!cc->nr) {
		prism_symbols__resolve(sy, s->pid, cpumode, s->ip, &f);
		return inlines ? push_with_inlines(cc, &f) : cc_push(cc, &f);
	}
	return 0;
}

const struct prism_unwind_stats *prism_symbols__unwind_stats(const struct prism_symbols *sy)
{
	return &sy->unw_stats;
}

const char *prism_unwind_stop__str(enum prism_unwind_stop why)
{
	static const char *const str[PRISM_UNWIND__NR] = {
		[PRISM_UNWIND_NO_REGS] = "the sample has a stack copy but no user registers",
		[PRISM_UNWIND_ZERO_REGS] = "IP or SP is 0",
		[PRISM_UNWIND_EMPTY_STACK] = "nothing was copied (dyn_size 0)",
		[PRISM_UNWIND_DYN_SIZE] = "dyn_size is larger than the stack copy",
		[PRISM_UNWIND_NO_MAP] = "a frame is at an address no mapping of the process covers",
		[PRISM_UNWIND_NO_BINARY] = "a frame is in code whose binary or CFI was not found",
		[PRISM_UNWIND_TRUNCATED] = "the stack copy ended",
		[PRISM_UNWIND_FAILED] = "unreadable memory or CFI that does not fit",
		[PRISM_UNWIND_ARCH] = "the registers are not x86-64 ones",
	};

	return (unsigned int)why < PRISM_UNWIND__NR ? str[why] : "?";
}

int prism_symbols__sample_ip(struct prism_symbols *sy, const struct prism_event *ev,
			     struct prism_callchain *cc)
{
	cc->nr = cc->nr_recorded = 0;
	if (prism_ensure_mem((void **)&cc->frames, &cc->alloc, sizeof(*cc->frames), 1))
		return -ENOMEM;
	prism_symbols__resolve(sy, ev->sample.pid, ev->raw->misc & PRISM_MISC_CPUMODE_MASK,
			       ev->sample.ip, &cc->frames[0]);
	cc->nr = 1;
	return 0;
}

void prism_callchain__release(struct prism_callchain *cc)
{
	free(cc->frames);
	memset(cc, 0, sizeof(*cc));
}

int prism_symbols__srcline(struct prism_symbols *sy, const struct prism_frame *f, const char **file,
			   unsigned int *line)
{
	if (!f->dso || f->kernel || !f->dso->loaded || f->dso->load_failed)
		return -ENOENT;
	return srcline__find(f->dso, f->dso_addr, file, line);
}

const char *prism_symbols__comp_dir(struct prism_symbols *sy, const struct prism_frame *f)
{
	const char *file, *dir = NULL;
	unsigned int line, disc;

	if (!f->dso || f->kernel || !f->dso->loaded || f->dso->load_failed)
		return NULL;
	if (srcline__find_disc(f->dso, f->dso_addr, &file, &line, &disc, &dir))
		return NULL;
	return dir && *dir ? dir : NULL;
}

char prism_symbols__origin(struct prism_symbols *sy, const struct prism_dso *dso)
{
	if (!dso)
		return '!';
	if (dso->kind == DSO_KERNEL || dso->kind == DSO_MODULE) {
		if (!sy->ksyms_loaded)
			ksyms__load_for(sy);
		return sy->ksyms_usable ? 'k' : '!';
	}
	return dso->origin && !dso->load_failed ? dso->origin : '!';
}
