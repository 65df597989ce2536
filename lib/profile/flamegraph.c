// SPDX-License-Identifier: MIT
/*
 * Flame graphs: a self-contained SVG (no external scripts or fonts) with
 * click-to-zoom, regex search with the share of samples matched, and
 * tooltips.  Frames are merged by name under each parent, children sorted
 * by name, as flamegraph.pl draws them.
 */
#include <inttypes.h>
#include <prism/strbuf.h>

#include "profile-internal.h"

#define FRAME_H 16
#define FONT_SIZE 12
#define XPAD 10
#define YPAD_TOP 60
#define YPAD_BOTTOM 34

enum fkind { FK_ROOT, FK_COMM, FK_USER, FK_KERNEL, FK_JIT, FK_INLINED, FK_BPF };

struct fnode {
	const char *name;
	uint32_t parent, first_child, next, nr_children;
	uint64_t value;
	uint8_t kind;
	uint16_t depth;
};

struct ftree {
	struct fnode *n;
	size_t nr, alloc;
	uint32_t *slots; /* (parent, name) -> node + 1 */
	size_t cap;
	int max_depth;
};

static __wraps uint64_t name_hash(uint32_t parent, const char *s)
{
	return prism_fnv1a(hash_u64(parent + 0x9e3779b97f4a7c15ull), s);
}

static int tree_grow(struct ftree *t)
{
	size_t cap = t->cap ? t->cap * 2 : 4096, i;
	uint32_t *slots;

	if ((t->nr + 1) * 2 < t->cap)
		return 0;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 1; i < t->nr; i++) {
		size_t s = name_hash(t->n[i].parent, t->n[i].name) & (cap - 1);

		while (slots[s])
			s = (s + 1) & (cap - 1);
		slots[s] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

static uint32_t child(struct ftree *t, uint32_t parent, const char *name, uint8_t kind)
{
	uint64_t h = name_hash(parent, name);
	struct fnode *n;
	size_t s;

	for (s = h & (t->cap - 1); t->slots[s]; s = (s + 1) & (t->cap - 1)) {
		n = &t->n[t->slots[s] - 1];
		if (n->parent == parent && !strcmp(n->name, name))
			return t->slots[s] - 1;
	}
	if (tree_grow(t) || prism_ensure_mem((void **)&t->n, &t->alloc, sizeof(*t->n), t->nr + 1))
		return UINT32_MAX;
	n = &t->n[t->nr];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	n->kind = kind;
	n->depth = (uint16_t)(t->n[parent].depth + 1);
	if (n->depth > t->max_depth)
		t->max_depth = n->depth;
	n->next = t->n[parent].first_child;
	t->n[parent].first_child = (uint32_t)t->nr + 1;
	t->n[parent].nr_children++;
	for (s = h & (t->cap - 1); t->slots[s]; s = (s + 1) & (t->cap - 1))
		;
	t->slots[s] = (uint32_t)t->nr + 1;
	return (uint32_t)t->nr++;
}

static uint8_t kind_of(const struct pframe *f)
{
	switch (f->kind) {
	case PRISM_FRAME_KERNEL:
		return FK_KERNEL;
	case PRISM_FRAME_JIT:
		return FK_JIT;
	case PRISM_FRAME_INLINED:
		return FK_INLINED;
	case PRISM_FRAME_BPF:
		return FK_BPF;
	default:
		return f->kernel ? FK_KERNEL : FK_USER;
	}
}

static int build(struct prism_profile *p, struct ftree *t, bool period)
{
	size_t r;

	if (prism_ensure_mem((void **)&t->n, &t->alloc, sizeof(*t->n), 1) || tree_grow(t))
		return -ENOMEM;
	memset(t->n, 0, sizeof(*t->n));
	t->n[0].name = "all";
	t->n[0].kind = FK_ROOT;
	t->nr = 1;
	for (r = 0; r < p->nr_recs; r++) {
		const struct precord *rec = &p->recs[r];
		uint64_t v = period ? rec->period : rec->count;
		uint32_t cur, j;

		cur = child(t, 0, strtab__str(&p->strs, rec->comm_id), FK_COMM);
		if (cur == UINT32_MAX)
			return -ENOMEM;
		t->n[0].value += v;
		t->n[cur].value += v;
		for (j = rec->depth; j > 0; j--) {
			const struct pframe *f = &p->frames[p->pool[rec->off + j - 1]];

			cur = child(t, cur, pframe__label(f), kind_of(f));
			if (cur == UINT32_MAX)
				return -ENOMEM;
			t->n[cur].value += v;
		}
	}
	return 0;
}

static void xml_escape(struct prism_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			prism_strbuf_addstr(sb, "&amp;");
			break;
		case '<':
			prism_strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			prism_strbuf_addstr(sb, "&gt;");
			break;
		case '"':
			prism_strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			prism_strbuf_addstr(sb, "&apos;");
			break;
		default:
			/* control characters are not allowed in XML 1.0 */
			prism_strbuf_addch(sb, (unsigned char)*s < 0x20 ? '?' : *s);
			break;
		}
	}
}

