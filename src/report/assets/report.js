// The report page's script, inlined into the page by `oomkit report` (embedded at build time:
// cmake/embed_assets.cmake). It reads the embedded JSON (#oomkit-data) and draws every chart as
// inline SVG. Text always goes through textContent (never innerHTML), so strings from the input
// cannot inject markup. Hover: every point/bar has data-tip (shown in #tooltip) and an SVG
// <title>. Test hooks: chart ids (chart-timeline, chart-step, chart-categories, chart-sweep,
// chart-batch, chart-fixes), point classes (pt-allocated, pt-peak, bar-phase, bar-estimated,
// bar-measured, pt-sweep, pt-batch, bar-fix), the timeline's envelope (env-band, env-peak with
// data-n rows), its mode (.tl-status[data-mode] "marks" | "envelope"), its overlay
// (.tl-overlay: drag to zoom, shift-drag to pan, click a step), window.oomkitTimeline
// {view(), setView(a, b), full}, the step picker (#step-picker) and body[data-ready="1"].
//
// Part 1: the drawing toolkit, the header, memory over time, one step, per-category bars.
// Part 2 (below "the estimator's predicted phases"): sweep and max-batch curves, predicted
// phases, the diagnosis, the configuration tables, the tooltip, and the drawing of every part.
(function () {
'use strict';
const D = JSON.parse(document.getElementById('oomkit-data').textContent);
const SVGNS = 'http://www.w3.org/2000/svg';
const app = document.getElementById('app');
const PHASE_COLOR = { step_start:'#64748b', after_forward:'#2563eb', after_loss:'#9333ea',
  after_backward:'#ea580c', after_optimizer_step:'#16a34a', after_zero_grad:'#0891b2', eval:'#ca8a04' };
const PHASE_LABEL = { step_start:'step start', after_forward:'forward', after_loss:'loss',
  after_backward:'backward', after_optimizer_step:'optimizer step', after_zero_grad:'zero grad', eval:'eval' };
const CAT_COLOR = { parameters:'#2563eb', gradients:'#ea580c', optimizer_state:'#16a34a',
  buffers:'#0891b2', activations:'#9333ea', transient:'#db2777', overhead:'#64748b', peak:'#1e3a8a' };
const RANK_COLORS = ['#c2410c', '#0f766e', '#7c3aed', '#be185d', '#4d7c0f', '#0369a1', '#a16207'];
const C_ALLOC = '#1e3a8a', C_RES = '#94a3b8', C_LIMIT = '#dc2626', C_EST = '#111827', C_USABLE = '#d97706';
const num = v => typeof v === 'number' && isFinite(v);
const phaseColor = p => PHASE_COLOR[p] || '#475569';
const phaseLabel = p => PHASE_LABEL[p] || String(p);

function fmtBytes(b) {            // as oomkit::format_bytes: binary units, two decimals
  if (!num(b)) return 'n/a';
  const sign = b < 0 ? '-' : ''; let v = Math.abs(b);
  if (v < 1024) return sign + Math.round(v) + ' B';
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB']; let u = 0; v /= 1024;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return sign + v.toFixed(2) + ' ' + units[u];
}
const fmtDelta = b => (b > 0 ? '+' : '') + fmtBytes(b);
function unitFor(maxBytes) {      // the axis unit: the largest binary unit the maximum reaches
  const us = [['TiB', 2 ** 40], ['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 1024]];
  for (const [n, d] of us) if (maxBytes >= d) return { name: n, div: d };
  return { name: 'B', div: 1 };
}
function niceStep(range, count) {
  const raw = range / Math.max(1, count); const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / p; return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}
function ticks(lo, hi, count, integer) {
  if (!(hi > lo)) hi = lo + 1;
  let st = niceStep(hi - lo, count); if (integer) st = Math.max(1, Math.round(st));
  const out = []; for (let v = Math.ceil(lo / st) * st; v <= hi + st * 1e-9; v += st) out.push(+v.toFixed(10));
  if (!integer && out[out.length - 1] < hi - st * 1e-9) out.push(+(out[out.length - 1] + st).toFixed(10));  // cover the maximum
  return out;
}
function el(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const k in (attrs || {})) e.setAttribute(k, attrs[k]);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (parent) parent.appendChild(e); return e;
}
function sv(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in (attrs || {})) e.setAttribute(k, attrs[k]);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (parent) parent.appendChild(e); return e;
}
function tip(node, text) { node.setAttribute('data-tip', text); sv('title', {}, node, text); return node; }
function section(title, note) {
  const s = el('section', {}, app); el('h2', {}, s, title); if (note) el('p', { class: 'note' }, s, note); return s;
}
function legend(parent, items) {
  const l = el('div', { class: 'legend' }, parent);
  for (const it of items) {
    const s = el('span', {}, l);
    if (it.line) el('span', { class: 'ln', style: 'border-top:2px ' + (it.dash ? 'dashed ' : 'solid ') + it.color }, s);
    else el('span', { class: 'sw', style: 'background:' + it.color + (it.hollow ? ';background:none;border:2px solid ' + it.color : '') }, s);
    s.appendChild(document.createTextNode(it.label));
  }
}
function table(parent, head, rows, numCols) {
  const t = el('table', {}, parent); const tr = el('tr', {}, el('thead', {}, t));
  head.forEach((h, i) => el('th', numCols && numCols.includes(i) ? { class: 'num' } : {}, tr, h));
  const tb = el('tbody', {}, t);
  for (const r of rows) {
    const row = el('tr', {}, tb);
    r.forEach((c, i) => el('td', numCols && numCols.includes(i) ? { class: 'num' } : {}, row, c));
  }
  return t;
}

// A chart frame: axes, grid, labels; returns scales and the plot group.
function frame(parent, o) {
  const W = o.width || 1040, H = o.height || 360, m = Object.assign({ l: 70, r: 24, t: 16, b: 46 }, o.margin || {});
  const svg = sv('svg', { class: 'chart', id: o.id, viewBox: '0 0 ' + W + ' ' + H, role: 'img',
    'aria-label': o.label || o.id }, parent);
  const pw = W - m.l - m.r, ph = H - m.t - m.b;
  const xs = v => m.l + (v - o.x0) / ((o.x1 - o.x0) || 1) * pw;
  const ys = v => m.t + ph - (v - o.y0) / ((o.y1 - o.y0) || 1) * ph;
  const grid = sv('g', { class: 'grid' }, svg), axis = sv('g', { class: 'axis' }, svg);
  for (const t of o.yTicks) {
    sv('line', { x1: m.l, x2: m.l + pw, y1: ys(t), y2: ys(t) }, grid);
    const g = sv('g', { class: 'tick' }, axis);
    sv('text', { x: m.l - 8, y: ys(t) + 4, 'text-anchor': 'end' }, g, o.yFmt(t));
  }
  for (const t of (o.xTicks || [])) {
    const g = sv('g', { class: 'tick' }, axis);
    sv('line', { x1: xs(t), x2: xs(t), y1: m.t + ph, y2: m.t + ph + 5 }, g);
    sv('text', { x: xs(t), y: m.t + ph + 18, 'text-anchor': 'middle' }, g, o.xFmt ? o.xFmt(t) : t);
  }
  sv('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph }, axis);
  sv('line', { x1: m.l, x2: m.l, y1: m.t, y2: m.t + ph }, axis);
  if (o.xLabel) sv('text', { class: 'axis-label', x: m.l + pw / 2, y: H - 6, 'text-anchor': 'middle' }, svg, o.xLabel);
  sv('text', { class: 'axis-label', transform: 'translate(16,' + (m.t + ph / 2) + ') rotate(-90)',
    'text-anchor': 'middle' }, svg, o.yLabel);
  const plot = sv('g', { class: 'plot' }, svg);
  return { svg, plot, xs, ys, m, pw, ph, W, H };
}
function hline(f, y, color, dash, label, cls) {
  const g = sv('g', { class: cls || 'ref-line' }, f.plot), py = f.ys(y);
  sv('line', { x1: f.m.l, x2: f.m.l + f.pw, y1: py, y2: py, stroke: color, 'stroke-width': 1.5,
    'stroke-dasharray': dash || '' }, g);
  f.labels = f.labels || [];                 // a label too close to an earlier one goes below its line
  const ly = f.labels.some(l => Math.abs(l - (py - 5)) < 13) ? py + 14 : py - 5;
  f.labels.push(ly);
  sv('text', { x: f.m.l + f.pw - 4, y: ly, 'text-anchor': 'end', style: 'fill:' + color + ';font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px' }, g, label);
  tip(g, label);
  return g;
}

// ---- header -----------------------------------------------------------------------------
function header() {
  el('h1', {}, app, D.title);
  el('p', { class: 'sub' }, app, { run: 'Training run', estimate: 'Memory estimate', diagnosis: 'OOM diagnosis' }[D.kind] +
    ' · ' + D.source);
  const st = D.stats || {}, cards = el('div', { class: 'cards' }, app);
  const card = (k, v, d, cls) => { const c = el('div', { class: 'card ' + (cls || '') }, cards);
    el('div', { class: 'k' }, c, k); el('div', { class: 'v' }, c, v); if (d) el('div', { class: 'd' }, c, d); };
  if (num(st.peak_bytes)) card('measured peak', fmtBytes(st.peak_bytes), 'step ' + st.peak_step + ', ' + phaseLabel(st.peak_phase));
  const rc = st.recovered;
  if (rc && num(rc.estimate_peak_bytes)) {
    card('estimated peak (recovered setup)', fmtBytes(rc.estimate_peak_bytes), 'measured from step ' + rc.from_step + ' / estimated = ' +
      (rc.measured_peak_bytes / rc.estimate_peak_bytes).toFixed(3) + '; before the recovery: ' + fmtBytes(rc.start_estimate_peak_bytes));
  } else if (num(st.estimate_peak_bytes)) card('estimated peak', fmtBytes(st.estimate_peak_bytes),
    num(st.peak_bytes) ? 'measured / estimated = ' + (st.peak_bytes / st.estimate_peak_bytes).toFixed(3)
                       : (D.estimate && D.estimate.peak_phase) || '');
  const cpu = D.run && typeof D.run.device === 'string' && D.run.device.startsWith('cpu');
  if (num(st.max_reserved_bytes)) card('max reserved', fmtBytes(st.max_reserved_bytes),
    'sampled at the phase marks' + (num(st.peak_bytes) && st.peak_bytes > st.max_reserved_bytes ? '; the peak falls between two marks' : '') +
    (cpu ? '; on CPU reserved = allocated (no cache)' : ''));
  const E = D.estimate || {}, tot = E.totals || {};
  if (D.kind === 'estimate' && typeof E.fits === 'boolean') {
    card('verdict', E.fits ? 'fits' : 'does not fit', num(E.peak_bytes) && num(E.usable_bytes) ? 'peak ' + fmtBytes(E.peak_bytes) +
      (E.fits ? ' ≤ ' : ' > ') + 'usable ' + fmtBytes(E.usable_bytes) : '', E.fits ? 'good' : 'bad');
    if (num(E.headroom_bytes)) card('headroom', fmtBytes(E.headroom_bytes), 'usable − peak' + (E.bottleneck ? '; bottleneck: ' +
      String(E.bottleneck).replace(/_/g, ' ') : ''), E.headroom_bytes >= 0 ? 'good' : 'bad');
  }
  if (D.kind === 'estimate') {
    if (E.parameters && num(E.parameters.total)) card('parameters', E.parameters.total.toLocaleString('en-US'),
      E.model && E.model._name_or_path ? String(E.model._name_or_path) : '');
    if (num(tot.parameters)) card('static memory', fmtBytes((tot.parameters || 0) + (tot.gradients || 0) + (tot.optimizer_state || 0)),
      'parameters + gradients + optimizer state');
    if (num(tot.activations)) card('activations', fmtBytes(tot.activations), E.setup ? 'B = ' + E.setup.micro_batch_size + ', T = ' + E.setup.seq_len : '');
    if (num(E.capacity_bytes)) card('GPU capacity', fmtBytes(E.capacity_bytes), num(E.usable_bytes) ? 'usable ' + fmtBytes(E.usable_bytes) : '');
    if (num(E.max_micro_batch_size)) card('largest micro-batch', String(E.max_micro_batch_size), 'under the usable line');
  }
  if (num(st.limit_bytes) && st.limit_bytes > 0) card('memory limit', fmtBytes(st.limit_bytes),
    num(st.peak_bytes) ? (100 * st.peak_bytes / st.limit_bytes).toFixed(1) + '% used at peak' : '');
  const stop = D.summary && typeof D.summary.stop_reason === 'string' && D.summary.stop_reason ? ', stopped by ' + D.summary.stop_reason : '';
  if (D.kind === 'run') card('steps', String(st.steps), st.total_marks + ' phase marks' + stop);
  if (D.kind === 'run' && !st.complete) card('run status', 'interrupted', 'no summary: the timeline ends in step ' + st.last_step, 'bad');
  if (D.kind !== 'estimate') card('out of memory', st.oom ? (num(st.oom_step) ? 'step ' + st.oom_step : 'yes') : 'none',
    st.oom ? 'see the diagnosis below' : '', st.oom ? 'bad' : 'good');
  const dg = D.diagnosis;
  if (dg && dg.findings && dg.findings.length) {
    const b = el('div', { class: 'banner' }, app); el('b', {}, b, 'Out of memory. ');
    b.appendChild(document.createTextNode('Most likely cause: ' + dg.findings[0].title + '. Fix: ' + dg.findings[0].fix));
  }
}

// ---- memory over time ---------------------------------------------------------------------
function timelineChart() {
  const T = D.timeline, marks = T.marks || [], env = T.envelope || [];
  if (!marks.length && !env.length) return;
  const st = D.stats, s = section('Memory over time',
    'Zoomed out, each step is one point of its envelope: the band spans the lowest to the highest allocated mark of the step, ' +
    'the dark line is the step\'s peak (the highest allocated between two marks) and the grey line its highest reserved. ' +
    'Zoom in (drag across the chart to select steps; shift-drag or the arrows to pan; double-click to reset) and the ' +
    'phase saw-tooth appears: allocated and reserved at every phase mark, hollow circles for the peak since the previous mark. ' +
    'Click a step to open it phase by phase below.' +
    (T.total_marks > marks.length ? ' The page embeds ' + marks.length + ' of ' + T.total_marks +
      ' marks (--max-points; each bucket keeps its lowest, highest and peak mark); the envelope covers every mark.' : ''));
  const periods = (D.estimate_periods || []).filter(p => num(p.peak_bytes));
  let ymax = 0;
  for (const e of env) ymax = Math.max(ymax, e[3], e[4], e[5]);
  for (const p of marks) ymax = Math.max(ymax, p.allocated_bytes, p.reserved_bytes, p.peak_allocated_bytes);
  if (num(st.limit_bytes) && st.limit_bytes > 0) ymax = Math.max(ymax, st.limit_bytes);
  for (const p of periods) ymax = Math.max(ymax, p.peak_bytes);
  // The other ranks of a data-parallel run: their allocated bytes, dashed, over rank 0's.
  const otherRanks = (D.ranks || []).filter(r => r.rank > 0 && Array.isArray(r.points) && r.points.length);
  for (const r of otherRanks) for (const q of r.points) ymax = Math.max(ymax, q[1]);
  const u = unitFor(ymax), yt = ticks(0, ymax * 1.05 / u.div, 6).map(v => v * u.div);
  const first = env.length ? env[0][0] : Math.floor(marks[0].x), last = env.length ? env[env.length - 1][1] : Math.floor(marks[marks.length - 1].x);
  const full = [first, last + 1];
  const bar = el('div', { class: 'tl-controls' }, s);
  const btn = (label, title, fn) => { const b = el('button', { type: 'button', title }, bar, label); b.addEventListener('click', fn); return b; };
  const holder = el('div', { class: 'tl-holder' }, s);
  let view = full.slice();
  const setView = (a, b) => {
    let w = Math.max(0.5, Math.min(b - a, full[1] - full[0]));
    a = Math.max(full[0], Math.min(a, full[1] - w));
    view = [a, a + w]; draw();
  };
  btn('◀', 'pan left (half a window)', () => setView(view[0] - (view[1] - view[0]) / 2, view[1] - (view[1] - view[0]) / 2));
  btn('▶', 'pan right (half a window)', () => setView(view[0] + (view[1] - view[0]) / 2, view[1] + (view[1] - view[0]) / 2));
  btn('zoom out', 'show twice as many steps', () => { const c = (view[0] + view[1]) / 2, w = view[1] - view[0]; setView(c - w, c + w); });
  btn('all steps', 'show the whole run', () => setView(full[0], full[1]));
  const status = el('span', { class: 'tl-status' }, bar);
  // The estimated peak in force at each step: the run's estimate, then each recovery's.
  const estAt = step => { let e = null; for (const p of periods) if (p.from_step === null || p.from_step <= step) e = p; return e; };

  function draw() {
    holder.textContent = '';
    const span = view[1] - view[0], integer = span > 6;
    const f = frame(holder, { id: 'chart-timeline', label: 'memory over time', x0: view[0], x1: view[1], y0: 0, y1: yt[yt.length - 1],
      yTicks: yt, yFmt: v => (v / u.div).toFixed(v / u.div < 10 && yt[1] / u.div < 1 ? 1 : 0),
      xTicks: (integer ? ticks(view[0], view[1], 10, true) : ticks(Math.ceil(view[0]), Math.floor(view[1]), 6, true))
        .filter(t => t >= view[0] && t <= view[1]),
      xFmt: v => String(v), xLabel: 'optimizer step (phase marks in execution order within each step)', yLabel: 'memory (' + u.name + ')' });
    // A nested <svg> clips the plot to its area (no clip-path reference needed).
    const clip = sv('svg', { x: f.m.l, y: f.m.t, width: f.pw, height: f.ph, viewBox: f.m.l + ' ' + f.m.t + ' ' + f.pw + ' ' + f.ph,
      overflow: 'hidden' }, f.plot);
    f.plot = clip;
    const inView = marks.filter(p => p.x >= view[0] && p.x < view[1]);
    const detail = inView.length > 0 && inView.length <= f.pw / 2.5;
    status.textContent = 'steps ' + Math.floor(view[0]) + '–' + (Math.ceil(view[1]) - 1) + ' of ' + full[0] + '–' + (full[1] - 1) + ' · ' +
      (detail ? inView.length + ' phase marks' : 'envelope, one point per ' + (env.length && env.some(e => e[1] > e[0]) ? 'group of steps' : 'step'));
    status.setAttribute('data-mode', detail ? 'marks' : 'envelope');
    let text, pts;
    if (detail) {
      const lo = Math.max(0, marks.indexOf(inView[0]) - 1), hi = Math.min(marks.length, marks.indexOf(inView[inView.length - 1]) + 2);
      const vm = marks.slice(lo, hi);
      const path = key => vm.map((p, i) => (i ? 'L' : 'M') + f.xs(p.x).toFixed(1) + ' ' + f.ys(p[key]).toFixed(1)).join(' ');
      sv('path', { d: path('reserved_bytes') + ' L' + f.xs(vm[vm.length - 1].x) + ' ' + f.ys(0) + ' L' + f.xs(vm[0].x) + ' ' + f.ys(0) + ' Z',
        fill: '#e2e8f0', opacity: 0.6 }, f.plot);
      sv('path', { d: path('reserved_bytes'), fill: 'none', stroke: C_RES, 'stroke-width': 1.5, class: 'line-reserved' }, f.plot);
      sv('path', { d: path('allocated_bytes'), fill: 'none', stroke: C_ALLOC, 'stroke-width': 1.8, class: 'line-allocated' }, f.plot);
      const r = inView.length > 150 ? 2.2 : 3.2;
      const gp = sv('g', { class: 'peaks' }, f.plot), ga = sv('g', { class: 'points' }, f.plot);
      text = p => 'step ' + p.step + (p.micro_step ? ' · micro-batch ' + p.micro_step : '') + ' · ' + phaseLabel(p.phase) +
        '\nallocated ' + fmtBytes(p.allocated_bytes) + '\nreserved ' + fmtBytes(p.reserved_bytes) +
        '\npeak since previous mark ' + fmtBytes(p.peak_allocated_bytes) + '\nchange ' + fmtDelta(p.delta_bytes) +
        '\nt = ' + (p.t_ns / 1e9).toFixed(3) + ' s';
      for (const p of inView) {
        tip(sv('circle', { class: 'pt-peak', cx: f.xs(p.x).toFixed(1), cy: f.ys(p.peak_allocated_bytes).toFixed(1), r: r + 0.6,
          fill: 'none', stroke: phaseColor(p.phase), 'stroke-width': 1.2, opacity: 0.8 }, gp), text(p));
        tip(sv('circle', { class: 'pt-allocated', cx: f.xs(p.x).toFixed(1), cy: f.ys(p.allocated_bytes).toFixed(1), r,
          fill: phaseColor(p.phase) }, ga), text(p));
      }
      pts = inView.map(p => ({ x: p.x, y: p.allocated_bytes, p }));
    } else {
      // Envelope rows overlapping the view; each drawn at the middle of its steps.
      const ve = env.filter(e => e[1] + 1 >= view[0] && e[0] <= view[1]);
      const cx = e => f.xs((e[0] + e[1] + 1) / 2);
      const line = k => ve.map((e, i) => (i ? 'L' : 'M') + cx(e).toFixed(1) + ' ' + f.ys(e[k]).toFixed(1)).join(' ');
      if (ve.length) {
        const band = ve.map((e, i) => (i ? 'L' : 'M') + cx(e).toFixed(1) + ' ' + f.ys(e[3]).toFixed(1)).join(' ') + ' ' +
          ve.slice().reverse().map(e => 'L' + cx(e).toFixed(1) + ' ' + f.ys(e[2]).toFixed(1)).join(' ') + ' Z';
        sv('path', { class: 'env-band', d: band, fill: C_ALLOC, 'fill-opacity': 0.28, stroke: C_ALLOC, 'stroke-width': 0.8,
          'data-n': ve.length }, f.plot);
        sv('path', { class: 'env-reserved', d: line(5), fill: 'none', stroke: C_RES, 'stroke-width': 1.2, 'stroke-dasharray': '4 3' }, f.plot);
        sv('path', { class: 'env-peak', d: line(4), fill: 'none', stroke: '#0f172a', 'stroke-width': 1.6, 'data-n': ve.length }, f.plot);
      }
      text = e => (e[1] > e[0] ? 'steps ' + e[0] + '–' + e[1] : 'step ' + e[0]) + '\nallocated ' + fmtBytes(e[2]) + ' – ' + fmtBytes(e[3]) +
        '\npeak ' + fmtBytes(e[4]) + '\nreserved (max) ' + fmtBytes(e[5]) + '\nclick to open it phase by phase';
      pts = ve.map(e => ({ x: (e[0] + e[1] + 1) / 2, y: e[4], p: e }));
    }
    otherRanks.forEach((r, k) => {
      const vq = r.points.filter(q => q[0] >= view[0] - 1 && q[0] <= view[1] + 1);
      if (!vq.length) return;
      tip(sv('path', { class: 'line-rank', 'data-rank': r.rank, fill: 'none', stroke: RANK_COLORS[k % RANK_COLORS.length], 'stroke-width': 1.3,
        'stroke-dasharray': '5 3', d: vq.map((q, i) => (i ? 'L' : 'M') + f.xs(q[0]).toFixed(1) + ' ' + f.ys(q[1]).toFixed(1)).join(' ') }, f.plot),
        'rank ' + r.rank + ': allocated at its marks' + (num(r.peak_allocated_bytes) ? ' (peak ' + fmtBytes(r.peak_allocated_bytes) + ')' : ''));
    });
    if (num(st.limit_bytes) && st.limit_bytes > 0) hline(f, st.limit_bytes, C_LIMIT, '6 4', 'memory limit ' + fmtBytes(st.limit_bytes), 'limit-line');
    // Estimated peak: one segment per estimate period (a recovery changes the setup and its estimate).
    periods.forEach((p, i) => {
      const a = p.from_step === null ? full[0] : p.from_step, b = i + 1 < periods.length ? periods[i + 1].from_step : full[1];
      if (b <= view[0] || a >= view[1]) return;
      const x1 = f.xs(Math.max(a, view[0])), x2 = f.xs(Math.min(b, view[1])), y = f.ys(p.peak_bytes);
      const label = (i ? 'recovered estimate ' : 'estimated peak ') + fmtBytes(p.peak_bytes) + (i ? ' (from step ' + p.from_step + ': ' + p.change + ')' : '');
      const g = tip(sv('g', { class: i ? 'estimate-line recovered' : 'estimate-line' }, f.plot), label);
      sv('line', { x1, x2, y1: y, y2: y, stroke: i ? '#16a34a' : C_EST, 'stroke-width': 1.5, 'stroke-dasharray': '2 4' }, g);
      sv('text', { x: x2 - 4, y: y - 5, 'text-anchor': 'end', style: 'font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px;fill:' +
        (i ? '#16a34a' : C_EST) }, g, label);
    });
    for (const e of D.events) {
      if (e.name !== 'oom' || e.x < view[0] || e.x > view[1]) continue;
      const x = f.xs(e.x) + (detail ? 6 : 0), y = f.ys(num(st.limit_bytes) && st.limit_bytes > 0 ? st.limit_bytes : ymax);
      const g = sv('g', { class: 'oom-marker' }, f.plot);
      sv('line', { x1: x, x2: x, y1: f.m.t, y2: f.m.t + f.ph, stroke: C_LIMIT, 'stroke-width': 1, 'stroke-dasharray': '3 3' }, g);
      sv('path', { d: 'M' + (x - 6) + ' ' + (y - 6) + ' L' + (x + 6) + ' ' + (y + 6) + ' M' + (x - 6) + ' ' + (y + 6) + ' L' + (x + 6) + ' ' + (y - 6),
        stroke: C_LIMIT, 'stroke-width': 3 }, g);
      sv('text', { x: x + 9, y: f.m.t + 12, style: 'fill:' + C_LIMIT + ';font-weight:600' }, g, 'OOM');
      tip(g, 'out of memory at step ' + e.step + (e.phase ? ' during ' + e.phase : '') +
        (num(e.requested_bytes) ? '\nrequested ' + fmtBytes(e.requested_bytes) : '') + (e.message ? '\n' + String(e.message).slice(0, 300) : ''));
    }
    interact(f, pts, text, detail);
  }

  // Hover: the nearest point (mark or envelope row) by x. Drag: select steps to zoom into;
  // shift-drag: pan; click: open that step phase by phase; double-click: the whole run.
  function interact(f, pts, text, detail) {
    const hl = sv('circle', { class: 'hl', r: 6, fill: 'none', stroke: '#111827', 'stroke-width': 2, visibility: 'hidden' }, f.svg);
    const vl = sv('line', { class: 'hl', y1: f.m.t, y2: f.m.t + f.ph, stroke: '#9ca3af', visibility: 'hidden' }, f.svg);
    const brush = sv('rect', { class: 'brush', y: f.m.t, height: f.ph, width: 0, fill: C_ALLOC, 'fill-opacity': 0.12, stroke: C_ALLOC,
      visibility: 'hidden' }, f.svg);
    const overlay = sv('rect', { class: 'tl-overlay', x: f.m.l, y: f.m.t, width: f.pw, height: f.ph, fill: 'transparent',
      style: 'cursor:crosshair' }, f.svg);
    const svgX = ev => { const r = f.svg.getBoundingClientRect(); return (ev.clientX - r.left) * f.W / r.width; };
    const toStep = sx => view[0] + (sx - f.m.l) / f.pw * (view[1] - view[0]);
    const nearest = sx => {
      if (!pts.length) return null;
      let lo = 0, hi = pts.length - 1;
      while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (f.xs(pts[mid].x) < sx) lo = mid; else hi = mid; }
      return Math.abs(f.xs(pts[lo].x) - sx) <= Math.abs(f.xs(pts[hi].x) - sx) ? pts[lo] : pts[hi];
    };
    let drag = null;
    overlay.addEventListener('mousedown', ev => {
      if (ev.button !== 0) return;
      ev.preventDefault();
      drag = { sx: svgX(ev), shift: ev.shiftKey, view: view.slice() };
    });
    overlay.addEventListener('mousemove', ev => {
      const sx = svgX(ev);
      if (drag && !drag.shift) {
        const a = Math.max(f.m.l, Math.min(drag.sx, sx)), b = Math.min(f.m.l + f.pw, Math.max(drag.sx, sx));
        brush.setAttribute('x', a); brush.setAttribute('width', b - a); brush.setAttribute('visibility', 'visible');
        return;
      }
      const p = nearest(sx); if (!p) return;
      hl.setAttribute('cx', f.xs(p.x)); hl.setAttribute('cy', f.ys(p.y)); hl.setAttribute('visibility', 'visible');
      vl.setAttribute('x1', f.xs(p.x)); vl.setAttribute('x2', f.xs(p.x)); vl.setAttribute('visibility', 'visible');
      showTip(text(p.p), ev);
    });
    overlay.addEventListener('mouseup', ev => {
      if (!drag) return;
      const sx = svgX(ev), d = drag; drag = null;
      if (Math.abs(sx - d.sx) < 4) {              // a click: that step, phase by phase
        const p = nearest(sx);
        const step = detail && p ? p.p.step : Math.floor(toStep(sx));
        if (showStep) showStep(step, true);
        return;
      }
      if (d.shift) {                              // pan by the drag
        const dx = (sx - d.sx) / f.pw * (d.view[1] - d.view[0]);
        setView(d.view[0] - dx, d.view[1] - dx);
      } else {
        const a = toStep(Math.max(f.m.l, Math.min(d.sx, sx))), b = toStep(Math.min(f.m.l + f.pw, Math.max(d.sx, sx)));
        setView(a, b);
      }
    });
    overlay.addEventListener('dblclick', () => setView(full[0], full[1]));
    overlay.addEventListener('mouseleave', () => {
      drag = null; brush.setAttribute('visibility', 'hidden');
      hl.setAttribute('visibility', 'hidden'); vl.setAttribute('visibility', 'hidden'); hideTip();
    });
  }

  draw();
  window.oomkitTimeline = { view: () => view.slice(), setView, full: full.slice() };   // test hook
  const phases = phasesInOrder(marks.map(p => p.phase));
  legend(s, [{ label: 'allocated (band: lowest to highest mark of a step)', color: C_ALLOC, line: true },
    { label: 'step peak / peak since previous mark', color: '#0f172a', hollow: true },
    { label: 'reserved', color: C_RES, line: true }]
    .concat(phases.map(p => ({ label: phaseLabel(p), color: phaseColor(p) })))
    .concat(num(st.limit_bytes) && st.limit_bytes > 0 ? [{ label: 'memory limit', color: C_LIMIT, line: true, dash: true }] : [])
    .concat(periods.length ? [{ label: 'estimated peak', color: C_EST, line: true, dash: true }] : [])
    .concat(periods.length > 1 ? [{ label: 'recovered setup\'s estimate', color: '#16a34a', line: true, dash: true }] : [])
    .concat(D.events.some(e => e.name === 'oom') ? [{ label: '✕ out of memory', color: C_LIMIT }] : [])
    .concat(otherRanks.map((r, k) => ({ label: 'rank ' + r.rank + ' allocated (rank 0 is the run drawn)', color: RANK_COLORS[k % RANK_COLORS.length],
      line: true, dash: true }))));
}
// A data-parallel run: each rank's peak against its own estimate (summary.rank<r>.json).
function ranksTable() {
  const R = D.ranks || [];
  if (R.length < 2) return;
  const s = section('Ranks', 'One row per data-parallel rank: each rank measured its own memory and was estimated on its own ' +
    '(its share of what ZeRO partitions, the gradient buckets it holds). The timeline above draws rank 0 and overlays the others.');
  table(s, ['rank', 'marks', 'peak allocated', 'at', 'estimated peak', 'measured / estimated', 'last loss'], R.map(r => [
    String(r.rank), String(r.marks), num(r.peak_allocated_bytes) ? fmtBytes(r.peak_allocated_bytes) : '–',
    num(r.peak_step) ? 'step ' + r.peak_step + ' · ' + phaseLabel(r.peak_phase || '') : '–',
    num(r.estimated_peak_bytes) ? fmtBytes(r.estimated_peak_bytes) : '–',
    num(r.peak_allocated_bytes) && num(r.estimated_peak_bytes) && r.estimated_peak_bytes > 0 ? (r.peak_allocated_bytes / r.estimated_peak_bytes).toFixed(4) : '–',
    num(r.last_loss) ? r.last_loss.toFixed(4) : '–']), [1, 2, 4, 5, 6]);
}
// Phases in the order a step runs them (then any other, in first-seen order): legends follow it.
const PHASE_ORDER = ['step_start', 'after_forward', 'after_loss', 'after_backward', 'after_optimizer_step', 'after_zero_grad', 'eval'];
function phasesInOrder(list) {
  const seen = [...new Set(list)];
  return PHASE_ORDER.filter(p => seen.includes(p)).concat(seen.filter(p => !PHASE_ORDER.includes(p)));
}

// ---- one step, phase by phase ---------------------------------------------------------------
// showStep(step): draws that step from the embedded marks, with the prediction in force then
// (the recovered setup's after a recovery). Set by stepChart; the timeline's click calls it.
let showStep = null;
function stepChart() {
  const z = D.zoom; if (!z || !z.marks.length) return;
  const marks = D.timeline.marks || [], periods = D.estimate_periods || [];
  const steps = [...new Set(marks.map(p => p.step))].sort((a, b) => a - b);
  if (!steps.includes(z.step)) { steps.push(z.step); steps.sort((a, b) => a - b); }
  const firstStep = Math.min(z.step, steps[0]);
  const s = section('Step ' + z.step + ', phase by phase', '');
  const h2 = s.querySelector('h2'), note = s.querySelector('.note') || el('p', { class: 'note' }, s);
  const bar = el('div', { class: 'tl-controls' }, s);
  el('label', { for: 'step-picker' }, bar, 'step ');
  const input = el('input', { id: 'step-picker', type: 'number', min: steps[0], max: steps[steps.length - 1], step: 1, value: z.step }, bar);
  const prev = el('button', { type: 'button', title: 'previous step' }, bar, '◀');
  const next = el('button', { type: 'button', title: 'next step' }, bar, '▶');
  const holder = el('div', {}, s);
  let current = z.step;
  showStep = (step, scroll) => {
    if (!steps.length) return;
    let k = steps.findIndex(v => v >= step); if (k < 0) k = steps.length - 1;
    step = steps[k]; current = step; input.value = step;
    const sm = step === z.step ? z.marks : marks.filter(p => p.step === step);
    let period = null; for (const p of periods) if (p.from_step === null || p.from_step <= step) period = p;
    const kind = step === firstStep ? 'first' : 'steady';
    const pred = {}; for (const p of ((period && period.phases) || [])) if (p.step_kind === kind) pred[p.phase] = p;
    const tsOf = sm.map(p => p.t_ns);
    const events = step === z.step ? (z.events || []) : D.events.filter(e => e.step === step && num(e.t_ns))
      .map(e => Object.assign({}, e, { after: tsOf.filter(t => t <= e.t_ns).length }));
    h2.textContent = 'Step ' + step + ', phase by phase';
    note.textContent = 'Allocated bytes at each mark (bar), the peak inside the interval ending there (cap) and the change since the previous mark.' +
      (Object.keys(pred).length ? ' Black ticks: the estimator\'s prediction for a ' + kind + ' step' +
        (period && period.from_step !== null ? ' of the setup recovered at step ' + period.from_step + ' (' + period.change + ')' : '') + '.' : '') +
      (step === z.step && z.record && num(z.record.loss) ? ' Loss ' + z.record.loss.toFixed(4) + (num(z.record.ms) ? ', ' + z.record.ms.toFixed(1) + ' ms.' : '.') : '') +
      (D.timeline.total_marks > marks.length && step !== z.step ? ' Marks downsampled (--max-points): this step may miss some.' : '') +
      ' Pick another step here or click one in the chart above.';
    holder.textContent = '';
    drawPhaseBars(holder, 'chart-step', sm.map(p => ({ phase: p.phase, micro: p.micro_step, value: p.allocated_bytes,
      peak: p.peak_allocated_bytes, delta: p.delta_bytes, pred: pred[p.phase] })), D.stats.limit_bytes, events);
    holder.setAttribute('data-step', step);
    if (scroll && s.scrollIntoView) s.scrollIntoView({ block: 'nearest' });
  };
  input.addEventListener('change', () => showStep(Number(input.value)));
  prev.addEventListener('click', () => { const k = steps.indexOf(current); if (k > 0) showStep(steps[k - 1]); });
  next.addEventListener('click', () => { const k = steps.indexOf(current); if (k + 1 < steps.length) showStep(steps[k + 1]); });
  showStep(z.step);
}
function drawPhaseBars(s, id, bars, limit, events, lines) {
  let ymax = 0;
  for (const b of bars) ymax = Math.max(ymax, b.value, b.peak || 0, b.pred ? Math.max(b.pred.allocated_bytes, b.pred.peak_bytes || 0) : 0);
  if (num(limit) && limit > 0 && limit < ymax * 1.6) ymax = Math.max(ymax, limit);
  for (const l of (lines || [])) ymax = Math.max(ymax, l.bytes);
  const u = unitFor(ymax), yt = ticks(0, ymax * 1.12 / u.div, 5).map(v => v * u.div);
  const f = frame(s, { id, label: 'one step phase by phase', x0: 0, x1: bars.length, y0: 0, y1: yt[yt.length - 1], yTicks: yt,
    yFmt: v => (v / u.div).toFixed(yt[1] / u.div < 1 ? 1 : 0), height: 330, margin: { b: 52 },
    xLabel: 'phase mark', yLabel: 'allocated (' + u.name + ')' });
  const bw = f.pw / bars.length;
  bars.forEach((b, i) => {
    const x = f.m.l + i * bw + bw * 0.18, w = bw * 0.64, c = phaseColor(b.phase);
    const label = phaseLabel(b.phase) + (b.micro ? ' · mb ' + b.micro : '');
    const t = label + '\nallocated ' + fmtBytes(b.value) + (num(b.peak) ? '\npeak in interval ' + fmtBytes(b.peak) : '') +
      (num(b.delta) ? '\nchange ' + fmtDelta(b.delta) : '') +
      (b.pred ? '\nestimated ' + fmtBytes(b.pred.allocated_bytes) + ' (measured / estimated = ' +
        (b.value / b.pred.allocated_bytes).toFixed(3) + ')' : '');
    const g = tip(sv('g', { class: 'bar-phase', 'data-phase': b.phase }, f.plot), t);
    if (num(b.peak) && b.peak > b.value) {
      sv('rect', { x, y: f.ys(b.peak), width: w, height: f.ys(b.value) - f.ys(b.peak), fill: c, opacity: 0.22 }, g);
      sv('line', { x1: x, x2: x + w, y1: f.ys(b.peak), y2: f.ys(b.peak), stroke: c, 'stroke-width': 2 }, g);
    }
    sv('rect', { x, y: f.ys(b.value), width: w, height: f.ys(0) - f.ys(b.value), fill: c, rx: 2 }, g);
    if (b.pred) sv('line', { class: 'pred-tick', x1: x - 4, x2: x + w + 4, y1: f.ys(b.pred.allocated_bytes), y2: f.ys(b.pred.allocated_bytes),
      stroke: C_EST, 'stroke-width': 2.5 }, g);
    const top = Math.min(f.ys(b.value), num(b.peak) ? f.ys(b.peak) : 1e9);
    if (num(b.delta)) sv('text', { x: x + w / 2, y: top - 6, 'text-anchor': 'middle', style: 'font-size:11px;fill:' +
      (b.delta > 0 ? '#b91c1c' : b.delta < 0 ? '#15803d' : '#6b7280') }, g, fmtDelta(b.delta));
    sv('text', { x: x + w / 2, y: f.m.t + f.ph + 16, 'text-anchor': 'middle', style: 'font-size:11px' }, g, phaseLabel(b.phase));
    if (b.micro) sv('text', { x: x + w / 2, y: f.m.t + f.ph + 29, 'text-anchor': 'middle', style: 'font-size:10px;fill:#6b7280' }, g, 'micro-batch ' + b.micro);
  });
  if (num(limit) && limit > 0 && limit <= yt[yt.length - 1]) hline(f, limit, C_LIMIT, '6 4', 'memory limit ' + fmtBytes(limit), 'limit-line');
  for (const l of (lines || [])) hline(f, l.bytes, l.color, l.dash, l.label, l.cls);
  for (const e of (events || [])) {           // an OOM or a recovery between two marks
    const x = f.m.l + e.after * bw, c = e.name === 'oom' ? C_LIMIT : e.name === 'recover' ? '#16a34a' : '#6b7280';
    const g = tip(sv('g', { class: 'step-event event-' + e.name }, f.plot), e.name + (e.phase ? ' during ' + phaseLabel(e.phase) : '') +
      (num(e.requested_bytes) ? '\nrequested ' + fmtBytes(e.requested_bytes) : '') +
      (e.change ? '\n' + e.change + ' ' + e.from + ' → ' + e.to : '') + (e.message ? '\n' + String(e.message).slice(0, 300) : ''));
    sv('line', { x1: x, x2: x, y1: f.m.t, y2: f.m.t + f.ph, stroke: c, 'stroke-width': 2, 'stroke-dasharray': '5 3' }, g);
    sv('text', { x: x + 4, y: f.m.t + 12 + 14 * (events.indexOf(e) % 2), style: 'font-weight:600;fill:' + c }, g,
      e.name === 'oom' ? 'OOM' : e.name);
  }
  legend(s, [{ label: 'allocated at the mark', color: '#475569' }, { label: 'peak inside the interval', color: 'rgba(71,85,105,.3)' }]
    .concat(bars.some(b => b.pred) ? [{ label: 'estimated', color: C_EST, line: true }] : [])
    .concat((lines || []).map(l => ({ label: l.legend || l.label, color: l.color, line: true, dash: !!l.dash }))));
}

// ---- estimated vs measured per category -------------------------------------------------------
function categoryChart() {
  const all = (D.categories || []).filter(r => num(r.estimated_bytes) || num(r.measured_bytes));
  const rows = all.filter(r => r.category !== 'peak');   // the peak is the sum: a row of the table, not a bar
  if (!rows.length) return;
  const measured = rows.some(r => num(r.measured_bytes));
  const s = section(measured ? 'Estimated vs measured, per category' : 'Estimated memory per category',
    measured ? 'The estimator\'s prediction beside what the profiler measured for this run; ratio = measured / estimated.'
             : 'The estimator\'s totals per category (all layers, per GPU).');
  let xmax = 0; for (const r of rows) xmax = Math.max(xmax, r.estimated_bytes || 0, r.measured_bytes || 0);
  const u = unitFor(xmax), xt = ticks(0, xmax * 1.05 / u.div, 6).map(v => v * u.div);
  const rowH = measured ? 44 : 28, H = rows.length * rowH + 60;
  const f = frame(s, { id: 'chart-categories', label: 'per category', x0: 0, x1: xt[xt.length - 1], y0: 0, y1: 1, yTicks: [],
    yFmt: v => v, xTicks: xt, xFmt: v => (v / u.div).toFixed(xt[1] / u.div < 1 ? 1 : 0), height: H,
    margin: { l: 130, r: 130, b: 40 }, xLabel: 'memory (' + u.name + ')', yLabel: '' });
  rows.forEach((r, i) => {
    const y = f.m.t + i * rowH + 4, c = CAT_COLOR[r.category] || '#475569', bh = measured ? 16 : 18;
    sv('text', { x: f.m.l - 8, y: y + (measured ? 20 : 13), 'text-anchor': 'end' }, f.plot, r.category.replace('_', ' '));
    const ratio = num(r.estimated_bytes) && num(r.measured_bytes) && r.estimated_bytes > 0 ? r.measured_bytes / r.estimated_bytes : null;
    const t = r.category + '\nestimated ' + fmtBytes(r.estimated_bytes) + (measured ? '\nmeasured ' + fmtBytes(r.measured_bytes) : '') +
      (ratio !== null ? '\nmeasured / estimated = ' + ratio.toFixed(3) : '');
    if (num(r.estimated_bytes)) tip(sv('rect', { class: 'bar-estimated', x: f.xs(0), y, width: Math.max(1, f.xs(r.estimated_bytes) - f.xs(0)),
      height: bh, fill: c, 'fill-opacity': measured ? 0.25 : 0.85, stroke: c, rx: 2 }, f.plot), t);
    if (num(r.measured_bytes)) tip(sv('rect', { class: 'bar-measured', x: f.xs(0), y: y + bh + 2, width: Math.max(1, f.xs(r.measured_bytes) - f.xs(0)),
      height: bh, fill: c, rx: 2 }, f.plot), t);
    const right = f.m.l + f.pw + 8;
    sv('text', { x: right, y: y + 13, style: 'font-size:11px' }, f.plot, fmtBytes(r.estimated_bytes));
    if (measured) sv('text', { x: right, y: y + bh + 15, style: 'font-size:11px' }, f.plot,
      num(r.measured_bytes) ? fmtBytes(r.measured_bytes) + (ratio !== null ? '  ×' + ratio.toFixed(2) : '') : 'not measured');
  });
  if (measured) {
    legend(s, [{ label: 'estimated (light)', color: 'rgba(71,85,105,.3)' }, { label: 'measured (solid)', color: '#475569' }]);
    table(s, ['category', 'estimated', 'measured', 'measured / estimated', 'how it was measured'], all.map(r => [r.category,
      fmtBytes(r.estimated_bytes), fmtBytes(r.measured_bytes), num(r.estimated_bytes) && num(r.measured_bytes) && r.estimated_bytes > 0 ?
        (r.measured_bytes / r.estimated_bytes).toFixed(3) : 'n/a', r.source || '']), [1, 2, 3]);
  }
}

// ---- the estimator's predicted phases (estimate input) --------------------------------------------
function predictedPhases() {
  const E = D.estimate; if (!E || !Array.isArray(E.phases) || !E.phases.length) return;
  const kind = E.phases.some(p => p.step_kind === 'steady') ? 'steady' : E.phases[0].step_kind;
  const s = section('Predicted memory at each phase (' + kind + ' step)',
    'Allocated bytes the estimator predicts at each phase mark, with the peak inside the interval ending there.');
  drawPhaseBars(s, 'chart-step', E.phases.filter(p => p.step_kind === kind).map(p => ({ phase: p.phase, value: p.allocated_bytes,
    peak: p.peak_bytes })), null, [], capacityLines(E));
}
// The GPU's capacity and the usable line (capacity minus the safety margin) of an estimate.
function capacityLines(E) {
  const out = [];
  if (num(E.capacity_bytes)) out.push({ bytes: E.capacity_bytes, color: C_LIMIT, dash: '', label: 'capacity ' + fmtBytes(E.capacity_bytes),
    legend: 'GPU capacity', cls: 'capacity-line' });
  if (num(E.usable_bytes)) out.push({ bytes: E.usable_bytes, color: C_USABLE, dash: '6 4', label: 'usable ' + fmtBytes(E.usable_bytes) +
    ' (after the safety margin)', legend: 'usable (capacity minus the safety margin)', cls: 'usable-line' });
  return out;
}

// ---- the verdict's fixes (estimate input) ---------------------------------------------------------
// `oomkit estimate --json`: "fixes" (each remedy alone, re-estimated, cheapest first) and
// "remedies" {"combinations", "more_hardware", "cost_model"} (include/oomkit/estimate/remedies.h).
function fixesChart() {
  const E = D.estimate; if (!E || !num(E.peak_bytes)) return;
  const R = E.remedies || {};
  const rows = [{ kind: 'as configured', name: 'as configured', flags: '', peak: E.peak_bytes, fits: E.fits, cost: '', what: 'the setup as given' }];
  (E.fixes || []).forEach((x, i) => rows.push({ kind: 'fix ' + (i + 1), name: x.name, flags: String(x.description || '').split(':')[0],
    peak: x.peak_bytes_after, saving: x.saving_bytes, fits: x.fits, cost: x.cost || '', what: x.description || '' }));
  const plan = (x, kind) => ({ kind, name: (x.remedies || []).join(' + '), flags: x.flags || '', peak: x.peak_bytes, saving: x.saving_bytes,
    fits: x.fits, what: x.description || '', cost: (x.numerics || '') + (num(x.link_seconds_per_step) && x.link_seconds_per_step > 0 ?
      '; moves ' + fmtBytes(x.link_bytes_per_step) + ' per step (' + x.link_seconds_per_step.toFixed(2) + ' s)' : '') +
      (num(x.gpus_needed) && x.gpus_needed > 1 ? '; ' + x.gpus_needed + ' GPUs' : '') +
      (num(x.host_bytes_needed) && x.host_bytes_needed > 0 ? '; host RAM ' + fmtBytes(x.host_bytes_needed) : '') });
  (R.combinations || []).forEach((x, i) => rows.push(plan(x, 'plan ' + (i + 1))));
  (R.more_hardware || []).forEach((x, i) => rows.push(plan(x, 'more hardware ' + (i + 1))));
  const drawn = rows.filter(r => num(r.peak));
  if (drawn.length < 2) return;
  const verdict = typeof E.fits === 'boolean' ? (E.fits ? 'It fits as configured; ' : 'It does not fit as configured; ') : '';
  const s = section('Fixes and their predicted peaks',
    verdict + 'each fix alone (re-estimated, cheapest first), then the cheapest plans that fit (combinations, one remedy per axis) and plans ' +
    'that need more hardware. ' + (R.cost_model ? R.cost_model.charAt(0).toUpperCase() + R.cost_model.slice(1) + '.' : ''));
  const cap = E.capacity_bytes, usable = E.usable_bytes;
  let xmax = 0; for (const r of drawn) xmax = Math.max(xmax, r.peak); if (num(cap)) xmax = Math.max(xmax, cap);
  const u = unitFor(xmax), xt = ticks(0, xmax * 1.05 / u.div, 6).map(v => v * u.div);
  const rowH = 24, f = frame(s, { id: 'chart-fixes', label: 'fixes and predicted peaks', x0: 0, x1: xt[xt.length - 1], y0: 0, y1: 1, yTicks: [],
    yFmt: v => v, xTicks: xt, xFmt: v => (v / u.div).toFixed(xt[1] / u.div < 1 ? 1 : 0), height: drawn.length * rowH + 60,
    margin: { l: 250, r: 90, t: 24, b: 40 }, xLabel: 'predicted peak per GPU (' + u.name + ')', yLabel: '' });
  drawn.forEach((r, i) => {
    const y = f.m.t + i * rowH + 4, over = num(cap) && r.peak > cap, inMargin = num(usable) && r.peak > usable;
    const c = i === 0 ? '#475569' : over ? C_LIMIT : inMargin || r.fits === false ? C_USABLE : '#16a34a';
    sv('text', { x: f.m.l - 8, y: y + 12, 'text-anchor': 'end', style: 'font-size:11px' }, f.plot, i === 0 ? r.kind : r.kind + ': ' + (r.flags || r.name).slice(0, 34));
    tip(sv('rect', { class: i === 0 ? 'bar-fix bar-base' : 'bar-fix', x: f.xs(0), y, width: Math.max(1, f.xs(r.peak) - f.xs(0)), height: 16, fill: c, rx: 2 }, f.plot),
      r.kind + ': ' + r.name + (r.flags ? '\n' + r.flags : '') + '\npredicted peak ' + fmtBytes(r.peak) + (num(r.saving) ? '\nsaves ' + fmtBytes(r.saving) : '') +
      (typeof r.fits === 'boolean' ? '\n' + (r.fits ? 'fits' : 'does not fit') : '') + (r.cost ? '\n' + r.cost : ''));
    sv('text', { x: f.xs(r.peak) + 4, y: y + 12, style: 'font-size:11px' }, f.plot, fmtBytes(r.peak));
  });
  const vline = (v, color, dash, label, cls, right) => {   // labels above the plot: capacity right of its line, usable left
    const g = tip(sv('g', { class: cls }, f.plot), label), x = f.xs(v);
    sv('line', { x1: x, x2: x, y1: f.m.t - 12, y2: f.m.t + f.ph, stroke: color, 'stroke-width': 1.5, 'stroke-dasharray': dash }, g);
    sv('text', { x: right ? x + 3 : x - 3, y: f.m.t - 3, 'text-anchor': right ? 'start' : 'end', style: 'font-size:11px;' +
      'paint-order:stroke;stroke:#fff;stroke-width:3px;fill:' + color }, g, label);
  };
  if (num(cap)) vline(cap, C_LIMIT, '', 'capacity ' + fmtBytes(cap), 'capacity-line', true);
  if (num(usable)) vline(usable, C_USABLE, '6 4', 'usable ' + fmtBytes(usable), 'usable-line', false);
  legend(s, [{ label: 'as configured', color: '#475569' }, { label: 'fits under the usable line', color: '#16a34a' },
    { label: 'over the usable line, or needs what is not there (host RAM, GPUs)', color: C_USABLE }, { label: 'over capacity', color: C_LIMIT }]);
  const t = table(s, ['', 'fix', 'flags', 'predicted peak', 'saves', 'fits', 'cost'], rows.slice(1).map(r => [r.kind, r.name,
    r.flags, fmtBytes(r.peak), num(r.saving) ? fmtBytes(r.saving) : '', typeof r.fits === 'boolean' ? (r.fits ? 'yes' : 'no') : '', r.cost]), [3, 4]);
  t.classList.add('fixes');
  t.querySelectorAll('tbody tr').forEach((tr, i) => tr.children[5].className = rows[i + 1].fits ? 'ok' : 'fail');
}

// ---- sweep and max-batch curves (estimate --sweep / --max-batch) -----------------------------------
const X_LABELS = { seq_len: 'sequence length T (tokens)', micro_batch_size: 'micro-batch size B (sequences)', parameters: 'parameters' };
function fmtCount(n) {             // 124439808 -> "124M", 6738415616 -> "6.7B"
  const a = Math.abs(n);
  if (a >= 1e9) return (n / 1e9).toFixed(a >= 1e10 ? 0 : 1) + 'B';
  if (a >= 1e6) return (n / 1e6).toFixed(0) + 'M';
  if (a >= 1e3) return (n / 1e3).toFixed(0) + 'K';
  return String(n);
}
function curveChart(id, title, note, pts, xKey, seriesKey, cls) {
  const E = D.estimate, cap = E.capacity_bytes, usable = E.usable_bytes;
  const yKey = pts.some(p => num(p.peak_bytes)) ? 'peak_bytes' : 'total_bytes';
  pts = pts.filter(p => num(p[xKey]) && num(p[yKey]));
  if (!pts.length) return;
  const s = section(title, note);
  let ymax = 0; for (const p of pts) ymax = Math.max(ymax, p[yKey]);
  if (num(cap)) ymax = Math.max(ymax, cap); if (num(usable)) ymax = Math.max(ymax, usable);
  const xsv = pts.map(p => p[xKey]), x0 = Math.min(...xsv), x1 = Math.max(...xsv);
  const logx = x1 / Math.max(1, x0) >= 16 && x0 > 0;
  const tx = v => logx ? Math.log2(v) : v;
  const u = unitFor(ymax), yt = ticks(0, ymax * 1.08 / u.div, 6).map(v => v * u.div);
  const xt = logx ? [...new Set(xsv)].sort((a, b) => a - b).map(tx) : ticks(x0, x1, 8, true);
  const f = frame(s, { id, label: title, x0: tx(x0), x1: tx(x1) === tx(x0) ? tx(x0) + 1 : tx(x1), y0: 0, y1: yt[yt.length - 1],
    yTicks: yt, yFmt: v => (v / u.div).toFixed(yt[1] / u.div < 1 ? 1 : 0), xTicks: xt.length > 14 ? xt.filter((_, i) => i % 2 === 0) : xt,
    xFmt: v => { const r = logx ? Math.round(Math.pow(2, v)) : v; return xKey === 'parameters' ? fmtCount(r) : String(r); },
    xLabel: X_LABELS[xKey] + (logx ? ', log scale' : ''),
    yLabel: 'peak memory (' + u.name + ')' });
  if (num(cap)) hline(f, cap, C_LIMIT, '', 'capacity ' + fmtBytes(cap), 'capacity-line');
  if (num(usable)) hline(f, usable, C_USABLE, '6 4', 'usable ' + fmtBytes(usable) + ' (after the safety margin)', 'usable-line');
  const groups = {};
  for (const p of pts) (groups[seriesKey ? p[seriesKey] : ''] = groups[seriesKey ? p[seriesKey] : ''] || []).push(p);
  const palette = ['#2563eb', '#9333ea', '#ea580c', '#0891b2', '#16a34a', '#db2777'];
  Object.keys(groups).forEach((k, gi) => {
    const g = groups[k].sort((a, b) => a[xKey] - b[xKey]), c = palette[gi % palette.length];
    sv('path', { d: g.map((p, i) => (i ? 'L' : 'M') + f.xs(tx(p[xKey])) + ' ' + f.ys(p[yKey])).join(' '), fill: 'none', stroke: c, 'stroke-width': 2 }, f.plot);
    for (const p of g) {
      const fits = num(usable) ? p[yKey] <= usable : num(cap) ? p[yKey] <= cap : true;
      const over = num(cap) && p[yKey] > cap;
      const t = (typeof p.model === 'string' ? p.model + '\n' : '') + xKey + ' ' + (xKey === 'parameters' ? fmtCount(p[xKey]) : p[xKey]) +
        (num(p.static_bytes) ? '\nstatic ' + fmtBytes(p.static_bytes) : '') + (num(p.activation_bytes) ? '\nactivations ' + fmtBytes(p.activation_bytes) : '') +
        (xKey !== 'seq_len' && num(p.seq_len) ? '\nT ' + p.seq_len : '') + (seriesKey ? ', ' + seriesKey + ' ' + p[seriesKey] : '') + '\npeak ' + fmtBytes(p[yKey]) +
        (num(cap) ? '\n' + (100 * p[yKey] / cap).toFixed(1) + '% of capacity' : '') + '\n' + (fits ? 'fits' : over ? 'does not fit' : 'inside the safety margin');
      tip(sv('circle', { class: cls, cx: f.xs(tx(p[xKey])), cy: f.ys(p[yKey]), r: 4.5, fill: fits ? c : over ? C_LIMIT : C_USABLE,
        stroke: '#fff', 'stroke-width': 1 }, f.plot), t);
    }
  });
  if (num(E.max_micro_batch_size) && id === 'chart-batch') {
    const xm = f.xs(tx(E.max_micro_batch_size));
    sv('line', { x1: xm, x2: xm, y1: f.m.t, y2: f.m.t + f.ph, stroke: C_USABLE, 'stroke-dasharray': '2 3' }, f.plot);
    sv('text', { x: xm + 4, y: f.m.t + 12, style: 'fill:' + C_USABLE + ';font-weight:600' }, f.plot, 'largest B that fits: ' + E.max_micro_batch_size);
  }
  legend(s, Object.keys(groups).map((k, gi) => ({ label: seriesKey ? seriesKey + ' = ' + k : 'estimated peak', color: palette[gi % palette.length], line: true }))
    .concat(num(cap) ? [{ label: 'capacity', color: C_LIMIT, line: true }] : [])
    .concat(num(usable) ? [{ label: 'usable (capacity minus safety margin)', color: C_USABLE, line: true, dash: true }] : [])
    .concat([{ label: 'over the usable line', color: C_USABLE }, { label: 'over capacity', color: C_LIMIT }]));
}
function sweepCharts() {
  const E = D.estimate; if (!E) return;
  // `oomkit estimate --sweep --json`: one row per model, {model, parameters, seq_len, static_bytes,
  // activation_bytes, peak_bytes} (include/oomkit/estimate/verdict.h, SweepRow).
  if (Array.isArray(E.sweep) && E.sweep.length) {
    curveChart('chart-sweep', 'Sweep: peak memory against model size',
      'Each point is one model estimated with the same setup (T clamped to each model\'s context); hover for its static and activation bytes.' +
      (num(E.capacity_bytes) ? ' Green fits under the usable line, amber eats into the safety margin, red exceeds capacity.' : ''),
      E.sweep, 'parameters', null, 'pt-sweep');
  }
  if (Array.isArray(E.batch_curve) && E.batch_curve.length) {
    curveChart('chart-batch', 'Largest micro-batch that fits', 'Estimated peak memory for each micro-batch size B against the GPU capacity.',
      E.batch_curve, 'micro_batch_size', null, 'pt-batch');
  }
}

// ---- the diagnosis ------------------------------------------------------------------------------
function diagnosis() {
  const dg = D.diagnosis; if (!dg) return;
  const s = section('Diagnosis', 'The OOM playbook applied to this failure: findings ranked by likelihood, each with its evidence and fix.');
  const o = dg.oom;
  if (o) {
    const rows = [];
    for (const k of ['requested_bytes', 'total_capacity_bytes', 'capacity_bytes', 'free_bytes', 'allocated_bytes', 'reserved_bytes',
      'reserved_unallocated_bytes', 'other_processes_bytes', 'limit_bytes']) if (num(o[k])) rows.push([k.replace(/_bytes$/, '').replace(/_/g, ' '), fmtBytes(o[k])]);
    for (const k of ['family', 'device', 'phase', 'step']) if (o[k] !== undefined && o[k] !== null) rows.push([k, String(o[k])]);
    table(s, ['out of memory', ''], rows, [1]);
  }
  (dg.findings || []).forEach((fd, i) => {
    const c = el('div', { class: 'finding' + (i === 0 ? ' top' : '') }, s);
    el('h3', {}, c, (i + 1) + '. ' + fd.title);
    const meta = el('div', { class: 'meta' }, c);
    el('span', { class: 'badge' }, meta, fd.category);
    meta.appendChild(document.createTextNode((num(fd.playbook_step) ? 'playbook step ' + fd.playbook_step : '') +
      (fd.confidence !== undefined ? ' · confidence ' + fd.confidence : '') + (num(fd.saving_bytes) ? ' · saves ≈ ' + fmtBytes(fd.saving_bytes) : '')));
    if (fd.evidence && fd.evidence.length) { const ul = el('ul', {}, c); for (const ev of fd.evidence) el('li', {}, ul, ev); }
    if (fd.fix) { const fx = el('div', { class: 'fix' }, c); el('b', {}, fx, 'Fix: '); el('code', {}, fx, fd.fix); }
  });
  if (Array.isArray(dg.probes) && dg.probes.length) {
    el('h3', {}, s, 'Probes');
    const t = table(s, ['probe', 'result', 'peak'], dg.probes.map(p => [p.name, p.ok ? 'fits' : 'OOM', num(p.peak_bytes) ? fmtBytes(p.peak_bytes) : '']), [2]);
    t.querySelectorAll('tbody tr').forEach((tr, i) => tr.children[1].className = dg.probes[i].ok ? 'ok' : 'fail');
  }
  if (dg.recovery) {
    const r = dg.recovery, p = el('p', {}, s);
    el('b', {}, p, r.applied ? 'Recovered: ' : 'Not recovered: ');
    p.appendChild(document.createTextNode((r.change || '') + (r.from !== undefined ? ' (' + JSON.stringify(r.from) + ' → ' + JSON.stringify(r.to) + ')' : '')));
  }
}

// ---- configuration and the estimate table ----------------------------------------------------------
const show = v => v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v);
function config() {
  const run = D.run || {}, E = D.estimate || {};
  const model = run.model || E.model, options = run.options || E.setup;
  if (!model && !options && !E.items) return;
  const s = section('Configuration'), two = el('div', { class: 'two' }, s);
  if (model) { const c = el('div', {}, two); el('h3', {}, c, 'Model'); table(c, ['key', 'value'], Object.keys(model).map(k => [k, show(model[k])])); }
  if (options) {
    const c = el('div', {}, two); el('h3', {}, c, run.options ? 'Run options' : 'Training setup');
    const rows = Object.keys(options).map(k => [k, show(options[k])]);
    if (run.device) rows.unshift(['device', String(run.device)]);
    if (num(run.limit_bytes) && run.limit_bytes > 0) rows.push(['limit_bytes', run.limit_bytes + ' (' + fmtBytes(run.limit_bytes) + ')']);
    table(c, ['key', 'value'], rows);
  }
  if (E.parameters && num(E.parameters.total)) el('p', {}, s, 'Parameters: ' + E.parameters.total.toLocaleString('en-US'));
  if (Array.isArray(E.items) && E.items.length) {
    const det = el('details', { open: '' }, s); el('summary', {}, det, 'The estimate, item by item (' + E.items.length + ' items)');
    table(det, ['item', 'category', 'bytes', 'formula'], E.items.map(it => [it.path, it.category, fmtBytes(it.bytes), it.formula || '']), [2]);
  }
}

// ---- tooltip ---------------------------------------------------------------------------------------
const tipEl = document.getElementById('tooltip');
function showTip(text, ev) {
  tipEl.textContent = text; tipEl.hidden = false;
  const w = tipEl.offsetWidth, h = tipEl.offsetHeight;
  let x = ev.clientX + 14, y = ev.clientY + 14;
  if (x + w > window.innerWidth - 4) x = ev.clientX - w - 14;
  if (y + h > window.innerHeight - 4) y = ev.clientY - h - 14;
  tipEl.style.left = Math.max(4, x) + 'px'; tipEl.style.top = Math.max(4, y) + 'px';
}
function hideTip() { tipEl.hidden = true; }
document.addEventListener('mouseover', ev => { const t = ev.target.closest && ev.target.closest('[data-tip]'); if (t) showTip(t.getAttribute('data-tip'), ev); });
document.addEventListener('mousemove', ev => { const t = ev.target.closest && ev.target.closest('[data-tip]'); if (t) showTip(t.getAttribute('data-tip'), ev); });
document.addEventListener('mouseout', ev => { const t = ev.target.closest && ev.target.closest('[data-tip]'); if (t) hideTip(); });

// ---- draw ------------------------------------------------------------------------------------------
app.textContent = '';
// Each part is drawn on its own: input of an unexpected shape costs that part, not the page.
let failed = 0;
const parts = [header].concat(D.kind === 'run' ? [timelineChart, ranksTable, stepChart] : [], D.kind === 'estimate' ? [fixesChart] : [],
  [diagnosis, categoryChart], D.kind === 'estimate' ? [sweepCharts, predictedPhases] : [], [config]);
for (const part of parts) {
  try { part(); } catch (err) {
    failed++;
    el('p', { class: 'error' }, app, 'Part of the report (' + part.name + ') could not be drawn: ' + err);
    console.error(err);
  }
}
el('footer', {}, app, 'Generated by oomkit report. Self-contained: no network, no external files. Sizes in binary units (1 GiB = 2^30 bytes).');
document.body.setAttribute('data-ready', failed ? 'error' : '1');
})();
