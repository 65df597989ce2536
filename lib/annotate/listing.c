// SPDX-License-Identifier: MIT
/*
 * A symbol's listing as perf 6.1 builds it from
 * "objdump --start-address=S --stop-address=E -l -d --no-show-raw-insn [-S] -C":
 * objdump's lines, with the line naming the binary left out, each trimmed
 * of leading and trailing blanks with its tabs expanded; "/file:N" lines
 * (-l) are not shown but set perf's line counter to N, every other line
 * takes the counter and increments it; a line "addr:" in the symbol's range
 * is an instruction.  The instructions come from libcapstone (insn.c), the
 * lines objdump -l and -S put before them from DWARF (libdw), as objdump's
 * show_line() places them.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <prism/disasm.h>

#include "annotate-internal.h"

#define PRECEDING_CONTEXT 5 /* objdump -S: source lines shown before the first one of a file */

/* a source file objdump -S prints from */
struct src_file {
	char *name;
	char *data; /* NULL: not found */
	const char **line; /* starts of lines 1..nr */
	size_t nr;
	unsigned int max_printed, last_line;
};

struct builder {
	struct prism_annotate_listing *out;
	const struct prism_annotate_sym *s;
	int line_nr;
	struct prism_strbuf tmp;
	/* objdump's show_line() state */
	char *prev_func;
	int prev_line;
	unsigned int prev_disc;
	struct src_file *files;
	size_t nr_files, alloc_files;
	int err;
};

static struct prism_annotate_line *new_line(struct builder *b)
{
	struct prism_annotate_listing *l = b->out;
	struct prism_annotate_line *ln;

	if (prism_ensure_mem((void **)&l->lines, &l->alloc, sizeof(*l->lines), l->nr + 1)) {
		b->err = -ENOMEM;
		return NULL;
	}
	ln = &l->lines[l->nr++];
	memset(ln, 0, sizeof(*ln));
	ln->offset = -1;
	return ln;
}

/* perf's strim() and expand_tabs() of one line, into b->tmp */
static void trim_expand(struct builder *b, const char *s, size_t len)
{
	size_t i, col = 0;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	prism_strbuf_reset(&b->tmp);
	for (i = 0; i < len; i++) {
		if (s[i] == '\t') {
			do
				prism_strbuf_addch(&b->tmp, ' ');
			while (++col % 8);
			continue;
		}
		prism_strbuf_addch(&b->tmp, s[i]);
		col++;
	}
}

/* perf's "^/[^:]+:([0-9]+)": a file:line line sets the counter */
static bool file_lineno(const char *s, int *nr)
{
	const char *c;

	if (s[0] != '/')
		return false;
	c = strchr(s, ':');
	if (!c || c == s + 1 || !isdigit((unsigned char)c[1]))
		return false;
	*nr = atoi(c + 1);
	return true;
}

/* one of objdump's lines that is no instruction */
static void text_line(struct builder *b, const char *s, size_t len)
{
	struct prism_annotate_line *ln;
	int nr;

	trim_expand(b, s, len);
	if (file_lineno(b->tmp.buf, &nr)) {
		b->line_nr = nr;
		return;
	}
	ln = new_line(b);
	if (!ln)
		return;
	ln->text = strdup(b->tmp.buf);
	if (!ln->text)
		b->err = -ENOMEM;
	ln->line_nr = b->line_nr++;
}

