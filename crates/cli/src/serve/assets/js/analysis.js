// The analysis of every move: its rows as they arrive, the live line, the result box.

import { $, el, count, showError, clearError } from './util.js';
import { state, gameOver } from './state.js';
import { runSearch } from './search.js';

const analysisRows = new Map(); // move -> the latest `move` event

function scoreKey(score, text) {
  if (score && typeof score === 'object' && 'kind' in score) {
    const v = Number(score.value) || 0;
    if (score.kind === 'win') return 1e9 + v;
    if (score.kind === 'loss') return -1e9 + v;
    if (score.kind === 'draw') return 0;
    return v;
  }
  if (typeof score === 'number' && isFinite(score)) return score;
  const t = String(text === undefined || text === null ? '' : text).trim().toLowerCase();
  if (t === '+inf' || t === 'inf') return 2e9;
  if (t === '-inf') return -2e9;
  let m = /^win\s*\+?\s*(-?\d+(?:\.\d+)?)?/.exec(t);
  if (m) return 1e9 + (m[1] ? Number(m[1]) : 0);
  m = /^loss\s*(-?\d+(?:\.\d+)?)?/.exec(t);
  if (m) return -1e9 + (m[1] ? -Math.abs(Number(m[1])) : 0);
  const n = parseFloat(t);
  return isFinite(n) ? n : -3e9;
}

export function clearAnalysis() {
  analysisRows.clear();
  $('analysis').replaceChildren();
  $('live').textContent = '';
  $('result').replaceChildren();
  $('analysis-progress').textContent = '';
}

function renderAnalysis(best) {
  const rows = [...analysisRows.values()].sort((a, b) => {
    const d = scoreKey(b.score, b.score_text) - scoreKey(a.score, a.score_text);
    return d !== 0 ? d : String(a.move).localeCompare(String(b.move));
  });
  const body = $('analysis');
  body.replaceChildren(
    ...rows.map((m) =>
      el(
        'tr',
        { 'data-move': m.move, class: m.move === best ? 'best' : null },
        el('td', { class: 'move', text: m.move }),
        el('td', { class: 'score num', text: m.score_text !== undefined ? m.score_text : '' }),
        el('td', { class: 'num', text: m.depth !== undefined ? m.depth : '' }),
        el('td', { class: 'exact', text: m.exact ? 'exact' : '' }),
        el('td', { class: 'num', text: count(m.nodes) }),
        el('td', { class: 'pv', text: Array.isArray(m.pv) ? m.pv.join(' ') : '' }),
      ),
    ),
  );
  const total = state.view ? state.view.legal.length : 0;
  $('analysis-progress').textContent = total ? `${analysisRows.size} of ${total} moves searched` : '';
}

function showIteration(it) {
  const parts = [
    `depth ${it.depth}`,
    `score ${it.score_text !== undefined ? it.score_text : it.score}`,
    it.best_move ? `best ${it.best_move}` : null,
    `nodes ${count(it.nodes)}`,
    `${count(it.nps)} nodes/s`,
    it.time_ms !== undefined ? `${count(it.time_ms)} ms` : null,
    Array.isArray(it.pv) && it.pv.length ? `pv ${it.pv.join(' ')}` : null,
  ];
  $('live').textContent = parts.filter(Boolean).join(' · ');
}

export function showResult(result, heading) {
  const box = $('result');
  box.replaceChildren();
  if (!result) return;
  const stats = result.stats || {};
  const line = (pv) => (Array.isArray(pv) && pv.length ? pv.join(' ') : undefined);
  let nodes = stats.nodes !== undefined ? stats.nodes : stats.playouts;
  if (nodes === undefined && Array.isArray(result.moves)) {
    nodes = result.moves.reduce((sum, m) => sum + (Number(m.nodes) || 0), 0);
  }
  const rows = [
    ['best move', result.best_move || 'none'],
    ['score', result.score_text !== undefined && result.score_text !== null ? result.score_text : undefined],
    ['value', typeof result.value === 'number' ? result.value.toFixed(3) : undefined],
    ['proof', result.proof || undefined],
    ['depth', result.depth],
    ['pv', line(result.pv)],
    [stats.playouts !== undefined ? 'playouts' : 'nodes', nodes !== undefined ? count(nodes) : undefined],
    ['time', stats.time_ms !== undefined ? `${count(stats.time_ms)} ms` : undefined],
    ['nodes/s', stats.nodes_per_second !== undefined ? count(stats.nodes_per_second) : undefined],
    ['playouts/s', stats.playouts_per_second !== undefined ? count(stats.playouts_per_second) : undefined],
    ['tree size', stats.tree_size !== undefined ? count(stats.tree_size) : undefined],
  ];
  if (result.exhausted) rows.push(['exact', 'game tree exhausted']);
  if (result.interrupted) rows.push(['stopped', 'interrupted by a limit']);
  if (result.stopped) rows.push(['stopped', 'stopped before every move was searched']);
  const dl = el('dl', {});
  for (const [k, v] of rows) {
    if (v === undefined || v === null) continue;
    dl.append(el('dt', { text: k }), el('dd', { text: v }));
  }
  const how = [...new Set([result.engine, result.algorithm].filter(Boolean))].join(' ');
  box.append(el('h3', { text: how ? `${heading} (${how})` : heading }), dl);
}

export async function analyse() {
  if (!state.view || gameOver() || state.engineBusy) return;
  clearError();
  clearAnalysis();
  const epoch = state.epoch;
  $('live').textContent = 'starting…';
  renderAnalysis(null);
  let iterations = false;
  try {
    const result = await runSearch(true, {
      iteration: (it) => {
        if (epoch !== state.epoch) return;
        iterations = true;
        showIteration(it);
      },
      move: (m) => {
        if (epoch !== state.epoch) return;
        analysisRows.set(m.move, m);
        renderAnalysis(null);
        if (!iterations) {
          // No iteration events in this analysis: the live line follows the moves.
          const total = state.view ? state.view.legal.length : 0;
          $('live').textContent =
            `${analysisRows.size} of ${total} moves · last ${m.move} ${m.score_text}` +
            (m.depth !== undefined ? ` at depth ${m.depth}` : '') +
            (m.nodes !== undefined ? ` · nodes ${count(m.nodes)}` : '');
        }
      },
    });
    if (epoch !== state.epoch) return;
    renderAnalysis(result.best_move);
    showResult(result, 'Analysis');
    if ($('live').textContent === 'starting…') $('live').textContent = '';
  } catch (e) {
    if (epoch === state.epoch) {
      if ($('live').textContent === 'starting…') $('live').textContent = '';
      showError(e);
    }
  }
}
