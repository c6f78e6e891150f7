// Playing: the human's moves, the engine's (engine against engine too), a new game, a
// position typed in, undo, the game or the sides changed.

import { $, api, sleep, showError, clearError } from './util.js';
import { state, game, humanSide, isHuman, gameOver, engineToMove, sideName } from './state.js';
import {
  legalAt,
  onShogiClick,
  updateStatus,
  updateButtons,
  render,
  setView,
  moveCell,
} from './board.js';
import { runSearch, cancelSearch } from './search.js';
import { clearAnalysis, showResult } from './analysis.js';
import { clearTree } from './tree.js';
import { updateGameHelp, updateEngineChoices } from './controls.js';

/** The position changed under the page's feet: anything running for the old one stops. */
function invalidate() {
  state.epoch++;
  cancelSearch();
  state.engineBusy = false;
  clearAnalysis();
}

export async function playHuman(moveName) {
  if (state.busy || state.engineBusy || !state.view || gameOver()) return;
  if (!isHuman(state.view.to_move)) return;
  clearError();
  const before = state.view;
  state.busy = true;
  updateButtons();
  invalidate();
  try {
    const view = await api('POST', '/api/play', { game: before.game, position: before.position, move: moveName });
    state.autoplay = true;
    setView(view, { push: true, lastMove: moveCell(before, moveName) });
  } catch (e) {
    showError(e);
  } finally {
    state.busy = false;
    updateStatus();
  }
  maybeEngine();
}

export function onBoardClick(ev) {
  const cell = ev.target.closest('.cell');
  if (!cell || !$('board').contains(cell)) return;
  const r = Number(cell.dataset.row);
  const c = Number(cell.dataset.col);
  if (state.view && state.view.style === 'pieces') {
    if (!gameOver() && isHuman(state.view.to_move) && !state.engineBusy && !state.busy) onShogiClick(r, c);
    return;
  }
  const m = legalAt(r, c);
  if (m) playHuman(m.move);
}

// Connect Four: light up the whole column under the pointer when it can be played.
export function onBoardHover(ev) {
  if (!state.view || state.view.game !== 'connect4') return;
  const cell = ev.target.closest('.cell');
  const col = cell ? cell.dataset.col : null;
  const playable = col !== null && legalAt(-1, Number(col)) !== null;
  for (const c of $('board').children) {
    c.classList.toggle('col-hover', playable && c.dataset.col === col);
  }
}

/** Starts the engine if it is its turn (and engine vs engine has not been paused). */
function maybeEngine() {
  if (engineToMove() && state.autoplay && !state.engineBusy && !state.busy) engineMove();
}

export async function engineMove() {
  if (!state.view || gameOver() || state.engineBusy) return;
  cancelSearch();
  clearAnalysis();
  const epoch = state.epoch;
  const before = state.view;
  state.engineBusy = true;
  render();
  try {
    const result = await runSearch(false, {});
    if (epoch !== state.epoch) return;
    if (!result || !result.best_move) throw new Error('the engine returned no move');
    const view = await api('POST', '/api/play', {
      game: before.game,
      position: before.position,
      move: result.best_move,
    });
    if (epoch !== state.epoch) return;
    state.engineBusy = false;
    setView(view, { push: true, lastMove: moveCell(before, result.best_move) });
    showResult(result, `The engine's move for ${sideName(before.to_move)}`);
  } catch (e) {
    if (epoch === state.epoch) {
      state.autoplay = false;
      showError(e);
    }
  } finally {
    if (epoch === state.epoch) {
      state.engineBusy = false;
      render();
    }
  }
  if (epoch === state.epoch && engineToMove() && state.autoplay) {
    // Engine against engine: a short pause so the moves can be followed.
    await sleep(300);
    if (epoch === state.epoch) maybeEngine();
  }
}

async function loadPosition(text) {
  const body = { game: game() };
  if (text !== undefined && text !== null && text.trim() !== '') body.position = text.trim();
  return api('POST', '/api/position', body);
}

export async function newGame() {
  clearError();
  invalidate();
  clearTree();
  try {
    const view = await loadPosition('');
    state.history = [];
    state.autoplay = true;
    setView(view);
  } catch (e) {
    showError(e);
  }
  maybeEngine();
}

export async function setPosition() {
  clearError();
  const text = $('position-input').value;
  if (!text.trim()) {
    showError(new Error('type or paste a position first'));
    return;
  }
  try {
    const view = await loadPosition(text);
    invalidate();
    clearTree();
    state.autoplay = true;
    setView(view, { push: true });
  } catch (e) {
    showError(e);
    return;
  }
  maybeEngine();
}

export function undo() {
  if (state.history.length === 0) return;
  clearError();
  invalidate();
  // Back to the last position where a human is to move (or the first one kept); with
  // the engine on both sides, one move back.
  const humanCanMove = (v) => !v.outcome && isHuman(v.to_move);
  let entry = state.history.pop();
  if (humanSide() !== 'none') {
    while (state.history.length > 0 && !humanCanMove(entry.view)) entry = state.history.pop();
  }
  state.view = entry.view;
  state.lastMove = entry.lastMove;
  // Engine against engine stops at an undone position until Engine move is pressed.
  state.autoplay = humanSide() !== 'none';
  render();
  maybeEngine();
}

export async function changeGame() {
  clearError();
  invalidate();
  clearTree();
  state.view = null;
  state.history = [];
  $('position-input').value = '';
  updateGameHelp();
  updateEngineChoices();
  render();
  await newGame();
}

export function changeHumanSide() {
  if (state.engineBusy) {
    state.epoch++;
    cancelSearch();
    state.engineBusy = false;
  }
  state.autoplay = true;
  render();
  maybeEngine();
}