static void text_linef(struct builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void text_linef(struct builder *b, const char *fmt, ...)
{
	struct prism_strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	prism_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	text_line(b, sb.buf, sb.len);
	prism_strbuf_release(&sb);
}

static struct src_file *src_file(struct builder *b, const char *name)
{
	struct src_file *f;
	size_t i, cap = 0;
	const char *p;
	ssize_t n;
	int fd;

	for (i = 0; i < b->nr_files; i++)
		if (!strcmp(b->files[i].name, name))
			return &b->files[i];
	if (prism_ensure_mem((void **)&b->files, &b->alloc_files, sizeof(*b->files),
			     b->nr_files + 1))
		return NULL;
	f = &b->files[b->nr_files];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	if (!f->name)
		return NULL;
	b->nr_files++;
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return f;
	for (i = 0;; i += (size_t)n) {
		if (i + 4096 + 1 > cap) {
			char *d = realloc(f->data, cap = cap * 2 + 8192);

			if (!d)
				break;
			f->data = d;
		}
		n = read(fd, f->data + i, cap - i - 1);
		if (n <= 0)
			break;
	}
	close(fd);
	if (!f->data)
		return f;
	f->data[i] = '\0';
	/* objdump's lines: each ends at '\n' (a last one without it counts too) */
	for (n = 0, cap = 0; (size_t)n < i; n++)
		cap += f->data[n] == '\n';
	cap += i && f->data[i - 1] != '\n';
	f->line = calloc(cap + 1, sizeof(*f->line));
	if (!f->line) {
		zfree(&f->data);
		return f;
	}
	for (p = f->data; f->nr < cap; f->nr++) {
		const char *e = strchr(p, '\n');

		f->line[f->nr] = p;
		p = e ? e + 1 : p + strlen(p);
	}
	return f;
}

static void dump_lines(struct builder *b, struct src_file *f, unsigned int from, unsigned int to)
{
	unsigned int l;

	for (l = from; l <= to && l <= f->nr; l++) {
		const char *s = f->line[l - 1], *e = strchr(s, '\n');

		text_line(b, s, e ? (size_t)(e - s) : strlen(s));
	}
}

/* objdump's show_line(): the function, file:line and source lines before an instruction */
static void show_line(struct builder *b, uint64_t addr, bool source)
{
	const struct prism_annotate_sym *s = b->s;
	struct prism_src_loc loc;
	struct src_file *f;

	if (prism_dso__src_loc(s->dso, addr, &loc) || !loc.line)
		return;
	if (loc.func && (!b->prev_func || strcmp(loc.func, b->prev_func))) {
		char *dem = prism_demangle(loc.func, true);

		/* demangled names bring their parentheses */
		if (dem)
			text_linef(b, "%s:", dem);
		else
			text_linef(b, "%s():", loc.func);
		free(dem);
		b->prev_line = -1;
	}
	if (loc.line != (unsigned int)b->prev_line || loc.discriminator != b->prev_disc) {
		if (loc.discriminator)
			text_linef(b, "%s:%u (discriminator %u)", loc.file ? loc.file : "???",
				   loc.line, loc.discriminator);
		else
			text_linef(b, "%s:%u", loc.file ? loc.file : "???", loc.line);
	}
	f = source && loc.file ? src_file(b, loc.file) : NULL;
	if (f && f->data && loc.line != f->last_line) {
		unsigned int from = loc.line > PRECEDING_CONTEXT ? loc.line - PRECEDING_CONTEXT : 1;

		if (f->max_printed >= from)
			from = f->max_printed < loc.line ? f->max_printed + 1 : loc.line;
		dump_lines(b, f, from, loc.line);
		if (f->max_printed < loc.line)
			f->max_printed = loc.line;
		f->last_line = loc.line;
	}
	if (loc.func && (!b->prev_func || strcmp(loc.func, b->prev_func))) {
		free(b->prev_func);
		b->prev_func = strdup(loc.func);
	}
	b->prev_line = (int)loc.line;
	b->prev_disc = loc.discriminator;
}

/*
 * the vdso's code: perf's cache copy its symbols came from (a vdso image is
 * linked at 0: its addresses are its file offsets), else this process's own
 * image, which prism's symbols take only when its build id is the file's
 */
static int read_vdso(const struct prism_annotate_sym *s, uint8_t *buf, size_t len, char *sect,
		     size_t sect_size)
{
	const char *path = prism_dso__symsrc(s->dso);
	const uint8_t *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	ssize_t n;
	int fd;

	if (!path)
		return -ENOENT;
	if (path[0] != '/') {
		if (!img)
			return -ENOENT;
		memcpy(buf, img + s->start, len);
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	n = pread(fd, buf, len, (off_t)s->start);
	ann_section_name(fd, s->start, sect, sect_size);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

/*
 * the symbol's bytes, the name of their section (left as it is when
 * unknown), and the file read (NULL for this process's vdso)
 */
static int read_code(struct prism_annotate *a, const struct prism_annotate_sym *s, uint8_t *buf,
		     size_t len, char *sect, size_t sect_size, const char **file)
{
	struct prism_code_map cm;
	uint64_t rt = s->kernel ? s->start : s->ip - s->dso_addr + s->start;
	ssize_t n;
	int fd, err;

	err = prism_symbols__code_map(a->sy, s->pid, rt, &cm);
	if (err == -ENODATA && s->dso_name && !strcmp(s->dso_name, "[vdso]")) {
		*file = prism_dso__symsrc(s->dso);
		return read_vdso(s, buf, len, sect, sect_size);
	}
	if (err)
		return -ENOENT;
	fd = open(cm.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	*file = cm.path;
	n = pread(fd, buf, len, (off_t)(rt - cm.start + cm.pgoff));
	if (!s->kernel)
		ann_section_name(fd, s->start, sect, sect_size);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

/* objdump's instruction line: "addr:\t[bytes\t]text", as perf reads it */
static void insn_line(struct builder *b, uint64_t addr, const uint8_t *code, size_t n,
		      const char *text, bool raw)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_annotate_line *ln;
	size_t i, col;

	prism_strbuf_addf(&sb, "%" PRIx64 ":\t", addr);
	if (raw) {
		/* objdump: 7 bytes a line, "xx " each, padded, the rest on lines of their own */
		col = sb.len;
		for (i = 0; i < n && i < 7; i++)
			prism_strbuf_addf(&sb, "%02x ", code[i]);
		prism_strbuf_pad_to(&sb, col + 21, ' ');
		prism_strbuf_addch(&sb, '\t');
	}
	prism_strbuf_addstr(&sb, text);
	trim_expand(b, sb.buf, sb.len);
	ln = new_line(b);
	if (ln) {
		const char *colon = strchr(b->tmp.buf, ':');

		ln->offset = (int64_t)(addr - b->s->start);
		ln->addr = addr;
		ln->text = strdup(colon + 1);
		ln->line_nr = b->line_nr++;
		if (!ln->text)
			b->err = -ENOMEM;
	}
	for (i = 7; raw && i < n; i += 7) {
		size_t j;

		prism_strbuf_reset(&sb);
		prism_strbuf_addf(&sb, "%" PRIx64 ":\t", addr + i);
		for (j = i; j < n && j < i + 7; j++)
			prism_strbuf_addf(&sb, "%02x ", code[j]);
		trim_expand(b, sb.buf, sb.len);
		ln = new_line(b);
		if (!ln)
			break;
		ln->offset = (int64_t)(addr + i - b->s->start);
		ln->addr = addr + i;
		ln->text = strdup(strchr(b->tmp.buf, ':') + 1);
		ln->line_nr = b->line_nr++;
		if (!ln->text)
			b->err = -ENOMEM;
	}
	prism_strbuf_release(&sb);
}

/* perf's calc_percent(): an instruction has the samples up to the next one */
static void spread(struct prism_annotate *a, size_t ev, size_t col,
		   const struct prism_annotate_sym *s, struct prism_annotate_listing *l)
{
	uint64_t len = s ? s->end - s->start : 0, tot_n, tot_p;
	size_t i, h = 0, next;

	prism_annotate__totals(a, ev, &tot_n, &tot_p);
	for (i = 0; s && i < l->nr; i++) {
		struct prism_annotate_line *ln = &l->lines[i];
		struct prism_annotate_value *v = &ln->v[col];
		uint64_t end = len;

		if (ln->offset < 0)
			continue;
		for (next = i + 1; next < l->nr; next++)
			if (l->lines[next].offset >= 0) {
				end = (uint64_t)l->lines[next].offset;
				break;
			}
		while (h < s->nr_hits && s->hits[h].offset < (uint64_t)ln->offset)
			h++;
		for (; h < s->nr_hits && s->hits[h].offset < end; h++) {
			v->nr_samples += s->hits[h].nr_samples;
			v->period += s->hits[h].period;
		}
		if (s->nr_samples)
			v->percent[PRISM_PERCENT_LOCAL_HITS] =
				100.0 * v->nr_samples / s->nr_samples;
		if (tot_n)
			v->percent[PRISM_PERCENT_GLOBAL_HITS] = 100.0 * v->nr_samples / tot_n;
		if (s->period)
			v->percent[PRISM_PERCENT_LOCAL_PERIOD] = 100.0 * v->period / s->period;
		if (tot_p)
			v->percent[PRISM_PERCENT_GLOBAL_PERIOD] = 100.0 * v->period / tot_p;
	}
}

/* each instruction's values, one per event, and the width of the addresses */
static int spread_events(struct prism_annotate *a, const size_t *evs, size_t nr_evs,
			 const struct prism_annotate_sym *s, struct prism_annotate_listing *l)
{
	uint64_t last = 0;
	size_t i, j;

	l->nr_events = nr_evs;
	for (i = 0; i < l->nr; i++) {
		if (l->lines[i].offset < 0)
			continue;
		l->lines[i].v = calloc(nr_evs, sizeof(*l->lines[i].v));
		if (!l->lines[i].v)
			return -ENOMEM;
		last = l->lines[i].addr;
	}
	for (j = 0; j < nr_evs; j++)
		spread(a, evs[j], j, prism_annotate__sym_of(a, evs[j], s), l);
	for (l->addr_width = 0; last; last >>= 4)
		l->addr_width++;
	return 0;
}

static void release_builder(struct builder *b)
{
	size_t i;

	for (i = 0; i < b->nr_files; i++) {
		free(b->files[i].name);
		free(b->files[i].data);
		free(b->files[i].line);
	}
	free(b->files);
	free(b->prev_func);
	prism_strbuf_release(&b->tmp);
}

int prism_annotate__listing(struct prism_annotate *a, const size_t *evs, size_t nr_evs,
			    const struct prism_annotate_sym *s,
			    const struct prism_annotate_opts *opts,
			    struct prism_annotate_listing *out)
{
	struct builder b = { .out = out, .s = s, .prev_line = -1 };
	struct prism_disasm *d = NULL;
	struct prism_strbuf text = STRBUF_INIT;
	size_t len = (size_t)(s->end - s->start), off;
	uint8_t *code = NULL;
	const char *file = NULL;
	char sect[64] = ".text";
	int err;

	memset(out, 0, sizeof(*out));
	prism_strbuf_init(&b.tmp);
	if (s->end <= s->start)
		return -ENOENT;
	code = malloc(len);
	if (!code)
		return -ENOMEM;
	err = read_code(a, s, code, len, sect, sizeof(sect), &file);
	if (err)
		goto out;
	/* objdump -S reads the debug file's symbols, objdump without it the binary's */
	a->label_path = opts && opts->source && s->dso ? prism_dso__symsrc(s->dso) : file;
	d = prism_disasm__new(PRISM_DISASM_ATT);
	if (!d) {
		err = -errno;
		goto out;
	}
	/* objdump's head; the line naming the file is the one perf drops */
	text_line(&b, "", 0);
	text_line(&b, "", 0);
	text_line(&b, "", 0);
	text_linef(&b, "Disassembly of section %s:", sect);
	text_line(&b, "", 0);
	prism_strbuf_reset(&text);
	if (ann_file_label(a, s, s->start, true, &text)) {
		prism_strbuf_reset(&text);
		if (ann_put_label(a, s, s->start, &text)) { /* unresolved, or another symbol's */
			prism_strbuf_reset(&text);
			prism_strbuf_addf(&text, " <%s>", s->name);
		}
	}
	text_linef(&b, "%016" PRIx64 "%s:", s->start, text.buf);
	for (off = 0; off < len && !b.err;) {
		uint64_t addr = s->start + off;
		int n;

		if (!s->kernel)
			show_line(&b, addr, opts && opts->source);
		prism_strbuf_reset(&text);
		n = ann_insn_text(a, d, s, code + off, len - off, addr, &text);
		if (n <= 0) { /* objdump: "(bad)", one byte */
			prism_strbuf_reset(&text);
			prism_strbuf_addstr(&text, "(bad)");
			n = 1;
		}
		insn_line(&b, addr, code + off, (size_t)n, text.buf, opts && opts->asm_raw);
		off += (size_t)n;
	}
	err = b.err;
	if (!err)
		err = spread_events(a, evs, nr_evs, s, out);
out:
	a->label_path = NULL;
	if (err)
		prism_annotate_listing__release(out);
	prism_strbuf_release(&text);
	prism_disasm__free(d);
	release_builder(&b);
	free(code);
	return err;
}

void prism_annotate_listing__release(struct prism_annotate_listing *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->lines[i].text);
		free(l->lines[i].v);
	}
	free(l->lines);
	memset(l, 0, sizeof(*l));
}

void prism_annotate__srcline(struct prism_annotate *a, const struct prism_annotate_sym *s,
			     uint64_t addr, bool full, struct prism_strbuf *sb)
{
	struct prism_src_loc loc;

	(void)a;
	if (!s->kernel && !prism_dso__src_loc(s->dso, addr, &loc) && loc.file && loc.line) {
		const char *base = strrchr(loc.file, '/');

		prism_strbuf_addf(sb, "%s:%u", full || !base ? loc.file : base + 1, loc.line);
		return;
	}
	prism_strbuf_addf(sb, "%s[%" PRIx64 "]", s->dso_name, addr);
}