/* a stable pseudo-random number in [0, 1) from a name */
static double name_rand(const char *s, unsigned int salt)
{
	uint64_t h = name_hash(salt, s);

	return (double)(h >> 11) / 9007199254740992.0;
}

static void colour(const struct fnode *n, char *buf, size_t len)
{
	double a = name_rand(n->name, 1), b = name_rand(n->name, 2);
	int r, g, bl;

	switch (n->kind) {
	case FK_ROOT:
	case FK_COMM:
		r = 180 + (int)(40 * a);
		g = r;
		bl = 190 + (int)(40 * a);
		break;
	case FK_KERNEL:
		r = 225 + (int)(30 * a);
		g = 120 + (int)(60 * b);
		bl = 0 + (int)(40 * a);
		break;
	case FK_JIT:
		r = 50 + (int)(60 * a);
		g = 180 + (int)(50 * b);
		bl = 50 + (int)(60 * a);
		break;
	case FK_INLINED:
		r = 50 + (int)(60 * a);
		g = 190 + (int)(40 * b);
		bl = 190 + (int)(40 * b);
		break;
	case FK_BPF:
		r = 160 + (int)(40 * a);
		g = 90 + (int)(40 * b);
		bl = 210 + (int)(40 * a);
		break;
	default:
		r = 205 + (int)(50 * a);
		g = (int)(230 * b);
		bl = (int)(55 * a);
		break;
	}
	snprintf(buf, len, "rgb(%d,%d,%d)", r, g, bl);
}

/* off-CPU palette (flamegraph.pl --colors=io): blues, kernel frames paler */
static void colour_offcpu(const struct fnode *n, char *buf, size_t len)
{
	double a = name_rand(n->name, 1);
	int r, g, bl;

	if (n->kind == FK_ROOT || n->kind == FK_COMM) {
		r = 180 + (int)(40 * a);
		g = r;
		bl = 190 + (int)(40 * a);
	} else if (n->kind == FK_KERNEL) {
		r = 120 + (int)(40 * a);
		g = 160 + (int)(40 * a);
		bl = 235 + (int)(20 * a);
	} else {
		r = 30 + (int)(50 * a);
		g = 80 + (int)(70 * a);
		bl = 190 + (int)(65 * a);
	}
	snprintf(buf, len, "rgb(%u,%u,%u)", (unsigned int)r & 255u, (unsigned int)g & 255u,
		 (unsigned int)bl & 255u);
}

