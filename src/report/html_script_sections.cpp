// Part 2 of the report page's inline script (see html_script.cpp): sweep and max-batch
// curves, predicted phases, the diagnosis, the configuration tables, the tooltip, and the
// drawing of every part.
#include "html_script_parts.h"

namespace oomkit {

const char kReportScriptSections[] = R"JS(
// ---- the estimator's predicted phases (estimate input) --------------------------------------------
function predictedPhases() {
  const E = D.estimate; if (!E || !Array.isArray(E.phases) || !E.phases.length) return;
  const kind = E.phases.some(p => p.step_kind === 'steady') ? 'steady' : E.phases[0].step_kind;
  const s = section('Predicted memory at each phase (' + kind + ' step)',
    'Allocated bytes the estimator predicts at each phase mark, with the peak inside the interval ending there.');
  drawPhaseBars(s, 'chart-step', E.phases.filter(p => p.step_kind === kind).map(p => ({ phase: p.phase, value: p.allocated_bytes,
    peak: p.peak_bytes })), null);
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
const parts = [header].concat(D.kind === 'run' ? [timelineChart, stepChart] : [], [diagnosis, categoryChart],
  D.kind === 'estimate' ? [sweepCharts, predictedPhases] : [], [config]);
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
)JS";

}  // namespace oomkit
