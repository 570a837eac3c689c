/*
 * trace_analyze --html: the page's behaviour (built into every page).
 * Reads the data islands (<script type="application/json" id="data-...">),
 * the same JSON documents --format json writes, and draws: the summary's
 * blocks, the account as a sortable, filterable table, the live bytes at
 * the timeline's end, with a tree the zoomable sunburst, with stacks the
 * zoomable flame graph. The URL fragment sets the view, so that a link
 * (or a test) can show one: #sort=KEY&asc=1&filter=TEXT&attr=ATTR&zoom=PATH&flame=A;B
 * &only=SECTION (the others hidden).
 * No network, no library.
 */
'use strict';
(function () {
	var errors = [];
	window.addEventListener('error', function (e) {
		errors.push(String(e.message));
		document.body.setAttribute('data-errors', errors.join(' | '));
	});

	var params = new URLSearchParams(location.hash.slice(1));

	function data(id) {
		var el = document.getElementById('data-' + id);
		return el ? JSON.parse(el.textContent) : null;
	}

	function h(tag, attrs) {
		var el = document.createElement(tag), k, i;
		for (k in attrs || {})
			if (attrs[k] !== null && attrs[k] !== undefined)
				el.setAttribute(k, attrs[k]);
		for (i = 2; i < arguments.length; i++)
			if (arguments[i] !== null && arguments[i] !== undefined)
				el.append(arguments[i]);
		return el;
	}

	function svg(tag, attrs) {
		var el = document.createElementNS('http://www.w3.org/2000/svg', tag), k;
		for (k in attrs || {})
			el.setAttribute(k, attrs[k]);
		return el;
	}

	function grouped(n) {
		var s = String(n), neg = s[0] === '-';
		if (neg)
			s = s.slice(1);
		var parts = s.split('.');
		parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
		return (neg ? '-' : '') + parts.join('.');
	}

	function bytes(b) {
		var a = Math.abs(b);
		if (a >= 10 * 1048576)
			return (b / 1048576).toFixed(1) + ' MiB';
		if (a >= 10 * 1024)
			return (b / 1024).toFixed(1) + ' KiB';
		return grouped(b) + ' B';
	}

	function cell(v) {
		if (v === null || v === undefined)
			return '';
		if (typeof v === 'number')
			return grouped(v);
		if (Array.isArray(v))
			return v.join('\n');
		return String(v);
	}

	/* ---- summary: every block of the document, as the text report has them ---- */

	function tableOf(rows) {
		var cols = rows.length ? Object.keys(rows[0]) : [];
		/* a keyed table's rows say what they are in group_by: the key column's heading */
		var grouping = cols[0] === 'group_by' ? rows[0].group_by : null;
		if (grouping)
			cols = cols.slice(1);
		var t = h('table');
		var tr = h('tr');
		cols.forEach(function (c) {
			tr.append(h('th', { class: typeof rows[0][c] === 'string' ? 'name' : null },
				    grouping && c === 'key' ? grouping : c));
		});
		t.append(h('thead', null, tr));
		var body = h('tbody');
		rows.forEach(function (r) {
			var row = h('tr');
			cols.forEach(function (c) {
				row.append(h('td', { class: typeof r[c] === 'string' ? 'name' : null }, cell(r[c])));
			});
			body.append(row);
		});
		t.append(body);
		return t;
	}

	function listOf(obj) {
		var t = h('table');
		Object.keys(obj).forEach(function (k) {
			t.append(h('tr', null, h('td', { class: 'name' }, k.replace(/_/g, ' ')),
				   h('td', { id: 'v-' + k }, cell(obj[k]))));
		});
		return t;
	}

	function renderSummary() {
		var doc = data('summary'), into = document.querySelector('#summary .body');
		if (!doc)
			return;
		var blocks = h('div', { class: 'blocks' });
		Object.keys(doc).forEach(function (key) {
			var val = doc[key];
			if (key === 'schema_version' || key === 'report')
				return;
			var box = h('div', { class: 'block', id: 'sum-' + key }, h('h3', null, key.replace(/_/g, ' ')));
			if (Array.isArray(val))
				box.append(val.length ? tableOf(val) : h('p', { class: 'note' }, 'none'));
			else if (val && typeof val === 'object')
				box.append(listOf(val));
			else
				box.append(h('p', null, cell(val)));
			blocks.append(box);
		});
		into.append(blocks);
	}

	/* ---- the account: all rows, sortable by every -o key, filterable ---- */

	var columns = [
		{ key: 'caller', title: 'caller', text: true },
		{ key: 'current_dynamic', title: 'current_dynamic', aka: [] },
		{ key: 'waste', title: 'waste (live)' },
		{ key: 'total_dynamic', title: 'total_dynamic', aka: ['bytes'] },
		{ key: 'bytes_req', title: 'total requested' },
		{ key: 'total_waste', title: 'total_waste' },
		{ key: 'frag_pct', title: 'frag %', aka: ['frag'] },
		{ key: 'alloc_count', title: 'alloc_count', aka: ['hit', 'hits'] },
		{ key: 'free_count', title: 'free_count' },
		{ key: 'pingpong', title: 'pingpong' },
		{ key: 'peak_dynamic', title: 'peak', aka: ['peak'] },
		{ key: 'place', title: 'where', text: true },
		/* an allocinfo snapshot's rows */
		{ key: 'live', title: 'live bytes' },
		{ key: 'allocs', title: 'allocations live' },
		{ key: 'avg_bytes', title: 'average' },
		{ key: 'share_pct', title: 'share %' }
	];

	/* An allocinfo snapshot's page (its account's report), not a log's. */
	function isSnapshot() {
		var acct = data('account');
		return !!acct && acct.report === 'allocinfo';
	}

	function accountRows() {
		var acct = data('account'), stats = data('stats'), callers = data('callers');
		var byName = {}, rows = [];
		if (!acct)
			return rows;
		if (acct.report === 'allocinfo') {
			acct.sites.forEach(function (r) {
				rows.push({ caller: r.key, live: r.bytes, allocs: r.allocs, avg_bytes: r.avg_bytes,
					    share_pct: r.share_pct });
			});
			return rows;
		}
		acct.callers.forEach(function (r) {
			var row = { caller: r.key, current_dynamic: r.current_dynamic, waste: r.waste,
				    total_dynamic: r.total_dynamic, alloc_count: r.alloc_count,
				    free_count: r.free_count };
			byName[r.key] = row;
			rows.push(row);
		});
		(stats ? stats.callers : []).forEach(function (s) {
			var row = byName[s.key];
			if (!row)
				return;
			row.bytes_req = s.bytes_req;
			row.total_waste = s.total_waste;
			row.frag_pct = s.frag_pct;
			row.pingpong = s.pingpong;
			row.peak_dynamic = s.peak_dynamic;
		});
		(callers ? callers.callers : []).forEach(function (c) {
			if (byName[c.key])
				byName[c.key].place = c.place;
		});
		return rows;
	}

	function columnOf(key) {
		for (var i = 0; i < columns.length; i++)
			if (columns[i].key === key || (columns[i].aka || []).indexOf(key) >= 0)
				return columns[i];
		return null;
	}

	function renderTable() {
		var rows = accountRows(), into = document.querySelector('#table .body');
		var acct = data('account');
		if (!acct)
			return;
		var cols = columns.filter(function (c) {
			return rows.some(function (r) { return r[c.key] !== undefined; });
		});
		var first = isSnapshot() ? 'live' : 'current_dynamic';
		var sort = columnOf(params.get('sort') || first) || columnOf(first);
		var asc = params.get('asc') === '1';
		var filter = h('input', { type: 'search', id: 'acct-filter', placeholder: 'filter callers (text or /regex/)',
					 value: params.get('filter') || '' });
		var count = h('span', { id: 'acct-count', class: 'note' });
		var table = h('table', { id: 'acct' });
		var head = h('tr');
		var body = h('tbody');
		var foot = h('tfoot');
		into.append(h('div', { class: 'controls' }, filter, count,
			      h('span', { class: 'note' }, 'click a heading to sort; totals are of the rows shown')));
		cols.forEach(function (c) {
			var th = h('th', { class: 'sortable' + (c.text ? ' name' : ''), 'data-key': c.key },
				   c.key === 'caller' && isSnapshot() ? 'site' : c.title);
			th.addEventListener('click', function () {
				asc = sort === c ? !asc : !!c.text;
				sort = c;
				draw();
			});
			head.append(th);
		});
		table.append(h('thead', null, head), body, foot);
		into.append(h('div', { class: 'scroll' }, table));

		function matcher() {
			var f = filter.value.trim(), re = null;
			if (!f)
				return function () { return true; };
			if (f.length > 2 && f[0] === '/' && f[f.length - 1] === '/') {
				try { re = new RegExp(f.slice(1, -1), 'i'); } catch (e) { re = null; }
			}
			if (re)
				return function (r) { return re.test(r.caller) || re.test(r.place || ''); };
			f = f.toLowerCase();
			return function (r) {
				return r.caller.toLowerCase().indexOf(f) >= 0 || (r.place || '').toLowerCase().indexOf(f) >= 0;
			};
		}

		function draw() {
			var keep = matcher(), shown = rows.filter(keep), sums = {};
			shown.sort(function (a, b) {
				var x = a[sort.key], y = b[sort.key], d;
				if (sort.text)
					d = String(x || '').localeCompare(String(y || ''));
				else
					d = (x || 0) - (y || 0);
				if (!asc)
					d = -d;
				return d || a.caller.localeCompare(b.caller);
			});
			head.querySelectorAll('th').forEach(function (th) {
				th.classList.toggle('sorted', th.getAttribute('data-key') === sort.key);
				th.classList.toggle('asc', asc);
			});
			body.textContent = '';
			shown.forEach(function (r) {
				var tr = h('tr', { 'data-caller': r.caller });
				cols.forEach(function (c) {
					tr.append(h('td', { class: c.text ? 'name' : null }, cell(r[c.key])));
					if (!c.text && ['frag_pct', 'avg_bytes', 'share_pct'].indexOf(c.key) < 0)
						sums[c.key] = (sums[c.key] || 0) + (r[c.key] || 0);
				});
				body.append(tr);
			});
			foot.textContent = '';
			var tr = h('tr', { id: 'acct-totals' });
			cols.forEach(function (c, i) {
				tr.append(h('th', { class: c.text ? 'name' : null, 'data-key': c.key },
					    i === 0 ? 'total' : sums[c.key] !== undefined ? grouped(sums[c.key]) : ''));
			});
			foot.append(tr);
			count.textContent = shown.length + ' of ' + rows.length + ' rows';
			table.setAttribute('data-sort', sort.key + (asc ? ' asc' : ' desc'));
		}
		filter.addEventListener('input', draw);
		draw();
	}

	/* ---- the timeline: drawn here from its samples (data-timeline, data-losses) ---- */

	/*
	 * Live bytes over time, stacked by row (the N largest and the rest as
	 * "(other)"), pages held on a panel below: the pointer reads the values
	 * of the nearest sample, a drag zooms to a time window, the legend's
	 * boxes hide rows, the windows of lost events are shaded and their
	 * marks dashed, the highest sample marked. #tl=FROM,TO (seconds as the
	 * log prints them), #tlat=T (read the sample nearest T) and #tloff=ROW;ROW
	 * set the view, as a link or a test does.
	 */
	function renderTimeline() {
		var t = data('timeline'), sec = document.getElementById('timeline');
		if (!t || !sec)
			return;
		var body = sec.querySelector('.body'), n = t.ts_s.length;
		if (!n) {
			body.append(h('p', { class: 'note', id: 'tl-empty' }, 'no sample: nothing was allocated'));
			return;
		}
		var end = t.total[n - 1];
		body.append(h('p', { class: 'note' },
			isSnapshot() ? 'live bytes at the last snapshot: ' : 'live slab bytes at the log\'s last event: ',
			h('b', { id: 'tl-end', 'data-bytes': end }, grouped(end) + ' bytes (' + bytes(end) + ')'),
			'; ' + n + (isSnapshot() ? ' snapshots' : ' samples') +
			(t.untimed ? ' without a time, in order' :
			 ' over ' + t.ts_s[n - 1].toFixed(3) + ' s'),
			t.lost_s.length ? '; events lost at ' + t.lost_s.length + ' places (red)' : ''));

		/* the series: each row's, and the rest of the total as (other) */
		var series = t.rows.map(function (r) { return { name: r.name, values: r.values }; });
		var other = t.total.map(function (v, i) {
			var s = v;
			t.rows.forEach(function (r) { s -= r.values[i]; });
			return s > 0 ? s : 0;
		});
		if (other.some(function (v) { return v > 0; }))
			series.push({ name: '(other)', values: other });
		var off = {};
		(params.get('tloff') || '').split(';').forEach(function (name) {
			if (name)
				off[name] = true;
		});
		var losses = data('losses'), windows = losses ? losses.windows_s : [];
		var x0 = t.ts_s[0], x1 = t.ts_s[n - 1];
		var asked = (params.get('tl') || '').split(',');
		if (asked.length === 2 && asked[0] !== '' && asked[1] !== '' && +asked[1] > +asked[0]) {
			x0 = +asked[0] - t.t0_s;
			x1 = +asked[1] - t.t0_s;
		}
		if (x1 <= x0)
			x1 = x0 + 1;
		var W = 960, H = 300, P = t.pages ? 90 : 0, L = 86, R = 12, T = 14, B = 28;
		var chart = svg('svg', { id: 'tl-chart', viewBox: '0 0 ' + W + ' ' + (H + P + B + T),
					 width: W, height: H + P + B + T, role: 'img' });
		var readout = h('div', { id: 'tl-readout', class: 'note' });
		var legend = h('div', { id: 'tl-legend' });
		var zoomOut = h('button', { type: 'button', id: 'tl-whole' }, 'whole ' + (isSnapshot() ? 'series' : 'log'));
		body.append(h('div', { class: 'tl-tools' }, zoomOut, ' drag across the chart to zoom in'), chart, readout, legend);

		function inWindow(i) {
			return t.ts_s[i] >= x0 && t.ts_s[i] <= x1;
		}
		function xOf(s) {
			return L + (s - x0) / (x1 - x0) * (W - L - R);
		}
		function sOf(x) {
			return x0 + (x - L) / (W - L - R) * (x1 - x0);
		}
		function nearest(s) {
			var best = -1, i;
			for (i = 0; i < n; i++)
				if (inWindow(i) && (best < 0 || Math.abs(t.ts_s[i] - s) < Math.abs(t.ts_s[best] - s)))
					best = i;
			return best;
		}
		/* a round step for about count ticks over span: 1, 2 or 5 times a power of ten */
		function step(span, count) {
			var raw = span / count || 1, mag = Math.pow(10, Math.floor(Math.log10(raw)));
			return [1, 2, 5, 10].map(function (k) { return k * mag; }).find(function (k) { return k >= raw; });
		}
		/* the bytes axis: round figures of the unit the highest is shown in */
		function byteTicks(hi) {
			var unit = hi >= 10 * 1048576 ? 1048576 : hi >= 10 * 1024 ? 1024 : 1;
			var st = step(hi / unit, 5) * unit, out = [], v;
			for (v = 0; v < hi + st; v += st)
				out.push(v);
			return out;
		}
		function draw() {
			while (chart.firstChild)
				chart.removeChild(chart.firstChild);
			var shown = series.filter(function (s) { return !off[s.name]; }), hi = 0, i, k;
			var idx = [];
			for (i = 0; i < n; i++)
				if (inWindow(i))
					idx.push(i);
			idx.forEach(function (i) {
				var sum = 0;
				shown.forEach(function (s) { sum += s.values[i]; });
				if (sum > hi)
					hi = sum;
			});
			var yt = byteTicks(hi || 1), top = yt[yt.length - 1] || 1;
			function yOf(v) {
				return T + H - v / top * H;
			}
			/* the windows of lost events, shaded; their marks, dashed */
			windows.forEach(function (w) {
				var a = Math.max(xOf(w[0]), L), b = Math.min(xOf(w[1]), W - R);
				if (b >= L && a <= W - R)
					chart.append(svg('rect', { class: 'tl-loss', x: a, y: T, width: Math.max(b - a, 2), height: H,
								   fill: 'rgba(217,26,26,0.12)' }));
			});
			/* the grid and its figures */
			yt.forEach(function (v) {
				chart.append(svg('line', { x1: L, x2: W - R, y1: yOf(v), y2: yOf(v), stroke: '#ddd' }));
				var label = svg('text', { x: L - 6, y: yOf(v) + 4, 'text-anchor': 'end', 'font-size': 11 });
				label.textContent = bytes(v).replace(/\.0 /, ' ');
				chart.append(label);
			});
			/* the time axis: round times as the log prints them */
			var st = step(x1 - x0, 6), first = Math.ceil((t.t0_s + x0) / st - 1e-9) * st, at;
			for (at = first; at <= t.t0_s + x1 + 1e-9; at += st) {
				var x = xOf(at - t.t0_s);
				chart.append(svg('line', { x1: x, x2: x, y1: T + H + P, y2: T + H + P + 4, stroke: '#888' }));
				var label = svg('text', { x: x, y: T + H + P + 18, 'text-anchor': 'middle', 'font-size': 11 });
				label.textContent = t.untimed ? String(Math.round(at)) : (+at.toFixed(6)) + (at === first ? ' s' : '');
				chart.append(label);
			}
			/* the rows, stacked: the first at the bottom */
			var base = idx.map(function () { return 0; });
			shown.forEach(function (s) {
				var upper = idx.map(function (i, j) { return base[j] + s.values[i]; });
				var d = '';
				idx.forEach(function (i, j) { d += (j ? 'L' : 'M') + xOf(t.ts_s[i]).toFixed(1) + ' ' + yOf(upper[j]).toFixed(1); });
				for (k = idx.length - 1; k >= 0; k--)
					d += 'L' + xOf(t.ts_s[idx[k]]).toFixed(1) + ' ' + yOf(base[k]).toFixed(1);
				if (idx.length)
					chart.append(svg('path', { class: 'tl-series', 'data-row': s.name, d: d + 'Z',
								   fill: s.name === '(other)' ? '#bbb' : 'hsl(' + hueOf(s.name) + ',55%,62%)',
								   stroke: 'rgba(0,0,0,0.25)', 'stroke-width': 0.5 }));
				base = upper;
			});
			chart.append(svg('line', { x1: L, x2: W - R, y1: T + H, y2: T + H, stroke: '#444' }));
			/* the highest sample of the total */
			var peak = -1;
			for (i = 0; i < n; i++)
				if (peak < 0 || t.total[i] > t.total[peak])
					peak = i;
			chart.setAttribute('data-peak-time', (t.t0_s + t.ts_s[peak]).toFixed(6));
			chart.setAttribute('data-peak-bytes', t.total[peak]);
			if (inWindow(peak)) {
				var px = xOf(t.ts_s[peak]);
				chart.append(svg('line', { id: 'tl-peak', x1: px, x2: px, y1: T, y2: T + H, stroke: '#222',
							   'stroke-dasharray': '1 2' }));
				var left = px > W - R - 120;	/* near the right edge: the label to its left */
				var pl = svg('text', { x: left ? px - 4 : px + 4, y: T + 11, 'font-size': 11,
						       'text-anchor': left ? 'end' : 'start' });
				pl.textContent = 'peak ' + bytes(t.total[peak]);
				chart.append(pl);
			}
			t.lost_s.forEach(function (s) {
				if (s < x0 || s > x1)
					return;
				chart.append(svg('line', { class: 'tl-lost', x1: xOf(s), x2: xOf(s), y1: T, y2: T + H,
							   stroke: '#d91a1a', 'stroke-dasharray': '4 3' }));
			});
			/* the pages held, on their own panel */
			if (t.pages) {
				var ph = 0, pd = '', first = true;
				idx.forEach(function (i) {
					if (t.pages[i] !== null && t.pages[i] > ph)
						ph = t.pages[i];
				});
				idx.forEach(function (i) {
					if (t.pages[i] === null)
						return;
					pd += (first ? 'M' : 'L') + xOf(t.ts_s[i]).toFixed(1) + ' ' +
					      (T + H + P - 6 - (ph ? t.pages[i] / ph : 0) * (P - 18)).toFixed(1);
					first = false;
				});
				chart.append(svg('path', { id: 'tl-pages', d: pd, fill: 'none', stroke: '#3465a4' }));
				var pt = svg('text', { x: L - 6, y: T + H + 24, 'text-anchor': 'end', 'font-size': 10 });
				pt.textContent = grouped(ph) + ' pages';
				chart.append(svg('line', { x1: L, x2: W - R, y1: T + H + P - 6, y2: T + H + P - 6, stroke: '#ddd' }));
				chart.append(pt);
			}
			chart.setAttribute('data-from', (t.t0_s + x0).toFixed(6));
			chart.setAttribute('data-to', (t.t0_s + x1).toFixed(6));
			chart.setAttribute('data-rows', shown.map(function (s) { return s.name; }).join(';'));
			chart.append(guide, band);
		}
		/* the pointer's sample: a line, and its values under the chart */
		var guide = svg('line', { id: 'tl-guide', y1: T, y2: T + H + P, stroke: '#000', visibility: 'hidden' });
		var band = svg('rect', { id: 'tl-band', y: T, height: H, fill: 'rgba(52,101,164,0.15)', visibility: 'hidden' });
		function read(i) {
			if (i < 0)
				return;
			var shown = series.filter(function (s) { return !off[s.name]; }), x = xOf(t.ts_s[i]);
			guide.setAttribute('x1', x);
			guide.setAttribute('x2', x);
			guide.setAttribute('visibility', 'visible');
			readout.setAttribute('data-i', i);
			readout.setAttribute('data-t', t.ts_s[i]);
			readout.setAttribute('data-time', (t.t0_s + t.ts_s[i]).toFixed(6));
			readout.setAttribute('data-total', t.total[i]);
			readout.textContent = '';
			readout.append(h('b', null, (t.untimed ? 'snapshot ' + t.ts_s[i] : (+(t.t0_s + t.ts_s[i]).toFixed(6)) + ' s') +
					 ': ' + grouped(t.total[i]) + ' bytes live'),
				       t.pages && t.pages[i] !== null ? ', ' + grouped(t.pages[i]) + ' pages held' : '');
			var list = h('ul', null);
			shown.slice().reverse().forEach(function (s) {
				list.append(h('li', { 'data-row': s.name, 'data-bytes': s.values[i] },
					      s.name + ': ' + grouped(s.values[i])));
			});
			readout.append(list);
		}
		function pointerX(e) {
			var box = chart.getBoundingClientRect();
			return (e.clientX - box.left) / box.width * W;
		}
		var dragFrom = null;
		chart.addEventListener('mousemove', function (e) {
			var x = pointerX(e);
			if (dragFrom !== null) {
				band.setAttribute('x', Math.min(dragFrom, x));
				band.setAttribute('width', Math.abs(x - dragFrom));
				band.setAttribute('visibility', 'visible');
			}
			if (x >= L && x <= W - R)
				read(nearest(sOf(x)));
		});
		chart.addEventListener('mousedown', function (e) {
			dragFrom = pointerX(e);
			e.preventDefault();
		});
		window.addEventListener('mouseup', function (e) {
			if (dragFrom === null)
				return;
			var a = Math.max(Math.min(dragFrom, pointerX(e)), L), b = Math.min(Math.max(dragFrom, pointerX(e)), W - R);
			dragFrom = null;
			band.setAttribute('visibility', 'hidden');
			if (b - a > 5) {
				var s0 = sOf(a), s1 = sOf(b);
				x0 = s0;
				x1 = s1;
				draw();
			}
		});
		zoomOut.addEventListener('click', function () {
			x0 = t.ts_s[0];
			x1 = t.ts_s[n - 1] > x0 ? t.ts_s[n - 1] : x0 + 1;
			draw();
		});
		series.forEach(function (s) {
			var box = h('input', { type: 'checkbox', 'data-row': s.name });
			box.checked = !off[s.name];
			box.addEventListener('change', function () {
				off[s.name] = !box.checked;
				draw();
			});
			legend.append(h('label', { class: 'tl-key' },
					box, h('span', { class: 'swatch', style: 'background:' +
							  (s.name === '(other)' ? '#bbb' : 'hsl(' + hueOf(s.name) + ',55%,62%)') }),
					s.name));
		});
		draw();
		if (params.get('tlat') !== null)
			read(nearest(+params.get('tlat') - t.t0_s));
	}

	/* ---- the sunburst: the directory tree, click to zoom in, the centre to zoom out ---- */

	function hueOf(name) {
		var x = 0, i;
		for (i = 0; i < name.length; i++)
			x = (x * 31 + name.charCodeAt(i)) >>> 0;
		return x % 360;
	}

	function renderSunburst() {
		var tree = data('tree'), sec = document.getElementById('sunburst');
		if (!tree)
			return;
		sec.hidden = false;
		var attrs = tree.attrs, attr = attrs.indexOf(params.get('attr') || '');
		if (attr < 0)
			attr = tree.root.v[attrs.indexOf('current_dynamic')] > 0 ? attrs.indexOf('current_dynamic') : 0;
		(function link(n, parent) {
			n.parent = parent;
			n.path = parent ? (parent.parent ? parent.path + '/' : '') + n.name : '';
			(n.c || []).forEach(function (k) { link(k, n); });
		})(tree.root, null);
		function find(path) {
			var n = tree.root;
			if (!path)
				return n;
			path.split('/').forEach(function (part) {
				var next = (n.c || []).filter(function (k) { return k.name === part; })[0];
				if (next)
					n = next;
			});
			return n;
		}
		var focus = find(params.get('zoom') || '');
		var select = h('select', { id: 'sb-attr' });
		attrs.forEach(function (a, i) {
			var o = h('option', { value: i }, a);
			if (i === attr)
				o.selected = true;
			select.append(o);
		});
		var crumbs = h('span', { class: 'crumbs', id: 'sb-crumbs' });
		var size = 640, R = size / 2, levels = 6;
		var box = svg('svg', { id: 'sb-svg', width: size, height: size, viewBox: -R + ' ' + -R + ' ' + size + ' ' + size });
		sec.querySelector('.body').append(h('div', { class: 'controls' }, h('label', null, 'measure ', select),
			crumbs, h('span', { class: 'note' }, 'click a wedge to zoom in, the centre to zoom out')), box);
		var staticAttr = attrs.indexOf('static');
		/* static + live: each wedge's static part drawn darker, as the ringchart does */
		function twoParts() {
			return attrs[attr] === 'current' && staticAttr >= 0;
		}
		var partsNote = h('span', { class: 'note', id: 'sb-parts' });
		sec.querySelector('.controls').append(partsNote);
		select.addEventListener('change', function () { attr = +select.value; draw(); });

		function topLevel(n) {
			while (n.parent && n.parent.parent)
				n = n.parent;
			return n;
		}
		function arc(r0, r1, a0, a1) {
			var large = a1 - a0 > Math.PI ? 1 : 0;
			function pt(r, a) { return (r * Math.sin(a)).toFixed(2) + ' ' + (-r * Math.cos(a)).toFixed(2); }
			if (a1 - a0 >= 2 * Math.PI - 1e-9)
				a1 = a0 + 2 * Math.PI - 1e-4;
			return 'M' + pt(r0, a0) + 'A' + r0 + ' ' + r0 + ' 0 ' + large + ' 1 ' + pt(r0, a1) +
				'L' + pt(r1, a1) + 'A' + r1 + ' ' + r1 + ' 0 ' + large + ' 0 ' + pt(r1, a0) + 'Z';
		}
		function draw() {
			var ring = (R - 70) / levels, total = focus.v[attr];
			box.textContent = '';
			partsNote.textContent = twoParts() ? 'darker: the static footprint; lighter: the live bytes' : '';
			var centre = svg('circle', { r: 68, fill: '#f4f5f7', id: 'sb-centre', cursor: 'pointer' });
			centre.addEventListener('click', function () {
				if (focus.parent) {
					focus = focus.parent;
					draw();
				}
			});
			box.append(centre);
			var label = svg('text', { 'text-anchor': 'middle', y: -4, 'font-size': 13, 'font-weight': 'bold', id: 'sb-center', 'data-path': focus.path });
			label.textContent = focus.parent ? focus.name : '(whole tree)';
			var value = svg('text', { 'text-anchor': 'middle', y: 14, 'font-size': 12 });
			value.textContent = bytes(total);
			box.append(label, value);
			crumbs.textContent = '/' + focus.path;
			(function rings(n, depth, a0, a1) {
				if (depth > levels || !n.c)
					return;
				var sum = n.v[attr], a = a0;
				if (sum <= 0)
					return;
				n.c.forEach(function (k) {
					var span = (a1 - a0) * k.v[attr] / sum;
					if (span <= 0)
						return;
					if (span * 180 / Math.PI >= 0.3) {
						var top = topLevel(k);
						var light = Math.min(85, 38 + depth * 8);
						var p = svg('path', { d: arc(68 + (depth - 1) * ring, 68 + depth * ring, a, a + span),
							fill: 'hsl(' + hueOf(top.name) + ',55%,' + light + '%)', 'data-path': k.path });
						var tip = svg('title');
						tip.textContent = k.path + '\n' + grouped(k.v[attr]) + ' bytes (' + bytes(k.v[attr]) + '), ' +
							(100 * k.v[attr] / (total || 1)).toFixed(1) + '% of ' + (focus.path || 'the tree') +
							(twoParts() ? '\nstatic ' + bytes(k.v[staticAttr]) + ', live ' +
							 bytes(Math.max(0, k.v[attr] - k.v[staticAttr])) : '');
						p.append(tip);
						p.addEventListener('click', function () {
							if (k.c) {
								focus = k;
								draw();
							}
						});
						box.append(p);
						if (twoParts() && k.v[staticAttr] > 0) {	/* its static part, darker, from its start */
							var part = span * Math.min(1, k.v[staticAttr] / k.v[attr]);
							box.append(svg('path', { d: arc(68 + (depth - 1) * ring, 68 + depth * ring, a, a + part),
								fill: 'hsl(' + hueOf(top.name) + ',55%,' + (light - 16) + '%)',
								'pointer-events': 'none', class: 'sb-static' }));
						}
						var r0 = 68 + (depth - 1) * ring, mid = a + span / 2;
						if (span * (r0 + ring / 2) > 46) {	/* room for a name */
							var t = svg('text', { x: ((r0 + ring / 2) * Math.sin(mid)).toFixed(1),
								y: (-(r0 + ring / 2) * Math.cos(mid) + 4).toFixed(1),
								'text-anchor': 'middle', 'font-size': 10 });
							t.textContent = k.name.length > 12 ? k.name.slice(0, 11) + '\u2026' : k.name;
							box.append(t);
						}
						rings(k, depth + 1, a, a + span);
					}
					a += span;
				});
			})(focus, 1, 0, 2 * Math.PI);
		}
		draw();
	}

	/* ---- the flame graph: call chains from the root up, click to zoom ---- */

	function renderFlame() {
		var folded = data('folded'), sec = document.getElementById('flame');
		if (!folded || !folded.lines.length)
			return;
		sec.hidden = false;
		var root = { name: 'all', v: 0, kids: {}, parent: null, path: '' };
		var depthMax = 0;
		folded.lines.forEach(function (line) {
			var n = root, frames = line[0].split(';');
			root.v += line[1];
			frames.forEach(function (f, i) {
				if (!n.kids[f])
					n.kids[f] = { name: f, v: 0, kids: {}, parent: n, path: (n.path ? n.path + ';' : '') + f };
				n = n.kids[f];
				n.v += line[1];
			});
			depthMax = Math.max(depthMax, frames.length);
		});
		function find(path) {
			var n = root;
			(path ? path.split(';') : []).forEach(function (f) {
				if (n.kids[f])
					n = n.kids[f];
			});
			return n;
		}
		var focus = find(params.get('flame') || '');
		var rowH = 18, boxEl = h('div', { id: 'fl-box' });
		var crumbs = h('span', { class: 'crumbs', id: 'fl-root' });
		sec.querySelector('.body').append(h('div', { class: 'controls' },
			h('span', { class: 'note' }, folded.weight + '; click a frame to zoom in, the bottom one to zoom out'), crumbs), boxEl);
		function draw() {
			var width = boxEl.clientWidth || 1000, ancestors = [], n;
			boxEl.textContent = '';
			boxEl.style.height = (depthMax + 1) * rowH + 'px';
			crumbs.textContent = focus.path || 'all';
			crumbs.setAttribute('data-path', focus.path);
			for (n = focus; n; n = n.parent)
				ancestors.unshift(n);
			function frame(node, depth, x, w, dim) {
				var el = h('div', { class: 'fr', title: node.name + '\n' + grouped(node.v) + ' (' +
					(100 * node.v / (root.v || 1)).toFixed(2) + '% of all)', 'data-path': node.path },
					w > 40 ? node.name : '');
				el.style.left = x + 'px';
				el.style.width = Math.max(w - 1, 1) + 'px';
				el.style.bottom = depth * rowH + 'px';
				el.style.background = dim ? '#ddd' : 'hsl(' + (20 + hueOf(node.name) % 40) + ',85%,' + (62 + hueOf(node.name) % 15) + '%)';
				el.addEventListener('click', function (e) {
					e.stopPropagation();
					focus = node === focus && node.parent ? node.parent : node;
					draw();
				});
				boxEl.append(el);
			}
			ancestors.forEach(function (a, i) { frame(a, i, 0, width, a !== focus); });
			(function kids(node, depth, x, w) {
				var at = x;
				Object.keys(node.kids).sort().forEach(function (k) {
					var kid = node.kids[k], kw = w * kid.v / (node.v || 1);
					if (kw >= 0.5) {
						frame(kid, depth, at, kw, false);
						kids(kid, depth + 1, at, kw);
					}
					at += kw;
				});
			})(focus, ancestors.length, 0, width);
		}
		draw();
		window.addEventListener('resize', draw);
	}

	/* ---- the answer first: what is held, by whom, what is odd ---- */

	/* an allocinfo snapshot: what is live, who holds it, what grows */
	function renderSnapshotAnswer(sum, rows, into) {
		var t = sum.totals || {}, s = sum.snapshots || {};
		into.append(h('p', { class: 'headline', id: 'headline' },
			      h('strong', null, bytes(t.bytes || 0)), ' live at the last snapshot (',
			      grouped(t.bytes || 0), ' bytes in ', grouped(t.allocs || 0),
			      ' allocations, as /proc/allocinfo counts them), ', grouped(t.sites_live || 0),
			      ' sites of ', grouped(s.sites || 0), (s.snapshots > 1 ? ', ' + s.snapshots + ' snapshots' : ''), '.'));
		var top = rows.filter(function (r) { return r.live > 0; }).slice(0, 5);
		if (top.length) {
			var tb = h('table', { id: 'answer-top' }, h('thead', null, h('tr', null,
				h('th', { class: 'name' }, 'holds the most'), h('th', null, 'live'),
				h('th', null, 'share'), h('th', null, 'allocations'))));
			var body = h('tbody');
			top.forEach(function (r) {
				body.append(h('tr', null, h('td', { class: 'name' }, r.caller), h('td', null, bytes(r.live)),
					      h('td', null, (r.share_pct || 0).toFixed(1) + '%'), h('td', null, grouped(r.allocs || 0))));
			});
			tb.append(body);
			into.append(tb);
		}
		into.append(h('p', { id: 'answer-findings' }, (s.bad_rows ? grouped(s.bad_rows) + ' row(s) not parsed (see the summary); ' : '') +
			(s.duplicate_rows ? grouped(s.duplicate_rows) + ' row(s) of a key listed before, summed' : 'every key listed once') + '.'));
		var sus = sum.leak_suspects || [];
		if (sus.length)
			into.append(h('p', { id: 'answer-suspects' }, 'Growing steadily: ' + sus.slice(0, 3).map(function (x) {
				return x.key + ' (' + x.confidence + ')';
			}).join(', ') + (sus.length > 3 ? ', ...' : '') + '.'));
	}

	function renderAnswer() {
		var sum = data('summary'), rows = accountRows(), into = document.querySelector('#answer .body');
		if (!sum || !into)
			return;
		if (isSnapshot()) {
			renderSnapshotAnswer(sum, rows, into);
			return;
		}
		var b = sum.bytes || {}, ev = sum.events || {};
		var span = ev.span_seconds !== undefined ? ev.span_seconds : null;
		into.append(h('p', { class: 'headline', id: 'headline' },
			      h('strong', null, bytes(b.live || 0)), ' live at the end of the log (',
			      grouped(b.live || 0), ' bytes: the account\'s current bytes allocated), of ',
			      bytes(b.allocated || 0), ' allocated in ', grouped(ev.allocations || 0),
			      ' allocations', span !== null ? ' over ' + grouped(span.toFixed(1)) + ' s' : '', '.'));
		var top = rows.slice().sort(function (x, y) { return y.current_dynamic - x.current_dynamic; })
			.filter(function (r) { return r.current_dynamic > 0; }).slice(0, 5);
		if (top.length) {
			var t = h('table', { id: 'answer-top' }, h('thead', null, h('tr', null,
				h('th', { class: 'name' }, 'holds the most at the end'), h('th', null, 'live'),
				h('th', null, 'share'), h('th', null, 'allocations'))));
			var body = h('tbody');
			top.forEach(function (r) {
				body.append(h('tr', null, h('td', { class: 'name' }, r.caller), h('td', null, bytes(r.current_dynamic)),
					      h('td', null, b.live ? (100 * r.current_dynamic / b.live).toFixed(1) + '%' : ''),
					      h('td', null, grouped(r.alloc_count || 0))));
			});
			t.append(body);
			into.append(t);
		}
		var found = (sum.findings || []).filter(function (f) { return f.count > 0; });
		into.append(h('p', { id: 'answer-findings' }, found.length ? 'Findings: ' + found.map(function (f) {
			return grouped(f.count) + ' ' + f.key.replace(/_/g, ' ');
		}).join(', ') + ' (below, in the summary).' : 'No finding: the log is consistent.'));
		var sus = sum.leak_suspects || [];
		if (sus.length)
			into.append(h('p', { id: 'answer-suspects' }, 'Leak suspects: ' + sus.slice(0, 3).map(function (x) {
				return x.key + ' (' + x.confidence + ')';
			}).join(', ') + (sus.length > 3 ? ', ...' : '') + '.'));
	}

	/* ---- a kernel snapshot's ledger: MemTotal as one bar, then every table ---- */

	var partColours = { free: '#b9d7a8', user: '#8fb3d9', kernel: '#e0a458', unexplained: '#c96b6b' };

	/* The ledger's lines (the last snapshot's of a series), MemTotal's first. */
	function ledgerLines(doc) {
		if (doc.ledger)
			return doc.ledger;
		var n = 0, k;
		if (!doc.ledger_series || !doc.ledger_series.length)
			return [];
		for (k in doc.ledger_series[0])
			if (/^bytes_\d+$/.test(k))
				n++;
		return doc.ledger_series.map(function (r) {
			return { line: r.line, part: r.part, bytes: r['bytes_' + n], source: r.source };
		});
	}

	/* MemTotal split: a bar whose pieces are the lines, coloured by part, labelled. */
	function ledgerBar(lines) {
		var total = 0, width = 900, x = 0;
		lines.forEach(function (l) { if (l.part === 'total') total = l.bytes; });
		if (!total)
			return null;
		var s = svg('svg', { width: width, height: 58, viewBox: '0 0 ' + width + ' 58', id: 'ledger-bar',
				    role: 'img' });
		lines.forEach(function (l) {
			if (l.part === 'total' || l.bytes <= 0)
				return;
			var w = width * l.bytes / total;
			var r = svg('rect', { x: x, y: 0, width: Math.max(w, 0.5), height: 30,
					      fill: partColours[l.part] || '#999', stroke: '#fff' });
			r.append(svg('title'));
			r.firstChild.textContent = l.line + ': ' + bytes(l.bytes) + ' (' + l.source + ')';
			s.append(r);
			if (w > 70) {
				var t = svg('text', { x: x + 4, y: 19, 'font-size': 11 });
				t.textContent = l.line;
				s.append(t);
			}
			x += w;
		});
		var lx = 0;
		['free', 'user', 'kernel', 'unexplained'].forEach(function (p) {
			s.append(svg('rect', { x: lx, y: 40, width: 12, height: 12, fill: partColours[p] }));
			var t = svg('text', { x: lx + 16, y: 50, 'font-size': 11 });
			t.textContent = p;
			s.append(t);
			lx += 110;
		});
		return s;
	}

	function renderLedger() {
		var doc = data('ledger'), section = document.getElementById('ledger');
		if (!doc || !section)
			return false;
		section.hidden = false;
		var into = section.querySelector('.body'), lines = ledgerLines(doc), total = 0;
		lines.forEach(function (l) { if (l.part === 'total') total = l.bytes; });
		var unexplained = lines.filter(function (l) { return l.part === 'unexplained'; })[0];
		var kernel = lines.filter(function (l) { return l.part === 'kernel'; })
			.reduce(function (a, l) { return a + l.bytes; }, 0);
		if (total)
			into.append(h('p', { class: 'headline', id: 'ledger-headline' },
				      h('strong', null, bytes(kernel)), ' in the kernel\'s counted lines, ',
				      unexplained ? h('strong', null, bytes(unexplained.bytes)) : '',
				      unexplained ? ' unexplained (no meminfo counter holds it), ' : '',
				      'of ', bytes(total), ' (MemTotal)', doc.ledger_series ? ', at the last snapshot.' : '.'));
		var bar = ledgerBar(lines);
		if (bar)
			into.append(bar);
		var blocks = h('div', { class: 'blocks' });
		Object.keys(doc).forEach(function (key) {
			var val = doc[key];
			if (key === 'schema_version' || key === 'report')
				return;
			if (key === 'ledger_series' && doc.snapshots)	/* bytes_N headed by its snapshot */
				val = val.map(function (r) {
					var o = {};
					Object.keys(r).forEach(function (k) {
						var m = /^bytes_(\d+)$/.exec(k), s = m && doc.snapshots[m[1] - 1];
						o[s ? s.column : k] = r[k];
					});
					return o;
				});
			var box = h('div', { class: 'block', id: 'ledger-' + key }, h('h3', null, key.replace(/_/g, ' ')));
			if (Array.isArray(val))
				box.append(val.length ? tableOf(val.slice(0, 50)) : h('p', { class: 'note' }, 'none'));
			else if (val && typeof val === 'object')
				box.append(listOf(val));
			blocks.append(box);
		});
		into.append(blocks);
		/* a snapshot has no log: the log's sections go */
		['answer', 'table', 'summary', 'timeline'].forEach(function (id) {
			var s = document.getElementById(id);
			if (s && !data('account'))
				s.hidden = true;
		});
		return true;
	}

	/* ---- the page ---- */

	function renderNav() {
		var nav = document.getElementById('nav');
		document.querySelectorAll('main section').forEach(function (s) {
			if (!s.hidden)
				nav.append(h('a', { href: '#' + s.id }, s.querySelector('h2').textContent));
		});
	}

	renderLedger();
	renderSummary();
	renderAnswer();
	renderTable();
	renderTimeline();
	renderSunburst();
	renderFlame();
	renderNav();
	if (params.get('only'))	/* one section alone: a link to it, a picture of it */
		document.querySelectorAll('main section').forEach(function (s) {
			if (s.id !== params.get('only'))
				s.hidden = true;
		});
	/* how wide the page came out (a test looks that nothing widens it past the window) */
	document.body.setAttribute('data-scroll-width', String(document.documentElement.scrollWidth));
	document.body.setAttribute('data-ready', '1');
})();
