// prune serve: the browser side. Plain JavaScript modules, no framework, no build step.
//
// The page holds the current position (a View from the server) and a history of earlier
// ones for undo; the server does all the game logic: it parses positions, lists the legal
// moves, plays them and runs the searches, whose progress arrives as Server-Sent Events.
// This module starts the page: it binds the controls and loads the first position; the
// others hold one part each (util, state, board, play, search, analysis, tree, controls).

import { $, api, el, showError, clearError } from './util.js';
import { state, game } from './state.js';
import { render } from './board.js';
import {
  playHuman,
  onBoardClick,
  onBoardHover,
  engineMove,
  newGame,
  setPosition,
  undo,
  changeGame,
  changeHumanSide,
} from './play.js';
import { stopSearch } from './search.js';
import { analyse } from './analysis.js';
import { showTree, onTreeClick } from './tree.js';
import {
  updateGameHelp,
  updateEngineChoices,
  applyOptions,
  updatePresetSummary,
} from './controls.js';

function bind() {
  $('game').addEventListener('change', changeGame);
  $('board').addEventListener('click', onBoardClick);
  $('board').addEventListener('mouseover', onBoardHover);
  $('board').addEventListener('mouseleave', onBoardHover);
  $('pass').addEventListener('click', () => playHuman('pass'));
  $('new-game').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('engine-move').addEventListener('click', () => {
    clearError();
    state.autoplay = true;
    engineMove();
  });
  $('human-side').addEventListener('change', changeHumanSide);
  $('set-position').addEventListener('click', setPosition);
  $('position-input').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') setPosition();
  });
  $('analyse').addEventListener('click', analyse);
  $('stop').addEventListener('click', stopSearch);
  $('show-tree').addEventListener('click', showTree);
  $('tree').addEventListener('click', onTreeClick);
  $('tree-fit').addEventListener('change', () => $('tree').classList.toggle('fit', $('tree-fit').checked));
  $('engine').addEventListener('change', updateEngineChoices);
  $('preset').addEventListener('change', updatePresetSummary);
  $('error-close').addEventListener('click', clearError);
}

async function init() {
  bind();
  render();
  try {
    const [games, options] = await Promise.all([api('GET', '/api/games'), api('GET', '/api/options')]);
    const list = games.games || [];
    for (const g of list) state.games[g.name] = g;
    // Keep the select to the games the server knows, in its order.
    if (list.length) {
      const current = game();
      const sel = $('game');
      const labels = { othello: 'Othello', connect4: 'Connect Four', tictactoe: 'Tic-tac-toe', shogi: 'Shogi' };
      sel.replaceChildren(...list.map((g) => el('option', { value: g.name, text: labels[g.name] || g.name })));
      if (list.some((g) => g.name === current)) sel.value = current;
    }
    applyOptions(options);
  } catch (e) {
    showError(e);
  }
  updateGameHelp();
  updateEngineChoices();
  await newGame();
}

// Leaving the page stops a running search on the server.
window.addEventListener('pagehide', () => {
  const s = state.search;
  if (s && s.id !== null && navigator.sendBeacon) {
    navigator.sendBeacon(`/api/search/${encodeURIComponent(s.id)}/stop`);
  }
});

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