static const char script[] =
	"var svg, details, matched, unzoombtn, W, total;\n"
	"function init(evt) {\n"
	"  svg = document.documentElement;\n"
	"  details = document.getElementById('details').firstChild;\n"
	"  matched = document.getElementById('matched');\n"
	"  unzoombtn = document.getElementById('unzoom');\n"
	"  W = +svg.getAttribute('width');\n"
	"  total = +svg.getAttribute('data-total');\n"
	"  var fr = document.getElementsByClassName('f');\n"
	"  for (var i = 0; i < fr.length; i++) label(fr[i]);\n"
	"}\n"
	"function group(n) {\n"
	"  while (n && n.getAttribute) {\n"
	"    if (n.classList && n.classList.contains('f')) return n;\n"
	"    n = n.parentNode;\n"
	"  }\n"
	"  return null;\n"
	"}\n"
	"function label(g) {\n"
	"  var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
	"  var w = +r.getAttribute('width'), name = g.getAttribute('data-n');\n"
	"  var n = Math.floor((w - 6) / ("
	"12 * 0.59));\n"
	"  t.setAttribute('x', +r.getAttribute('x') + 3);\n"
	"  if (n < 3) t.textContent = '';\n"
	"  else if (name.length > n) t.textContent = name.substring(0, n - 2) + '..';\n"
	"  else t.textContent = name;\n"
	"}\n"
	"function zoom(z) {\n"
	"  var x0 = +z.getAttribute('data-x'), w0 = +z.getAttribute('data-w');\n"
	"  var d0 = +z.getAttribute('data-d'), s = (W - 20) / w0;\n"
	"  var fr = document.getElementsByClassName('f');\n"
	"  unzoombtn.classList.remove('hide');\n"
	"  for (var i = 0; i < fr.length; i++) {\n"
	"    var g = fr[i], r = g.getElementsByTagName('rect')[0];\n"
	"    var x = +g.getAttribute('data-x'), w = +g.getAttribute('data-w');\n"
	"    var d = +g.getAttribute('data-d');\n"
	"    g.classList.remove('parent');\n"
	"    if (d < d0 && x <= x0 + 1e-6 && x + w >= x0 + w0 - 1e-6) {\n"
	"      g.classList.remove('hide'); g.classList.add('parent');\n"
	"      r.setAttribute('x', 10); r.setAttribute('width', W - 20);\n"
	"    } else if (d >= d0 && x >= x0 - 1e-6 && x + w <= x0 + w0 + 1e-6) {\n"
	"      g.classList.remove('hide');\n"
	"      r.setAttribute('x', 10 + (x - x0) * s); r.setAttribute('width', w * s);\n"
	"    } else {\n"
	"      g.classList.add('hide');\n"
	"    }\n"
	"    label(g);\n"
	"  }\n"
	"}\n"
	"function unzoom() {\n"
	"  var fr = document.getElementsByClassName('f');\n"
	"  unzoombtn.classList.add('hide');\n"
	"  for (var i = 0; i < fr.length; i++) {\n"
	"    var g = fr[i], r = g.getElementsByTagName('rect')[0];\n"
	"    g.classList.remove('hide'); g.classList.remove('parent');\n"
	"    r.setAttribute('x', 10 + +g.getAttribute('data-x'));\n"
	"    r.setAttribute('width', g.getAttribute('data-w'));\n"
	"    label(g);\n"
	"  }\n"
	"}\n"
	"function search(re) {\n"
	"  var fr = document.getElementsByClassName('f'), spans = [], sum = 0, end = -1;\n"
	"  for (var i = 0; i < fr.length; i++) {\n"
	"    var g = fr[i], r = g.getElementsByTagName('rect')[0];\n"
	"    if (!g.hasAttribute('data-c')) g.setAttribute('data-c', r.getAttribute('fill'));\n"
	"    if (re && re.test(g.getAttribute('data-n'))) {\n"
	"      r.setAttribute('fill', 'rgb(230,0,230)');\n"
	"      spans.push([+g.getAttribute('data-x'), +g.getAttribute('data-w')]);\n"
	"    } else {\n"
	"      r.setAttribute('fill', g.getAttribute('data-c'));\n"
	"    }\n"
	"  }\n"
	"  spans.sort(function(a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
	"  for (var j = 0; j < spans.length; j++) {\n"
	"    if (spans[j][0] >= end) { sum += spans[j][1]; end = spans[j][0] + spans[j][1]; }\n"
	"  }\n"
	"  matched.textContent = re ? 'Matched: ' + (100 * sum / (W - 20)).toFixed(1) + '%' : '';\n"
	"}\n"
	"function search_prompt() {\n"
	"  var t = prompt('Search for (regular expression):', '');\n"
	"  if (t === null) return;\n"
	"  try { search(t ? new RegExp(t) : null); } catch (e) { alert(e); }\n"
	"}\n"
	"window.addEventListener('click', function(e) {\n"
	"  var g = group(e.target);\n"
	"  if (g) zoom(g);\n"
	"  else if (e.target.id === 'unzoom') unzoom();\n"
	"  else if (e.target.id === 'search') search_prompt();\n"
	"  else if (e.target.id === 'reset') search(null);\n"
	"}, false);\n"
	"window.addEventListener('mouseover', function(e) {\n"
	"  var g = group(e.target);\n"
	"  if (g) details.nodeValue = g.getElementsByTagName('title')[0].textContent;\n"
	"}, false);\n"
	"window.addEventListener('mouseout', function(e) {\n"
	"  if (group(e.target)) details.nodeValue = ' ';\n"
	"}, false);\n"
	"window.addEventListener('keydown', function(e) {\n"
	"  if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {\n"
	"    e.preventDefault(); search_prompt();\n"
	"  }\n"
	"}, false);\n";

