// The board: discs and marks (Othello, Connect Four, tic-tac-toe), labelled pieces and the
// hands (shogi); the status line and the buttons; making a position the current one.

import { $, el } from './util.js';
import { state, isHuman, gameOver, sideName } from './state.js';
import { playHuman } from './play.js';

export function legalAt(row, col) {
  if (!state.view) return null;
  const g = state.view.game;
  for (const m of state.view.legal) {
    if (m.row === null || m.row === undefined) continue;
    if (m.col === col && (m.row === row || g === 'connect4')) return m;
  }
  return null;
}

function onlyPass() {
  const legal = state.view ? state.view.legal : [];
  return legal.length > 0 && legal.every((m) => m.move === 'pass');
}

function renderBoard() {
  const view = state.view;
  const board = $('board');
  board.replaceChildren();
  if (!view) return;
  const g = view.game;
  board.className = `board ${g}`;
  board.style.setProperty('--cols', view.width);
  board.style.setProperty('--rows', view.height);
  board.classList.toggle('over', gameOver());
  const humanTurn = !gameOver() && isHuman(view.to_move) && !state.engineBusy;
  board.classList.toggle('playable', humanTurn);

  renderHands(view, humanTurn);
  if (view.style === 'pieces') {
    renderPieces(view, board);
    return;
  }
  const landing = new Map();
  for (const m of view.legal) {
    if (m.row !== null && m.row !== undefined) landing.set(`${m.row},${m.col}`, m);
  }

  for (let r = 0; r < view.height; r++) {
    const line = view.cells[r] || '';
    for (let c = 0; c < view.width; c++) {
      const ch = line[c] || '-';
      const m = landing.get(`${r},${c}`);
      const cell = el('div', {
        class: 'cell',
        role: 'gridcell',
        'data-row': r,
        'data-col': c,
        'data-move': m ? m.move : null,
        title: m ? m.move : null,
      });
      if (m) cell.classList.add('legal');
      if (state.lastMove && state.lastMove.row === r && state.lastMove.col === c) {
        cell.classList.add('last');
      }
      if (ch === 'X' || ch === 'O') {
        cell.classList.add(ch === 'X' ? 'x' : 'o');
        if (g === 'tictactoe') {
          cell.append(el('span', { class: 'mark', text: ch }));
        } else {
          cell.append(el('span', { class: `disc ${ch === 'X' ? 'x' : 'o'}` }));
        }
      } else if (g === 'connect4') {
        cell.append(el('span', { class: 'disc empty' }));
      }
      if (g === 'othello' && r === 0) cell.append(el('span', { class: 'coord col', text: 'abcdefgh'[c] }));
      if (g === 'othello' && c === 0) cell.append(el('span', { class: 'coord row', text: r + 1 }));
      board.append(cell);
    }
  }
  board.setAttribute('data-to-move', view.to_move || '');
}

/** The moves of the piece picked up (shogi), or none. */
function pickedMoves(view) {
  const p = state.picked;
  if (!p) return [];
  return view.legal.filter((m) =>
    p.drop ? m.drop === p.drop : m.from && m.from[0] === p.from[0] && m.from[1] === p.from[1],
  );
}

/** Shogi: labelled pieces (the second player's upside down); the picked piece's targets lit. */
function renderPieces(view, board) {
  const targets = new Set(pickedMoves(view).map((m) => `${m.row},${m.col}`));
  const movable = new Set(view.legal.filter((m) => m.from).map((m) => `${m.from[0]},${m.from[1]}`));
  for (let r = 0; r < view.height; r++) {
    const line = view.cells[r] || '';
    for (let c = 0; c < view.width; c++) {
      const ch = line[c] || '-';
      const label = view.labels && view.labels[r] ? view.labels[r][c] : null;
      const cell = el('div', { class: 'cell', role: 'gridcell', 'data-row': r, 'data-col': c });
      if (targets.has(`${r},${c}`)) cell.classList.add('legal');
      if (movable.has(`${r},${c}`)) cell.classList.add('movable');
      const p = state.picked;
      if (p && p.from && p.from[0] === r && p.from[1] === c) cell.classList.add('picked');
      if (state.lastMove && state.lastMove.row === r && state.lastMove.col === c) cell.classList.add('last');
      if ((ch === 'X' || ch === 'O') && label) {
        cell.classList.add(ch === 'X' ? 'x' : 'o');
        cell.append(
          el('span', {
            class: `piece ${ch === 'X' ? 'x' : 'o'}${label.startsWith('+') ? ' promoted' : ''}`,
            text: label,
            title: label,
          }),
        );
      }
      if (r === 0) cell.append(el('span', { class: 'coord col', text: view.files[c] }));
      if (c === view.width - 1) cell.append(el('span', { class: 'coord row', text: view.ranks[r] }));
      board.append(cell);
    }
  }
  board.setAttribute('data-to-move', view.to_move || '');
}

