// kbo's study viewer (the page of `kbo report` and `kbo dashboard`). Charts are Apache ECharts (web/vendor/echarts),
// inlined by kbo. The data is the view JSON of one study (kbo/analysis/study_view.hpp): `kbo show --json`'s
// object plus the stored config and the GP analysis. The report inlines it; the dashboard polls /api/view.
//
// What was drawn is published for tests and scripts: window.kboCharts (the ECharts instances by id) and
// window.kboRendered, also written as JSON into #kbo-rendered: per view the number of points/lines/bars drawn
// and `updates`, the number of renders (the dashboard re-renders when the study changes).
(function () {
  'use strict';
  const boot = JSON.parse(document.getElementById('kbo-data').textContent);
  const charts = {};
  const rendered = { updates: 0 };
  window.kboCharts = charts;
  window.kboRendered = rendered;
  const esc = (s) => echarts.format.encodeHTML(String(s));
  const $ = (id) => document.getElementById(id);

  // ---- helpers ----
  function fmt(v) {
    if (v === null || v === undefined) return '';
    if (typeof v !== 'number') return String(v);
    if (!isFinite(v)) return String(v);
    const a = Math.abs(v);
    if (a !== 0 && (a < 1e-3 || a >= 1e6)) return v.toExponential(3);
    return String(parseFloat(v.toPrecision(6)));
  }
  function fmtSeconds(s) {
    if (!(s >= 0)) return '';
    if (s < 10) return s.toFixed(2) + ' s';
    if (s < 120) return s.toFixed(1) + ' s';
    const m = Math.floor(s / 60);
    return m + ' min ' + Math.round(s - 60 * m) + ' s';
  }
  function chart(id, host) {
    let c = charts[id];
    if (c && c.getDom() && document.body.contains(c.getDom())) return c;
    const dom = host || $(id);
    c = echarts.init(dom, null, { renderer: 'canvas' });
    charts[id] = c;
    return c;
  }
  function dropChart(id) {
    if (charts[id]) { charts[id].dispose(); delete charts[id]; }
  }
  function node(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function listInto(dl, rows) {
    dl.replaceChildren();
    for (const [k, v] of rows) {
      dl.appendChild(node('dt', k));
      dl.appendChild(node('dd', v));
    }
  }
  function paramNames(view) {
    const ps = (view.analysis && view.analysis.parameters) || [];
    const d = view.trials.length ? view.trials[0].x.length : ps.length;
    return ps.length === d ? ps.map((p) => p.name) : Array.from({ length: d }, (_, j) => 'x' + j);
  }
  function paramBounds(view, j) {
    const ps = (view.analysis && view.analysis.parameters) || [];
    return ps[j] ? [ps[j].lower, ps[j].upper] : [null, null];
  }
  const better = (view) => (view.direction === 'maximize' ? (a, b) => a > b : (a, b) => a < b);
  const base = { animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' } };

  // ---- summary ----
  function renderSummary(view) {
    $('title').textContent = 'kbo · ' + view.study;
    document.title = 'kbo · ' + view.study;
    $('where').textContent = view.storage || '';
    const m = view.analysis && view.analysis.model;
    const rows = [
      ['direction', view.direction],
      ['space', view.space_text || JSON.stringify(view.space)],
      ['trials', view.n_trials + ' (' + view.n_complete + ' complete, ' + view.n_failed + ' failed, ' +
        view.n_pending + ' pending)' + (view.budget !== null && view.budget !== undefined ? ' of budget ' + view.budget : '')],
      ['best value', view.best_value === null ? '—' : fmt(view.best_value) + ' (trial ' + view.best_trial + ')'],
      ['best point', view.best_x === null ? '—' :
        paramNames(view).map((n, j) => n + ' = ' + fmt(view.best_x[j])).join(', ')],
      ['model', m ? (m.ok ? m.kernel + ' on ' + m.n_points + ' trials' : 'none: ' + m.reason) : '—'],
    ];
    if (view.generated_at) rows.push(['generated', new Date(view.generated_at * 1000).toLocaleString()]);
    listInto($('summary-list'), rows);
  }

  // A large study's view lists a sample of its trials (kbo/analysis/view_trials.hpp): say so.
  function renderShown(view) {
    const note = $('shown-note');
    const shown = view.n_shown === undefined ? view.trials.length : view.n_shown;
    note.hidden = shown >= view.n_trials;
    note.textContent = note.hidden ? '' : 'Showing ' + shown + ' of ' + view.n_trials + ' trials in the charts and ' +
      'the table: every improvement of the best value, the pending and most recent trials and an even sample of ' +
      'the rest (--max-trials sets how many). Counts, best and model are of all trials.';
    rendered.shown = shown;
  }

  // ---- convergence ----
  function renderConvergence(view) {
    const cmp = better(view);
    const trials = view.trials.slice().sort((a, b) => a.id - b.id);
    const values = [], bestLine = [], failed = [], pending = [];
    let best = null, lo = Infinity, hi = -Infinity;
    for (const t of trials)
      if (t.state === 'complete') {
        values.push([t.id, t.value]);
        if (best === null || cmp(t.value, best)) best = t.value;
        bestLine.push([t.id, best]);
        lo = Math.min(lo, t.value); hi = Math.max(hi, t.value);
      }
    // Failed/pending trials have no value: drawn on the worst edge of the observed range.
    const floor = values.length ? (view.direction === 'maximize' ? lo : hi) : 0;
    for (const t of trials) {
      if (t.state === 'failed') failed.push({ value: [t.id, floor], reason: t.reason || '' });
      if (t.state === 'pending') pending.push({ value: [t.id, floor], phase: t.phase || '' });
    }
    chart('chart-convergence').setOption(Object.assign({}, base, {
      grid: { left: 60, right: 20, top: 30, bottom: 40 },
      legend: { top: 0 },
      tooltip: { trigger: 'item', formatter: (p) => {
        const extra = p.data && p.data.reason !== undefined ? '<br>failed: ' + esc(p.data.reason)
          : p.data && p.data.phase !== undefined ? '<br>pending (' + esc(p.data.phase) + ')' : '';
        const v = Array.isArray(p.value) ? p.value : p.data.value;
        return esc(p.seriesName) + ' · trial ' + v[0] + (p.seriesName === 'failed' || p.seriesName === 'pending'
          ? '' : '<br>value ' + esc(fmt(v[1]))) + extra;
      } },
      xAxis: { type: 'value', name: 'trial', nameLocation: 'middle', nameGap: 25, minInterval: 1 },
      yAxis: { type: 'value', name: 'value', scale: true },
      dataZoom: [{ type: 'inside' }],
      series: [
        { name: 'value', type: 'scatter', data: values, symbolSize: 7, itemStyle: { color: '#60a5fa' } },
        { name: 'best so far', type: 'line', step: 'end', data: bestLine, showSymbol: false,
          lineStyle: { width: 2.5, color: '#1d4ed8' }, itemStyle: { color: '#1d4ed8' } },
        { name: 'failed', type: 'scatter', data: failed, symbol: 'path://M0,0L10,10M10,0L0,10', symbolSize: 9,
          itemStyle: { color: 'none', borderColor: '#dc2626', borderWidth: 2 } },
        { name: 'pending', type: 'scatter', data: pending, symbol: 'circle', symbolSize: 7,
          itemStyle: { color: '#fff', borderColor: '#9ca3af', borderWidth: 1.5 } },
      ],
    }), { notMerge: true });
    rendered.convergence = { values: values.length, best_so_far: bestLine.length, failed: failed.length,
      pending: pending.length };
  }

  // ---- parallel coordinates ----
  function renderParallel(view) {
    const names = paramNames(view);
    const D = names.length;
    const done = view.trials.filter((t) => t.state === 'complete');
    const axes = names.map((n, j) => {
      const [lo, hi] = paramBounds(view, j);
      return { dim: j, name: n, min: lo === null ? 'dataMin' : lo, max: hi === null ? 'dataMax' : hi,
        nameTextStyle: { fontSize: 11 } };
    });
    axes.push({ dim: D, name: 'value', scale: true, nameTextStyle: { fontWeight: 'bold' } });
    const data = done.map((t) => t.x.concat([t.value]));
    const vals = done.map((t) => t.value);
    const lo = vals.length ? Math.min(...vals) : 0, hi = vals.length ? Math.max(...vals) : 1;
    // Best values dark: reversed colour ramp when minimising.
    const ramp = ['#1e3a8a', '#3b82f6', '#a5b4fc', '#fde68a', '#f97316'];
    chart('chart-parallel').setOption(Object.assign({}, base, {
      parallel: { left: 50, right: 110, top: 40, bottom: 30,
        parallelAxisDefault: { nameLocation: 'end', nameGap: 12, axisLabel: { fontSize: 10 } } },
      parallelAxis: axes,
      visualMap: { type: 'continuous', dimension: D, min: lo, max: hi === lo ? lo + 1 : hi, right: 5, top: 'middle',
        calculable: true, itemHeight: 120, text: ['value', ''], formatter: (v) => fmt(v),
        inRange: { color: view.direction === 'maximize' ? ramp.slice().reverse() : ramp } },
      series: [{ name: 'trials', type: 'parallel', data: data, lineStyle: { width: 1.5, opacity: 0.7 } }],
    }), { notMerge: true });
    rendered.parallel = { lines: data.length, axes: axes.length };
  }

  // ---- slices and partial dependence ----
  let sliceKey = null;
  function renderSlices(view) {
    const a = view.analysis || {};
    const names = paramNames(view);
    const model = a.model || { ok: false, reason: 'no analysis' };
    $('slices-note').textContent = model.ok
      ? 'GP mean ± 2 std along each parameter with the others at the best trial (' + a.best.trial +
        '); dashed: partial dependence (the mean averaged over the others, uniform on their ranges); dots: ' +
        'every complete trial\'s value against this parameter (a projection: the others differ).'
      : 'No model: ' + model.reason + '. Dots: every complete trial\'s value against each parameter.';
    const grid = $('slices-grid');
    const key = names.join('\u0001');
    if (key !== sliceKey) {  // parameters changed (another study): new chart hosts
      for (const id of Object.keys(charts)) if (id.startsWith('slice-')) dropChart(id);
      grid.replaceChildren();
      names.forEach((_, j) => { const d = node('div', null, 'chart'); d.id = 'slice-' + j; grid.appendChild(d); });
      sliceKey = key;
    }
    const done = view.trials.filter((t) => t.state === 'complete');
    let curves = 0, meanPoints = 0;
    names.forEach((name, j) => {
      const s = model.ok ? a.slices[j] : null;
      const series = [];
      let bandLo = Infinity, bandHi = -Infinity;  // the y axis must show the whole band
      if (s) {
        // The band mean ± 2 std as one polygon (a custom series): upper edge left to right, lower edge back.
        // Its data are the edge points, so the y axis spans the band.
        const upper = s.x.map((x, i) => [x, s.mean[i] + 2 * s.std[i]]);
        const lower = s.x.map((x, i) => [x, s.mean[i] - 2 * s.std[i]]);
        for (const p of lower) bandLo = Math.min(bandLo, p[1]);
        for (const p of upper) bandHi = Math.max(bandHi, p[1]);
        series.push({ name: '± 2 std', type: 'custom', data: upper.concat(lower.slice().reverse()), silent: true,
          encode: { x: 0, y: 1 }, clip: true, z: 1, tooltip: { show: false },
          renderItem: (params, api) => params.dataIndex !== 0 ? null : {
            type: 'polygon', shape: { points: upper.concat(lower.slice().reverse()).map((p) => api.coord(p)) },
            style: { fill: 'rgba(37, 99, 235, 0.15)' } } });
        series.push({ name: 'mean', type: 'line', data: s.x.map((x, i) => [x, s.mean[i]]), showSymbol: false,
          lineStyle: { color: '#1d4ed8', width: 2 }, itemStyle: { color: '#1d4ed8' } });
        series.push({ name: 'partial dependence', type: 'line', showSymbol: false,
          data: s.x.map((x, i) => [x, s.partial_dependence[i]]),
          lineStyle: { color: '#7c3aed', type: 'dashed', width: 1.5 }, itemStyle: { color: '#7c3aed' } });
        curves++;
        meanPoints += s.mean.length;
      }
      series.push({ name: 'trials', type: 'scatter', symbolSize: 5, data: done.map((t) => [t.x[j], t.value, t.id]),
        itemStyle: { color: '#94a3b8' } });
      if (view.best_x)
        series.push({ name: 'best', type: 'scatter', symbol: 'diamond', symbolSize: 11,
          data: [[view.best_x[j], view.best_value, view.best_trial]], itemStyle: { color: '#f59e0b' } });
      const [lo, hi] = paramBounds(view, j);
      chart('slice-' + j, $('slice-' + j)).setOption(Object.assign({}, base, {
        title: { text: name, left: 'center', textStyle: { fontSize: 12 } },
        grid: { left: 55, right: 15, top: 28, bottom: 28 },
        tooltip: { trigger: 'item', formatter: (p) => esc(p.seriesName) + (p.value[2] !== undefined ? ' (trial ' +
          p.value[2] + ')' : '') + '<br>' + esc(name) + ' = ' + esc(fmt(p.value[0])) + '<br>' + esc(fmt(p.value[1])) },
        xAxis: { type: 'value', min: lo === null ? 'dataMin' : lo, max: hi === null ? 'dataMax' : hi },
        yAxis: { type: 'value', scale: true, min: (v) => Math.min(v.min, bandLo), max: (v) => Math.max(v.max, bandHi),
          axisLabel: { formatter: (v) => fmt(v), showMinLabel: false, showMaxLabel: false } },
        series: series,
      }), { notMerge: true });
    });
    rendered.slices = { charts: names.length, model_curves: curves, mean_points: meanPoints };
  }

  // ---- importance ----
  function renderImportance(view) {
    const a = view.analysis || {};
    const model = a.model || { ok: false, reason: 'no analysis' };
    const imp = model.ok ? a.importance.slice() : [];
    imp.sort((p, q) => (p.fanova || 0) - (q.fanova || 0));  // largest at the top of a horizontal bar chart
    const hasLs = imp.some((p) => p.lengthscale !== null);
    $('importance-note').textContent = model.ok
      ? 'Variance decomposition (fANOVA) of the GP mean over the box: the share of its variance explained by each ' +
        'parameter alone; ' + (a.interactions === null ? '' : (100 * a.interactions).toFixed(0) + ' % is left to ' +
        'interactions. ') + (hasLs ? 'ARD relevance: 1/lengthscale normalised to sum 1 (fast change, not amplitude).'
        : 'The kernel has no lengthscale per parameter, so no ARD relevance.')
      : 'No model: ' + model.reason + '.';
    const series = [{ name: 'fANOVA main effect', type: 'bar', data: imp.map((p) => p.fanova),
      itemStyle: { color: '#2563eb' } }];
    if (hasLs) series.push({ name: 'ARD relevance', type: 'bar', data: imp.map((p) => p.lengthscale),
      itemStyle: { color: '#a78bfa' } });
    $('chart-importance').style.height = Math.max(160, 60 + 28 * imp.length * (hasLs ? 1.4 : 1)) + 'px';
    const c = chart('chart-importance');
    c.resize();
    c.setOption(Object.assign({}, base, {
      legend: { top: 0 },
      grid: { left: 110, right: 30, top: 30, bottom: 25 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => fmt(v) },
      xAxis: { type: 'value', max: 1 },
      yAxis: { type: 'category', data: imp.map((p) => p.name) },
      series: series,
    }), { notMerge: true });
    rendered.importance = { bars: imp.length, lengthscale_bars: hasLs ? imp.length : 0 };
  }

  // ---- research modules / settings ----
  // The numeric leaves of a (nested) info object, keyed by dotted path: {agpucb: {g: 2}} -> {'agpucb.g': 2}.
  function numericLeaves(obj, prefix = '', out = {}) {
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'number' && Number.isFinite(v)) out[prefix + k] = v;
      else if (v && typeof v === 'object' && !Array.isArray(v)) numericLeaves(v, prefix + k + '.', out);
    }
    return out;
  }

  function renderResearch(view) {
    const c = view.config || {};
    const rows = [['strategy', c.strategy], ['kernel', c.kernel + (c.ard ? ' (ARD)' : '')],
      ['acquisition', c.acquisition + (c.acquisition === 'ucb' ? ', β ' + c.beta_schedule + (c.beta_schedule === 'constant'
        ? ' = ' + fmt(c.beta) : '') : '')],
      ['initial design', c.n_init + ' ' + c.init_method + ' points'], ['pending trials', c.fantasy],
      ['seed', String(c.seed)]];
    if (c.invariance && c.invariance !== 'none') rows.push(['invariance', c.invariance + ', ' + c.invariant_kernel + ' kernel']);
    if (view.space && view.space.type === 'set')
      rows.push(['set kernel', c.set_kernel + (c.set_kernel === 'approx' ? ', L = ' + (c.set_L || 'm') : '')]);
    const mo = c.module_options || {};
    for (const k of Object.keys(mo)) rows.push(['options.' + k, JSON.stringify(mo[k])]);
    const m = view.analysis && view.analysis.model;
    if (m && m.ok) rows.push(['viewer GP', m.kernel + ', noise ' + fmt(m.noise_variance) + ', log ML ' +
      fmt(m.log_marginal_likelihood)]);
    listInto($('research-list'), rows);

    // Per-trial strategy diagnostics, when the study stores them (a trial's `info` object): each numeric entry,
    // nested ones by their dotted path (A-GP-UCB's agpucb.g, agpucb.h, …), as a line over the trials.
    const withInfo = view.trials.filter((t) => t.info && typeof t.info === 'object')
      .map((t) => ({ id: t.id, values: numericLeaves(t.info) }));
    const keys = new Set();
    for (const t of withInfo) for (const k of Object.keys(t.values)) keys.add(k);
    $('research-note').textContent = withInfo.length
      ? withInfo.length + ' trials carry the strategy\'s diagnostics (info); numeric ones are plotted below, all are in ' +
        'the trial table.'
      : 'This study stores no per-trial strategy diagnostics (chosen kernel, g(t)); the settings below are what it ran with.';
    const host = $('chart-info');
    if (keys.size === 0) { host.hidden = true; dropChart('chart-info'); rendered.research = { info_series: 0 }; return; }
    host.hidden = false;
    const series = [...keys].sort().map((k) => ({ name: k, type: 'line', showSymbol: true, symbolSize: 4,
      data: withInfo.filter((t) => k in t.values).map((t) => [t.id, t.values[k]]) }));
    chart('chart-info').setOption(Object.assign({}, base, {
      legend: { top: 0, type: 'scroll' }, tooltip: { trigger: 'axis' },
      grid: { left: 60, right: 20, top: 40, bottom: 35 },
      xAxis: { type: 'value', name: 'trial', nameLocation: 'middle', nameGap: 22, minInterval: 1 },
      yAxis: { type: 'value', scale: true }, series: series,
    }), { notMerge: true });
    rendered.research = { info_series: series.length };
  }

  // ---- trial table ----
  const sortState = { col: 'id', desc: false };
  function renderTable(view) {
    const names = paramNames(view);
    const now = Date.now() / 1000;
    const hasInfo = view.trials.some((t) => t.info && typeof t.info === 'object');
    const cols = [
      { key: 'id', label: 'id', num: true, get: (t) => t.id },
      { key: 'state', label: 'state', get: (t) => t.state + (t.phase ? ' (' + t.phase + ')' : '') },
      { key: 'value', label: 'value', num: true, get: (t) => t.value },
    ].concat(names.map((n, j) => ({ key: 'x' + j, label: n, num: true, get: (t) => t.x[j] })), [
      { key: 'duration', label: 'duration', num: true, show: fmtSeconds,
        get: (t) => (t.finished_at ? t.finished_at : now) - t.created_at },
      { key: 'worker', label: 'worker', get: (t) => t.worker },
      { key: 'reason', label: 'failure reason', get: (t) => t.reason || '' },
    ]);
    if (hasInfo) cols.push({ key: 'info', label: 'info', get: (t) => (t.info ? JSON.stringify(t.info) : '') });
    const col = cols.find((c) => c.key === sortState.col) || cols[0];
    const rows = view.trials.slice().sort((a, b) => {
      const x = col.get(a), y = col.get(b);
      // Missing values (failed/pending trials' value) sort last in both directions.
      if (x === null || x === undefined || x === '') return y === null || y === undefined || y === '' ? a.id - b.id : 1;
      if (y === null || y === undefined || y === '') return -1;
      const r = col.num ? x - y : String(x).localeCompare(String(y));
      return (sortState.desc ? -r : r) || a.id - b.id;
    });
    const table = $('trial-table');
    table.replaceChildren();
    const head = node('tr');
    for (const c of cols) {
      const th = node('th', c.label, c.key === col.key ? 'sorted' + (sortState.desc ? ' desc' : '') : '');
      th.dataset.key = c.key;
      th.addEventListener('click', () => {
        sortState.desc = sortState.col === c.key ? !sortState.desc : false;
        sortState.col = c.key;
        renderTable(view);
        publish();
      });
      head.appendChild(th);
    }
    const thead = node('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    const body = node('tbody');
    for (const t of rows) {
      const tr = node('tr', null, t.state + (t.id === view.best_trial ? ' best' : ''));
      for (const c of cols) {
        const v = c.get(t);
        tr.appendChild(node('td', c.show ? c.show(v) : fmt(v), c.num ? 'num' : ''));
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    rendered.table = { rows: rows.length, columns: cols.length, sorted_by: col.key, descending: sortState.desc };
  }

  // ---- rendering a view ----
  function publish() {
    $('kbo-rendered').textContent = JSON.stringify(rendered);
  }
  function render(view) {
    rendered.study = view.study;
    rendered.n_trials = view.n_trials;
    renderSummary(view);
    renderShown(view);
    renderConvergence(view);
    renderParallel(view);
    renderSlices(view);
    renderImportance(view);
    renderResearch(view);
    renderTable(view);
    rendered.updates += 1;
    publish();
  }
  window.kboRender = render;  // for tests: draw any view object
  window.addEventListener('resize', () => { for (const c of Object.values(charts)) c.resize(); });

  if (boot.mode !== 'live') {
    render(boot.view);
    return;
  }

  // ---- dashboard: the study list and the selected study, polled ----
  let selected = decodeURIComponent((location.hash.match(/study=([^&]*)/) || [])[1] || '') || boot.study || '';
  let lastText = null;
  const nav = $('studies');
  nav.hidden = false;
  function renderStudies(list) {
    nav.replaceChildren(node('div', 'Studies', 'note'));
    nav.firstChild.style.cssText = 'padding: 0 16px 6px; color: #6b7280; font-size: 12px;';
    for (const s of list) {
      const a = node('a', s.name, s.name === selected ? 'current' : '');
      a.href = '#study=' + encodeURIComponent(s.name);
      a.appendChild(node('small', s.n_trials + ' trials' + (s.best_value !== null ? ', best ' + fmt(s.best_value) : '')));
      a.addEventListener('click', (e) => {
        e.preventDefault();
        selected = s.name;
        history.replaceState(null, '', '#study=' + encodeURIComponent(s.name));
        lastText = null;
        poll();
      });
      nav.appendChild(a);
    }
    rendered.studies = list.length;
  }
  let busy = false;
  async function poll() {
    if (busy) return;
    busy = true;
    const live = $('live');
    try {
      const list = await (await fetch('api/studies', { cache: 'no-store' })).json();
      if (!selected && list.length) selected = list[0].name;
      renderStudies(list);
      if (!list.length)
        listInto($('summary-list'), [['studies', 'none in this storage yet: the page shows the first one created']]);
      if (selected) {
        const res = await fetch('api/view?study=' + encodeURIComponent(selected), { cache: 'no-store' });
        const text = await res.text();
        if (!res.ok) throw new Error(text);
        if (text !== lastText) {  // re-render only when the study changed
          lastText = text;
          render(JSON.parse(text));
        }
      }
      rendered.polls = (rendered.polls || 0) + 1;
      publish();
      live.className = 'live';
      live.textContent = 'live · updated ' + new Date().toLocaleTimeString();
    } catch (e) {
      live.className = 'live stale';
      live.textContent = 'not updating: ' + e.message;
    } finally {
      busy = false;
    }
  }
  poll();
  setInterval(poll, boot.poll_ms || 1500);
})();
