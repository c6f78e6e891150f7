// The controls filled from the server's lists: games, evaluations, engines, algorithms,
// presets.

import { $, el } from './util.js';
import { state, game } from './state.js';

/** The evaluation select lists the game's evaluations (the registry's names). */
function updateEvalChoices() {
  const info = state.games[game()];
  const evals = info && info.evals ? info.evals : [];
  const sel = $('eval');
  const current = sel.value;
  sel.replaceChildren(el('option', { value: '', text: '(default)' }), ...evals.map((e) => el('option', { value: e, text: e })));
  if (evals.includes(current)) sel.value = current;
  sel.closest('label').style.display = evals.length < 2 ? 'none' : '';
}

export function updateGameHelp() {
  updateEvalChoices();
  const info = state.games[game()];
  const help = info && info.position_help ? info.position_help : '';
  $('position-help').textContent = help;
  $('position-input').placeholder = help ? help.split('\n')[0].slice(0, 120) : 'paste a position';
}

/** "fast" (the game's own engine) exists for the games that have one (Othello, shogi); the
 * mcts and alpha-beta fields show by engine. */
export function updateEngineChoices() {
  const sel = $('engine');
  const info = state.games[game()];
  for (const opt of sel.options) {
    if (opt.value === 'fast') opt.disabled = !(info && info.native_engine);
  }
  if (sel.selectedOptions[0] && sel.selectedOptions[0].disabled) sel.value = '';
  const mcts = sel.value === 'mcts';
  document.body.classList.toggle('engine-mcts', mcts);
  document.body.classList.toggle('game-othello', game() === 'othello');
}

function fillSelect(id, items, describe) {
  const sel = $(id);
  for (const item of items) {
    const name = typeof item === 'string' ? item : item.name;
    const opt = el('option', { value: name, text: name });
    if (describe && typeof item === 'object' && item.summary) opt.title = item.summary;
    sel.append(opt);
  }
}

export function applyOptions(options) {
  state.options = options;
  fillSelect('engine', options.engines || []);
  fillSelect('algorithm', options.algorithms || []);
  fillSelect('preset', options.presets || [], true);
  const limits = options.limits || {};
  const setMax = (id, v) => {
    if (typeof v === 'number' && isFinite(v)) $(id).max = String(v);
  };
  setMax('depth', limits.max_depth);
  setMax('time-ms', limits.max_time_ms);
  setMax('tt-mb', limits.max_tt_mb);
  setMax('threads', limits.max_threads);
  updateEngineChoices();
}

export function updatePresetSummary() {
  const name = $('preset').value;
  const presets = (state.options && state.options.presets) || [];
  const p = presets.find((x) => x.name === name);
  $('preset-summary').textContent = p && p.summary ? `${p.name}: ${p.summary}` : '';
}