/** The hands (shogi): the second player's above the board, the first player's below. */
function renderHands(view, humanTurn) {
  for (const side of ['X', 'O']) {
    const box = $(`hand-${side}`);
    box.replaceChildren();
    const hand = (view.hands || []).find((h) => h.owner === side);
    box.hidden = !hand;
    if (!hand) continue;
    box.append(el('span', { class: 'hand-owner', text: side === 'X' ? '☗ in hand:' : '☖ in hand:' }));
    if (hand.pieces.length === 0) box.append(el('span', { class: 'muted', text: ' none' }));
    for (const [label, n] of hand.pieces) {
      const canDrop = humanTurn && view.to_move === side && view.legal.some((m) => m.drop === label);
      const b = el('button', {
        type: 'button',
        class: 'hand-piece',
        'data-drop': label,
        text: `${label}${n > 1 ? ' ×' + n : ''}`,
        title: `${label} ×${n}`,
      });
      b.disabled = !canDrop;
      if (state.picked && state.picked.drop === label && view.to_move === side) b.classList.add('picked');
      b.addEventListener('click', () => {
        state.picked = state.picked && state.picked.drop === label ? null : { drop: label };
        hidePromotion();
        renderBoard();
      });
      box.append(b);
    }
  }
}

function hidePromotion() {
  $('promotion').hidden = true;
  $('promotion').replaceChildren();
}

/** Shogi: pick a piece up, put it down; a move that may promote asks. */
export function onShogiClick(r, c) {
  const view = state.view;
  const moves = pickedMoves(view).filter((m) => m.row === r && m.col === c);
  if (moves.length === 1) {
    state.picked = null;
    playHuman(moves[0].move);
    return;
  }
  if (moves.length === 2) {
    const box = $('promotion');
    box.replaceChildren(el('span', { text: 'Promote? ' }));
    for (const m of moves.sort((a, b) => Number(b.promotes) - Number(a.promotes))) {
      const b = el('button', { type: 'button', 'data-move': m.move, text: m.promotes ? `promote (${m.move})` : `do not promote (${m.move})` });
      b.addEventListener('click', () => {
        hidePromotion();
        state.picked = null;
        playHuman(m.move);
      });
      box.append(b);
    }
    box.hidden = false;
    return;
  }
  hidePromotion();
  const own = view.legal.some((m) => m.from && m.from[0] === r && m.from[1] === c);
  const same = state.picked && state.picked.from && state.picked.from[0] === r && state.picked.from[1] === c;
  state.picked = own && !same ? { from: [r, c] } : null;
  renderBoard();
}

export function updateStatus() {
  const view = state.view;
  let text;
  if (!view) text = 'loading';
  else if (view.outcome) text = view.outcome.text;
  else if (state.engineBusy) text = 'engine thinking';
  else if (isHuman(view.to_move)) text = 'your move';
  else if (!state.autoplay) text = 'engine paused: press Engine move';
  else text = 'engine to move';
  $('status').textContent = text;
  $('status').classList.toggle('outcome', !!(view && view.outcome));
  $('turn').textContent = view && !view.outcome ? `${sideName(view.to_move)} to move` : '';
  $('turn').dataset.side = view ? view.to_move || '' : '';
  updateButtons();
}

export function updateButtons() {
  const view = state.view;
  const searching = !!state.search;
  const humanTurn = view && !gameOver() && isHuman(view.to_move) && !state.engineBusy;
  $('pass').hidden = !(view && !gameOver() && onlyPass());
  $('pass').disabled = !humanTurn || state.busy;
  $('undo').disabled = state.history.length === 0;
  $('engine-move').disabled = !view || gameOver() || state.engineBusy;
  $('analyse').disabled = !view || gameOver() || state.engineBusy;
  $('stop').disabled = !searching;
  $('show-tree').disabled = !view || gameOver();
}

export function render() {
  const view = state.view;
  renderBoard();
  $('position-text').textContent = view ? view.position || '(the start: no moves)' : '';
  $('moves-played').textContent = view ? `(${view.moves_played} moves played)` : '';
  updateStatus();
}

/** Makes `view` the current position; `push` keeps the old one for undo. */
export function setView(view, { push = false, lastMove = null } = {}) {
  if (push && state.view) state.history.push({ view: state.view, lastMove: state.lastMove });
  state.picked = null;
  hidePromotion();
  state.view = view;
  state.lastMove = lastMove;
  render();
}

export function moveCell(view, name) {
  const m = view.legal.find((x) => x.move === name);
  return m && m.row !== null && m.row !== undefined ? { row: m.row, col: m.col } : null;
}
