// The page's state (the current position, the earlier ones for undo, the running search)
// and the questions asked of it: whose move, whether the game is over.

import { $ } from './util.js';

export const state = {
  games: {}, // name -> {name, position_help}
  options: null, // GET /api/options
  view: null, // the current View
  lastMove: null, // {row, col} of the move that led to the view, if known
  history: [], // earlier {view, lastMove}, for undo
  epoch: 0, // bumped whenever the position changes under a running engine search
  search: null, // the running search: {id, es, analyze, cancel}
  engineBusy: false, // the engine is choosing (or playing) a move
  autoplay: true, // engine vs engine keeps playing
  busy: false, // a human move is being sent
  picked: null, // shogi: the piece picked up, {from: [row, col]} or {drop: 'P'}
};

export const game = () => $('game').value;
export const humanSide = () => $('human-side').value;

export function isHuman(side) {
  const h = humanSide();
  return h === 'both' || h === side;
}

export function gameOver() {
  return !!(state.view && state.view.outcome);
}

export function engineToMove() {
  return state.view && !gameOver() && !isHuman(state.view.to_move);
}

export function sideName(side) {
  const g = state.view ? state.view.game : game();
  if (g === 'othello') return side === 'X' ? 'black (X)' : 'white (O)';
  if (g === 'connect4') return side === 'X' ? 'red (X)' : 'yellow (O)';
  if (g === 'shogi') return side === 'X' ? 'black (☗ sente)' : 'white (☖ gote)';
  return side;
}