struct emit_ctx {
	struct ftree *t;
	struct prism_strbuf *sb;
	double scale; /* pixels per unit */
	double min_width;
	int height;
	const char *count_name;
	uint64_t total;
	bool offcpu_palette;
};

static int cmp_child(const void *pa, const void *pb, void *arg)
{
	const struct ftree *t = arg;

	return strcmp(t->n[*(const uint32_t *)pa].name, t->n[*(const uint32_t *)pb].name);
}

static int emit(struct emit_ctx *c, uint32_t idx, double x)
{
	const struct fnode *n = &c->t->n[idx];
	double w = (double)n->value * c->scale;
	uint32_t *kids, k, i = 0;
	char fill[32];
	int y, err = 0;

	if (w < c->min_width)
		return 0;
	y = c->height - YPAD_BOTTOM - (n->depth + 1) * FRAME_H;
	if (c->offcpu_palette)
		colour_offcpu(n, fill, sizeof(fill));
	else
		colour(n, fill, sizeof(fill));
	prism_strbuf_addf(c->sb,
			  "<g class=\"f\" data-x=\"%.2f\" data-w=\"%.2f\" data-d=\"%u\" data-n=\"",
			  x, w, n->depth);
	xml_escape(c->sb, n->name);
	prism_strbuf_addstr(c->sb, "\"><title>");
	xml_escape(c->sb, n->name);
	prism_strbuf_addf(c->sb, " (%" PRIu64 " %s, %.2f%%)</title>", n->value, c->count_name,
			  c->total ? 100.0 * (double)n->value / (double)c->total : 0.0);
	prism_strbuf_addf(c->sb,
			  "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
			  "rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%d\"></text></g>\n",
			  XPAD + x, y, w, FRAME_H - 1, fill, XPAD + x + 3, y + FRAME_H - 5);
	if (!n->nr_children)
		return 0;
	kids = prism_reallocarray(NULL, n->nr_children, sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	for (k = n->first_child; k; k = c->t->n[k - 1].next)
		kids[i++] = k - 1;
	qsort_r(kids, i, sizeof(*kids), cmp_child, c->t);
	for (k = 0; k < i && !err; k++) {
		err = emit(c, kids[k], x);
		x += (double)c->t->n[kids[k]].value * c->scale;
	}
	free(kids);
	return err;
}

int prism_profile__write_flamegraph(struct prism_profile *p, FILE *fp,
				    const struct prism_flamegraph_opts *opts)
{
	struct prism_flamegraph_opts o = { 0 };
	struct prism_strbuf sb = STRBUF_INIT;
	struct ftree t = { 0 };
	struct emit_ctx c;
	int err, height;

	if (opts)
		o = *opts;
	if (!o.title)
		o.title = "Flame Graph";
	if (!o.width)
		o.width = 1200;
	if (o.min_width <= 0)
		o.min_width = 0.1;
	if (!o.count_name)
		o.count_name = o.period ? "period" : "samples";
	err = build(p, &t, o.period);
	if (err)
		goto out;
	height = (t.max_depth + 1) * FRAME_H + YPAD_TOP + YPAD_BOTTOM;
	prism_strbuf_addf(&sb,
			  "<?xml version=\"1.0\" standalone=\"no\"?>\n"
			  "<svg version=\"1.1\" width=\"%u\" height=\"%d\" "
			  "viewBox=\"0 0 %u %d\" onload=\"init(evt)\" data-total=\"%" PRIu64 "\" "
			  "xmlns=\"http://www.w3.org/2000/svg\" "
			  "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
			  o.width, height, o.width, height, t.n[0].value);
	prism_strbuf_addstr(
		&sb, "<style type=\"text/css\">\n"
		     "text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }\n"
		     "#title { text-anchor: middle; font-size: 17px; }\n"
		     "#subtitle { text-anchor: middle; fill: #666; }\n"
		     ".f text { pointer-events: none; }\n"
		     ".f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
		     ".hide { display: none; }\n"
		     ".parent { opacity: 0.5; }\n"
		     ".button { cursor: pointer; fill: #333; }\n"
		     ".button:hover { text-decoration: underline; }\n"
		     "</style>\n<script type=\"text/ecmascript\"><![CDATA[\n");
	prism_strbuf_addstr(&sb, script);
	prism_strbuf_addstr(&sb, "]]></script>\n");
	prism_strbuf_addf(&sb,
			  "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%d\" fill=\"#f8f8f8\"/>\n"
			  "<text id=\"title\" x=\"%u\" y=\"24\">",
			  o.width, height, o.width / 2);
	xml_escape(&sb, o.title);
	prism_strbuf_addstr(&sb, "</text>\n");
	if (o.subtitle) {
		prism_strbuf_addf(&sb, "<text id=\"subtitle\" x=\"%u\" y=\"42\">", o.width / 2);
		xml_escape(&sb, o.subtitle);
		prism_strbuf_addstr(&sb, "</text>\n");
	}
	prism_strbuf_addf(
		&sb,
		"<text id=\"unzoom\" class=\"button hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%u\" y=\"24\">Search</text>\n"
		"<text id=\"reset\" class=\"button\" x=\"%u\" y=\"42\">Reset Search</text>\n"
		"<text id=\"matched\" x=\"%u\" y=\"%d\"> </text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		XPAD, o.width - 110, o.width - 110, o.width - 110, height - 12, XPAD, height - 12);
	c.t = &t;
	c.sb = &sb;
	c.scale = t.n[0].value ? (double)(o.width - 2 * XPAD) / (double)t.n[0].value : 0;
	c.min_width = o.min_width;
	c.height = height;
	c.count_name = o.count_name;
	c.offcpu_palette = o.offcpu_palette;
	c.total = t.n[0].value;
	err = emit(&c, 0, 0);
	if (err)
		goto out;
	prism_strbuf_addstr(&sb, "</svg>\n");
	if (prism_strbuf_failed(&sb)) {
		err = -ENOMEM;
		goto out;
	}
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len || ferror(fp))
		err = -EIO;
out:
	prism_strbuf_release(&sb);
	free(t.n);
	free(t.slots);
	return err;
}
