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
  // The study's parameters as the user declared them (analysis.parameters: a log float, an int, a categorical
  // with its choices), else one plain axis per coordinate of x. A trial's value of one is its `params` entry
  // (named spaces: the user's typed value) or its coordinate.
  function paramAxes(view) {
    const ps = (view.analysis && view.analysis.parameters) || [];
    if (ps.length) return ps;
    const d = view.trials.length ? view.trials[0].x.length : 0;
    return Array.from({ length: d }, (_, j) => ({ name: 'x' + j, type: 'float', log: false, lower: null, upper: null,
      coordinates: [j] }));
  }
  function paramNames(view) { return paramAxes(view).map((p) => p.name); }
  function valueOf(t, axis) {
    if (t.params && axis.name in t.params) return t.params[axis.name];
    return t.x[axis.coordinates[0]];
  }
  const isCategorical = (axis) => axis.type === 'categorical';
  const choiceText = (c) => (typeof c === 'string' ? c : JSON.stringify(c));
  // The best point in the user's values: `name = value` per parameter (named spaces: every parameter,
  // fixed ones included, in the order of the space).
  function bestPointText(view) {
    if (view.best_x === null || view.best_x === undefined) return '—';
    const axes = paramAxes(view);
    if (view.best_params) {
      const keys = axes.map((p) => p.name).filter((k) => k in view.best_params);
      for (const k of Object.keys(view.best_params)) if (!keys.includes(k)) keys.push(k);
      return keys.map((k) => k + ' = ' + fmt(view.best_params[k])).join(', ');
    }
    return axes.map((p) => p.name + ' = ' + fmt(view.best_x[p.coordinates[0]])).join(', ');
  }
  // A value axis for one parameter: log scale for log parameters, whole numbers for ints, its bounds.
  function valueAxis(axis, extra) {
    const o = { type: axis.log ? 'log' : 'value', min: axis.lower === null ? 'dataMin' : axis.lower,
      max: axis.upper === null ? 'dataMax' : axis.upper, axisLabel: { formatter: (v) => fmt(v), hideOverlap: true } };
    if (axis.log) o.logBase = 10;
    if (axis.type === 'int') o.minInterval = 1;
    return Object.assign(o, extra || {});
  }
  const better = (view) => (view.direction === 'maximize' ? (a, b) => a > b : (a, b) => a < b);
  const base = { animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' } };

  // ---- summary ----
  function renderSummary(view) {
    $('title').textContent = 'kbo · ' + view.study;
    document.title = 'kbo · ' + view.study;
    $('where').textContent = view.storage || '';
    $('best').textContent = view.best_value === null ? '' : 'best ' + fmt(view.best_value) + ' at ' + bestPointText(view);
    const m = view.analysis && view.analysis.model;
    const rows = [
      ['direction', view.direction],
      ['space', view.space_text || JSON.stringify(view.space)],
      ['trials', view.n_trials + ' (' + view.n_complete + ' complete, ' + view.n_failed + ' failed, ' +
        view.n_pending + ' pending)' + (view.budget !== null && view.budget !== undefined ? ' of budget ' + view.budget : '')],
      ['best value', view.best_value === null ? '—' : fmt(view.best_value) + ' (trial ' + view.best_trial + ')'],
      ['best point', bestPointText(view)],
    ];
    // A noisy study: the model's best guess beside the best draw (kbo/study/study.hpp, Recommendation).
    const rec = view.recommended, seen = view.best_observed;
    if (rec && seen && (view.noisy || rec.trial !== seen.trial)) {
      rows.push(['recommended', 'trial ' + rec.trial + (rec.mean === null ? ' (no fitted model)' :
        ', posterior mean ' + fmt(rec.mean) + ' ± ' + fmt(rec.sd))]);
      rows.push(['best observed', fmt(seen.value) + ' (trial ' + seen.trial + ')']);
    }
    rows.push(
      ['model', m ? (m.ok ? m.kernel + ' on ' + m.n_points + ' trials' : 'none: ' + m.reason) : '—']);
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
  // The value axis: linear, log (all values positive) or clipped (the worst values, which would flatten the
  // interesting part, drawn on the edge as triangles). 'auto' clips when the worst value is more than five
  // times as far from the best as the upper quartile is.
  let convergenceScale = 'auto';
  function quantile(sorted, f) {
    const i = f * (sorted.length - 1), lo = Math.floor(i);
    return sorted[lo] + (i - lo) * ((sorted[lo + 1] ?? sorted[lo]) - sorted[lo]);
  }
  function convergenceAxis(view, vals) {
    const maximize = view.direction === 'maximize';
    const sorted = vals.slice().sort((p, q) => p - q);
    const positive = vals.length > 0 && sorted[0] > 0;
    const n = sorted.length;
    let edge = null;
    if (n >= 4) {
      const best = maximize ? sorted[n - 1] : sorted[0];
      const typical = quantile(sorted, maximize ? 0.25 : 0.75);
      const worst = maximize ? sorted[0] : sorted[n - 1];
      if (Math.abs(worst - best) > 5 * Math.abs(typical - best) && typical !== best) edge = best + 2 * (typical - best);
    }
    let mode = convergenceScale;
    if (mode === 'auto') mode = edge !== null ? 'clipped' : 'linear';
    if (mode === 'log' && !positive) mode = 'linear';
    if (mode === 'clipped' && edge === null) {
      // Asked for explicitly: clip at the upper (lower, maximising) quartile's double distance anyway.
      if (n >= 2) {
        const best = maximize ? sorted[n - 1] : sorted[0];
        edge = best + 2 * (quantile(sorted, maximize ? 0.25 : 0.75) - best);
      }
      if (edge === null || edge === (maximize ? sorted[n - 1] : sorted[0])) mode = 'linear';
    }
    const sel = $('convergence-scale');
    if (sel) {
      sel.querySelector('option[value=log]').disabled = !positive;
      sel.value = convergenceScale;
    }
    return { mode, edge, maximize };
  }
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
    const scale = convergenceAxis(view, values.map((v) => v[1]));
    const beyond = (v) => scale.mode === 'clipped' && (scale.maximize ? v < scale.edge : v > scale.edge);
    let clipped = 0;
    const shown = values.map(([id, v]) => {
      if (!beyond(v)) return [id, v];
      clipped++;
      return { value: [id, scale.edge], actual: v, symbol: 'triangle', symbolRotate: scale.maximize ? 180 : 0 };
    });
    // Failed/pending trials have no value: drawn on the worst edge of the drawn range.
    const worstShown = scale.mode === 'clipped' ? scale.edge : (view.direction === 'maximize' ? lo : hi);
    const floor = values.length ? worstShown : 0;
    for (const t of trials) {
      if (t.state === 'failed') failed.push({ value: [t.id, floor], reason: t.reason || '' });
      if (t.state === 'pending') pending.push({ value: [t.id, floor], phase: t.phase || '' });
    }
    $('convergence-note').textContent = scale.mode === 'clipped'
      ? clipped + ' value' + (clipped === 1 ? '' : 's') + ' beyond ' + fmt(scale.edge) + ' drawn on the edge (triangles).'
      : scale.mode === 'log' ? 'Log value axis.' : '';
    chart('chart-convergence').setOption(Object.assign({}, base, {
      grid: { left: 60, right: 20, top: 30, bottom: 40 },
      legend: { top: 0 },
      tooltip: { trigger: 'item', formatter: (p) => {
        const extra = p.data && p.data.reason !== undefined ? '<br>failed: ' + esc(p.data.reason)
          : p.data && p.data.phase !== undefined ? '<br>pending (' + esc(p.data.phase) + ')' : '';
        const v = Array.isArray(p.value) ? p.value : p.data.value;
        const actual = p.data && p.data.actual !== undefined ? p.data.actual : v[1];
        return esc(p.seriesName) + ' · trial ' + v[0] + (p.seriesName === 'failed' || p.seriesName === 'pending'
          ? '' : '<br>value ' + esc(fmt(actual))) + extra;
      } },
      xAxis: { type: 'value', name: 'trial', nameLocation: 'middle', nameGap: 25, minInterval: 1 },
      yAxis: scale.mode === 'log' ? { type: 'log', name: 'value (log)', axisLabel: { formatter: (v) => fmt(v) } }
        : { type: 'value', name: 'value', scale: true, axisLabel: { formatter: (v) => fmt(v) },
          max: scale.mode === 'clipped' && !scale.maximize ? scale.edge : null,
          min: scale.mode === 'clipped' && scale.maximize ? scale.edge : null },
      dataZoom: [{ type: 'inside' }],
      series: [
        { name: 'value', type: 'scatter', data: shown, symbolSize: 7, itemStyle: { color: '#60a5fa' } },
        { name: 'best so far', type: 'line', step: 'end', showSymbol: false,
          data: bestLine.map(([id, v]) => [id, beyond(v) ? scale.edge : v]),
          lineStyle: { width: 2.5, color: '#1d4ed8' }, itemStyle: { color: '#1d4ed8' } },
        { name: 'failed', type: 'scatter', data: failed, symbol: 'path://M0,0L10,10M10,0L0,10', symbolSize: 9,
          itemStyle: { color: 'none', borderColor: '#dc2626', borderWidth: 2 } },
        { name: 'pending', type: 'scatter', data: pending, symbol: 'circle', symbolSize: 7,
          itemStyle: { color: '#fff', borderColor: '#9ca3af', borderWidth: 1.5 } },
      ],
    }), { notMerge: true });
    rendered.convergence = { values: values.length, best_so_far: bestLine.length, failed: failed.length,
      pending: pending.length };
    rendered.convergence_axis = { mode: scale.mode, clipped: clipped };
  }

  // ---- parallel coordinates ----
  function renderParallel(view) {
    const params = paramAxes(view);
    const D = params.length;
    const done = view.trials.filter((t) => t.state === 'complete');
    // One axis per parameter in its own terms: a category axis for a categorical, a log axis for a log
    // parameter, whole numbers for an int.
    const axes = params.map((p, j) => {
      const o = isCategorical(p) ? { dim: j, name: p.name, type: 'category', data: p.choices.map(choiceText) }
        : Object.assign(valueAxis(p), { dim: j, name: p.name });
      o.nameTextStyle = { fontSize: 11 };
      return o;
    });
    axes.push({ dim: D, name: 'value', scale: true, nameTextStyle: { fontWeight: 'bold' } });
    const data = done.map((t) => params.map((p) => (isCategorical(p) ? choiceText(valueOf(t, p)) : valueOf(t, p)))
      .concat([t.value]));
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
    rendered.parallel = { lines: data.length, axes: axes.length,
      axis_types: axes.slice(0, D).map((x) => x.type), axis_names: axes.map((x) => x.name) };
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
        'every complete trial\'s value against this parameter (a projection: the others differ). Log parameters ' +
        'are on log axes; a categorical shows per choice a box of the observed values, the GP mean with its ' +
        '± 2 std bar and the partial dependence (triangle).'
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
    const params = paramAxes(view);
    let curves = 0, meanPoints = 0, boxes = 0;
    params.forEach((axis, j) => {
      const name = axis.name;
      const s = model.ok ? a.slices[j] : null;
      const cat = isCategorical(axis);
      const xv = (v) => (cat ? choiceText(v) : v);
      const series = [];
      let bandLo = Infinity, bandHi = -Infinity;  // the y axis must show the whole band
      if (s && !cat) {
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
        const ints = axis.type === 'int';
        series.push({ name: 'mean', type: 'line', data: s.x.map((x, i) => [x, s.mean[i]]), showSymbol: ints,
          symbolSize: 4, lineStyle: { color: '#1d4ed8', width: 2 }, itemStyle: { color: '#1d4ed8' } });
        series.push({ name: 'partial dependence', type: 'line', showSymbol: false,
          data: s.x.map((x, i) => [x, s.partial_dependence[i]]),
          lineStyle: { color: '#7c3aed', type: 'dashed', width: 1.5 }, itemStyle: { color: '#7c3aed' } });
        curves++;
        meanPoints += s.mean.length;
      } else if (s && cat) {
        // A categorical: per choice a box of the observed values, the GP mean with a ± 2 std bar and the
        // partial dependence, on a category axis.
        const bars = s.x.map((c, i) => [choiceText(c), s.mean[i] - 2 * s.std[i], s.mean[i] + 2 * s.std[i]]);
        for (const b of bars) { bandLo = Math.min(bandLo, b[1]); bandHi = Math.max(bandHi, b[2]); }
        series.push({ name: '± 2 std', type: 'custom', data: bars, z: 3, tooltip: { show: false },
          encode: { x: 0, y: [1, 2] },
          renderItem: (params, api) => {
            const top = api.coord([api.value(0), api.value(2)]), bot = api.coord([api.value(0), api.value(1)]);
            const w = api.size([1, 0])[0] * 0.12;
            const style = { stroke: '#1d4ed8', lineWidth: 2 };
            return { type: 'group', children: [
              { type: 'line', shape: { x1: top[0], y1: top[1], x2: bot[0], y2: bot[1] }, style },
              { type: 'line', shape: { x1: top[0] - w, y1: top[1], x2: top[0] + w, y2: top[1] }, style },
              { type: 'line', shape: { x1: bot[0] - w, y1: bot[1], x2: bot[0] + w, y2: bot[1] }, style }] };
          } });
        series.push({ name: 'mean', type: 'scatter', symbolSize: 9, z: 4,
          data: s.x.map((c, i) => [choiceText(c), s.mean[i]]), itemStyle: { color: '#1d4ed8' } });
        series.push({ name: 'partial dependence', type: 'scatter', symbol: 'triangle', symbolSize: 9, z: 4,
          data: s.x.map((c, i) => [choiceText(c), s.partial_dependence[i]]), itemStyle: { color: '#7c3aed' } });
        curves++;
        meanPoints += s.mean.length;
      }
      if (cat) {
        // Box plot of the observed values per choice (quartiles, whiskers at the extremes).
        const stats = axis.choices.map((c) => {
          const v = done.filter((t) => choiceText(valueOf(t, axis)) === choiceText(c)).map((t) => t.value)
            .sort((p, q) => p - q);
          if (!v.length) return [];
          const q = (f) => { const i = f * (v.length - 1), lo = Math.floor(i); return v[lo] + (i - lo) * ((v[lo + 1] ?? v[lo]) - v[lo]); };
          return [v[0], q(0.25), q(0.5), q(0.75), v[v.length - 1]];
        });
        boxes += stats.filter((b) => b.length).length;
        series.push({ name: 'observed', type: 'boxplot', data: stats, z: 1, boxWidth: ['20%', '45%'],
          itemStyle: { color: 'rgba(148, 163, 184, 0.15)', borderColor: '#94a3b8' } });
      }
      series.push({ name: 'trials', type: 'scatter', symbolSize: 5, z: 2,
        data: done.map((t) => [xv(valueOf(t, axis)), t.value, t.id]), itemStyle: { color: '#94a3b8' } });
      if (view.best_x && a.best && a.best.values)
        series.push({ name: 'best', type: 'scatter', symbol: 'diamond', symbolSize: 11, z: 5,
          data: [[xv(a.best.values[j]), view.best_value, view.best_trial]], itemStyle: { color: '#f59e0b' } });
      const xAxis = cat ? { type: 'category', data: axis.choices.map(choiceText), jitter: 18, jitterOverlap: false }
        : valueAxis(axis);
      chart('slice-' + j, $('slice-' + j)).setOption(Object.assign({}, base, {
        title: { text: name + (axis.log ? ' (log scale)' : ''), left: 'center', textStyle: { fontSize: 12 } },
        grid: { left: 55, right: 15, top: 28, bottom: 28 },
        tooltip: { trigger: 'item', formatter: (p) => Array.isArray(p.value) ? esc(p.seriesName) +
          (p.value[2] !== undefined && p.seriesType === 'scatter' ? ' (trial ' + p.value[2] + ')' : '') + '<br>' +
          esc(name) + ' = ' + esc(fmt(p.value[0])) + '<br>' + esc(fmt(p.value[1])) : esc(p.seriesName) },
        xAxis: xAxis,
        yAxis: { type: 'value', scale: true, min: (v) => Math.min(v.min, bandLo), max: (v) => Math.max(v.max, bandHi),
          axisLabel: { formatter: (v) => fmt(v), showMinLabel: false, showMaxLabel: false } },
        series: series,
      }), { notMerge: true });
    });
    rendered.slices = { charts: params.length, model_curves: curves, mean_points: meanPoints, boxes: boxes,
      x_axes: params.map((p) => (isCategorical(p) ? 'category' : p.log ? 'log' : 'value')) };
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

  // ---- contour: the GP mean over two parameters ----
  // The analysis has every pair of the most important parameters (analysis.contours); the page shows one, the
  // two most important first, and the user picks another pair with the two selectors.
  const contourPick = { x: null, y: null };
  function findContour(a, x, y) {
    for (const c of a.contours || []) {
      if (c.names[0] === x && c.names[1] === y) return { c, swap: false };
      if (c.names[0] === y && c.names[1] === x) return { c, swap: true };
    }
    return null;
  }
  function fillSelect(sel, names, value) {
    const key = names.join('\u0001');
    if (sel.dataset.key !== key) {
      sel.replaceChildren(...names.map((n) => { const o = node('option', n); o.value = n; return o; }));
      sel.dataset.key = key;
    }
    sel.value = value;
  }
  function renderContour(view) {
    const a = view.analysis || {};
    const model = a.model || { ok: false, reason: 'no analysis' };
    const contours = model.ok ? a.contours || [] : [];
    const names = [];
    for (const c of contours) for (const n of c.names) if (!names.includes(n)) names.push(n);
    const host = $('chart-contour');
    if (!contours.length) {
      $('contour-note').textContent = model.ok ? 'A contour needs two parameters with at least two values each.'
        : 'No model: ' + model.reason + '.';
      host.hidden = true; dropChart('chart-contour');
      rendered.contour = { cells: 0 };
      return;
    }
    host.hidden = false;
    if (!findContour(a, contourPick.x, contourPick.y)) {
      contourPick.x = contours[0].names[0];
      contourPick.y = contours[0].names[1];
    }
    fillSelect($('contour-x'), names, contourPick.x);
    fillSelect($('contour-y'), names, contourPick.y);
    const { c, swap } = findContour(a, contourPick.x, contourPick.y);
    // Level labels with 3 significant digits (the tooltip has them in full).
    const short = (v) => (typeof v === 'number' ? fmt(parseFloat(v.toPrecision(3))) : choiceText(v));
    const xs = (swap ? c.y : c.x).map(short), ys = (swap ? c.x : c.y).map(short);
    const data = [];
    let lo = Infinity, hi = -Infinity;
    for (let r = 0; r < c.y.length; r++)
      for (let k = 0; k < c.x.length; k++) {
        const m = c.mean[r][k];
        lo = Math.min(lo, m); hi = Math.max(hi, m);
        data.push(swap ? [r, k, m] : [k, r, m]);
      }
    const params = paramAxes(view);
    const ix = params.findIndex((p) => p.name === contourPick.x), iy = params.findIndex((p) => p.name === contourPick.y);
    // The level nearest the best trial's value (by ratio for positive numbers: levels of a log parameter).
    const nearest = (levels, v) => {
      if (typeof v !== 'number') return levels.findIndex((l) => choiceText(l) === choiceText(v));
      const dist = (l) => (l > 0 && v > 0 ? Math.abs(Math.log(l / v)) : Math.abs(l - v));
      let best = 0;
      levels.forEach((l, i) => { if (dist(l) < dist(levels[best])) best = i; });
      return best;
    };
    const bestVals = a.best && a.best.values;
    const marker = bestVals ? [[nearest(swap ? c.y : c.x, bestVals[ix]), nearest(swap ? c.x : c.y, bestVals[iy])]] : [];
    const logNote = (p) => (p && p.log ? ' (log scale)' : '');
    $('contour-note').textContent = 'GP mean over ' + contourPick.x + ' and ' + contourPick.y + ' with the other ' +
      'parameters at the best trial (' + (a.best ? a.best.trial : '—') + ', diamond). Pairs of the ' + names.length +
      ' most important parameters are available.';
    const ramp = ['#1e3a8a', '#3b82f6', '#a5b4fc', '#fde68a', '#f97316'];
    chart('chart-contour').setOption(Object.assign({}, base, {
      grid: { left: 80, right: 110, top: 20, bottom: 50 },
      tooltip: { formatter: (p) => p.seriesType === 'heatmap' ? esc(contourPick.x) + ' = ' + esc(xs[p.value[0]]) +
        '<br>' + esc(contourPick.y) + ' = ' + esc(ys[p.value[1]]) + '<br>mean ' + esc(fmt(p.value[2])) : 'best trial' },
      xAxis: { type: 'category', data: xs, name: contourPick.x + logNote(params[ix]), nameLocation: 'middle',
        nameGap: 28, axisLabel: { hideOverlap: true }, splitArea: { show: false } },
      yAxis: { type: 'category', data: ys, name: contourPick.y + logNote(params[iy]), nameLocation: 'middle',
        nameGap: 60, axisLabel: { hideOverlap: true } },
      visualMap: { seriesIndex: 0, dimension: 2, min: lo, max: hi === lo ? lo + 1 : hi, calculable: true, right: 5,
        top: 'middle', itemHeight: 160,
        formatter: (v) => fmt(v), text: ['mean', ''],
        inRange: { color: view.direction === 'maximize' ? ramp.slice().reverse() : ramp } },
      series: [{ name: 'mean', type: 'heatmap', data: data, progressive: 0 },
        { name: 'best', type: 'scatter', symbol: 'diamond', symbolSize: 14, data: marker,
          itemStyle: { color: '#fff', borderColor: '#111827', borderWidth: 2 } }],
    }), { notMerge: true });
    rendered.contour = { cells: data.length, x: contourPick.x, y: contourPick.y, pairs: contours.length,
      x_labels: xs.length, y_labels: ys.length };
  }

  // ---- model fit: leave-one-out predicted vs observed ----
  function renderModelFit(view) {
    const a = view.analysis || {};
    const model = a.model || { ok: false, reason: 'no analysis' };
    const f = model.ok ? a.model_fit : null;
    const host = $('chart-modelfit');
    if (!f) {
      $('modelfit-note').textContent = 'No model: ' + model.reason + '.';
      host.hidden = true; dropChart('chart-modelfit');
      rendered.model_fit = { points: 0 };
      return;
    }
    host.hidden = false;
    const pts = f.observed.map((o, i) => [o, f.predicted[i], f.std[i], f.trials[i]]);
    let inside = 0, sq = 0, lo = Infinity, hi = -Infinity;
    for (const [o, m, sd] of pts) {
      if (Math.abs(m - o) <= 2 * sd) inside++;
      sq += (m - o) * (m - o);
      lo = Math.min(lo, o, m - 2 * sd); hi = Math.max(hi, o, m + 2 * sd);
    }
    const rmse = Math.sqrt(sq / Math.max(1, pts.length));
    $('modelfit-note').textContent = 'Each modelled trial\'s value predicted by the GP from the others (leave-one-out ' +
      'at the fitted hyperparameters) with ± 2 std bars (noise included), against the observed value; on the ' +
      'diagonal is a perfect prediction. RMSE ' + fmt(rmse) + '; ' + inside + ' of ' + pts.length +
      ' observed values within ± 2 std.';
    const pad = (hi - lo) * 0.05 || 1;
    chart('chart-modelfit').setOption(Object.assign({}, base, {
      grid: { left: 70, right: 25, top: 25, bottom: 50 },
      tooltip: { trigger: 'item', formatter: (p) => p.seriesName === 'LOO prediction' ? 'trial ' + p.value[3] +
        '<br>observed ' + esc(fmt(p.value[0])) + '<br>predicted ' + esc(fmt(p.value[1])) + ' ± ' + esc(fmt(2 * p.value[2]))
        : esc(p.seriesName) },
      xAxis: { type: 'value', name: 'observed', nameLocation: 'middle', nameGap: 28, min: lo - pad, max: hi + pad,
        axisLine: { onZero: false }, axisLabel: { formatter: (v) => fmt(v), hideOverlap: true, showMinLabel: false,
          showMaxLabel: false } },
      yAxis: { type: 'value', name: 'predicted (leave-one-out)', nameLocation: 'middle', nameGap: 55, min: lo - pad,
        max: hi + pad, axisLine: { onZero: false }, axisLabel: { formatter: (v) => fmt(v), showMinLabel: false,
          showMaxLabel: false } },
      series: [
        { name: 'diagonal', type: 'line', data: [[lo - pad, lo - pad], [hi + pad, hi + pad]], showSymbol: false,
          silent: true, lineStyle: { color: '#9ca3af', type: 'dashed', width: 1 } },
        { name: '± 2 std', type: 'custom', data: pts, silent: true, z: 2, encode: { x: 0, y: 1 },
          renderItem: (params, api) => {
            const top = api.coord([api.value(0), api.value(1) + 2 * api.value(2)]);
            const bot = api.coord([api.value(0), api.value(1) - 2 * api.value(2)]);
            return { type: 'line', shape: { x1: top[0], y1: top[1], x2: bot[0], y2: bot[1] },
              style: { stroke: 'rgba(37, 99, 235, 0.45)', lineWidth: 1.2 } };
          } },
        { name: 'LOO prediction', type: 'scatter', data: pts, symbolSize: 6, z: 3, itemStyle: { color: '#1d4ed8' } },
      ],
    }), { notMerge: true });
    rendered.model_fit = { points: pts.length, error_bars: pts.length, within_2sd: inside };
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
    const now = Date.now() / 1000;
    const hasInfo = view.trials.some((t) => t.info && typeof t.info === 'object');
    const cols = [
      { key: 'id', label: 'id', num: true, get: (t) => t.id },
      { key: 'state', label: 'state', get: (t) => t.state + (t.phase ? ' (' + t.phase + ')' : '') },
      { key: 'value', label: 'value', num: true, get: (t) => t.value },
    ].concat(paramAxes(view).map((p, j) => ({ key: 'x' + j, label: p.name, num: !isCategorical(p),
      get: (t) => (isCategorical(p) ? choiceText(valueOf(t, p)) : valueOf(t, p)) })), [
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
  let currentView = null;
  function render(view) {
    currentView = view;
    rendered.study = view.study;
    rendered.n_trials = view.n_trials;
    renderSummary(view);
    renderShown(view);
    renderConvergence(view);
    renderParallel(view);
    renderSlices(view);
    renderImportance(view);
    renderContour(view);
    renderModelFit(view);
    renderResearch(view);
    renderTable(view);
    rendered.updates += 1;
    publish();
  }
  window.kboRender = render;  // for tests: draw any view object
  $('convergence-scale').addEventListener('change', (e) => {
    convergenceScale = e.target.value;
    if (currentView) { renderConvergence(currentView); publish(); }
  });
  for (const [id, key] of [['contour-x', 'x'], ['contour-y', 'y']])
    $(id).addEventListener('change', (e) => {
      const other = key === 'x' ? 'y' : 'x';
      if (e.target.value === contourPick[other]) contourPick[other] = contourPick[key];  // a swap
      contourPick[key] = e.target.value;
      if (currentView) { renderContour(currentView); publish(); }
    });
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
