// prune serve: the browser side. Plain JavaScript, no framework, no build step.
//
// The page holds the current position (a View from the server) and a history of earlier
// ones for undo; the server does all the game logic: it parses positions, lists the legal
// moves, plays them and runs the searches, whose progress arrives as Server-Sent Events.
'use strict';

(function () {
  // ---------------------------------------------------------------- helpers

  const $ = (id) => document.getElementById(id);

  /** An error that was not the server's: a search we cancelled ourselves. */
  class Cancelled extends Error {
    constructor() {
      super('cancelled');
      this.name = 'Cancelled';
    }
  }

  /** Calls the API; resolves with the JSON body, rejects with the server's error message. */
  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new Error(`${method} ${path}: the server cannot be reached (${e.message})`);
    }
    const text = await res.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (_) {
        data = null;
      }
    }
    if (!res.ok) {
      const message = data && typeof data.error === 'string' ? data.error : text.trim() || res.statusText;
      const error = new Error(`${message} (${res.status})`);
      error.status = res.status;
      throw error;
    }
    if (data === null) {
      throw new Error(`${method} ${path}: the answer is not JSON`);
    }
    return data;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  const fmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  function count(n) {
    return typeof n === 'number' && isFinite(n) ? fmt.format(n) : '-';
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  function showError(e) {
    if (e instanceof Cancelled) return;
    const message = e && e.message ? e.message : String(e);
    $('error-text').textContent = message;
    $('error').hidden = false;
    console.error(e);
  }

  function clearError() {
    $('error').hidden = true;
    $('error-text').textContent = '';
  }

  // ---------------------------------------------------------------- state

  const state = {
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


  // ---------------------------------------------------------------- the board

  const game = () => $('game').value;
  const humanSide = () => $('human-side').value;

  function isHuman(side) {
    const h = humanSide();
    return h === 'both' || h === side;
  }

  function gameOver() {
    return !!(state.view && state.view.outcome);
  }

  function engineToMove() {
    return state.view && !gameOver() && !isHuman(state.view.to_move);
  }

  function sideName(side) {
    const g = state.view ? state.view.game : game();
    if (g === 'othello') return side === 'X' ? 'black (X)' : 'white (O)';
    if (g === 'connect4') return side === 'X' ? 'red (X)' : 'yellow (O)';
    if (g === 'shogi') return side === 'X' ? 'black (☗ sente)' : 'white (☖ gote)';
    return side;
  }

  function legalAt(row, col) {
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
  function onShogiClick(r, c) {
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

  function updateStatus() {
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

  function updateButtons() {
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

  function render() {
    const view = state.view;
    renderBoard();
    $('position-text').textContent = view ? view.position || '(the start: no moves)' : '';
    $('moves-played').textContent = view ? `(${view.moves_played} moves played)` : '';
    updateStatus();
  }

  /** Makes `view` the current position; `push` keeps the old one for undo. */
  function setView(view, { push = false, lastMove = null } = {}) {
    if (push && state.view) state.history.push({ view: state.view, lastMove: state.lastMove });
    state.picked = null;
    hidePromotion();
    state.view = view;
    state.lastMove = lastMove;
    render();
  }

  /** The position changed under the page's feet: anything running for the old one stops. */
  function invalidate() {
    state.epoch++;
    cancelSearch();
    state.engineBusy = false;
    clearAnalysis();
  }

  function moveCell(view, name) {
    const m = view.legal.find((x) => x.move === name);
    return m && m.row !== null && m.row !== undefined ? { row: m.row, col: m.col } : null;
  }

  // ---------------------------------------------------------------- playing

  async function playHuman(moveName) {
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

  function onBoardClick(ev) {
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
  function onBoardHover(ev) {
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

  async function engineMove() {
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

  async function newGame() {
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

  async function setPosition() {
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

  function undo() {
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

  async function changeGame() {
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

  function changeHumanSide() {
    if (state.engineBusy) {
      state.epoch++;
      cancelSearch();
      state.engineBusy = false;
    }
    state.autoplay = true;
    render();
    maybeEngine();
  }

  // ---------------------------------------------------------------- search

  function numberField(id) {
    const v = $(id).value.trim();
    if (v === '') return undefined;
    const n = Number(v);
    return isFinite(n) ? n : undefined;
  }

  /** The search controls as the API's config object; only what is set. */
  function configFromControls({ forTree = false } = {}) {
    const config = {};
    const engine = $('engine').value;
    const put = (k, v) => {
      if (v !== undefined && v !== '' && v !== false) config[k] = v;
    };
    if (engine === 'mcts' && !forTree) {
      put('playouts', numberField('playouts'));
      put('exploration', numberField('exploration'));
      return config;
    }
    put('preset', $('preset').value);
    put('algorithm', $('algorithm').value);
    put('iterative', $('iterative').checked);
    put('aspiration', numberField('aspiration'));
    put('tt_mb', numberField('tt-mb'));
    put('static_ordering', $('static-ordering').checked);
    put('killers', numberField('killers'));
    put('killer_index', $('killer-index').value);
    put('staged_killers', $('staged-killers').checked);
    put('history', $('history').checked);
    put('refutation', $('refutation').checked);
    return config;
  }

  function searchRequest(analyze) {
    const view = state.view;
    const body = { game: view.game, position: view.position, analyze };
    const engine = $('engine').value;
    if (engine) body.engine = engine;
    const evaluation = $('eval').value;
    if (evaluation) body.eval = evaluation;
    const config = configFromControls();
    if (Object.keys(config).length) body.config = config;
    const limits = {};
    const depth = numberField('depth');
    const time = numberField('time-ms');
    if (depth !== undefined) limits.depth = depth;
    if (time !== undefined) limits.time_ms = time;
    if (Object.keys(limits).length) body.limits = limits;
    const threads = numberField('threads');
    if (threads !== undefined) body.threads = threads;
    return body;
  }

  /**
   * Starts a search with the current controls and follows its events; resolves with the
   * `done` result. `handlers.iteration` and `handlers.move` see the live events.
   */
  function runSearch(analyze, handlers) {
    cancelSearch();
    const body = searchRequest(analyze);
    return new Promise((resolve, reject) => {
      const search = { id: null, es: null, analyze, finished: false };
      state.search = search;
      const finish = (ok, value) => {
        if (search.finished) return;
        search.finished = true;
        if (search.es) search.es.close();
        if (state.search === search) state.search = null;
        updateButtons();
        ok ? resolve(value) : reject(value);
      };
      search.cancel = () => {
        if (search.id !== null && !search.finished) {
          api('POST', `/api/search/${encodeURIComponent(search.id)}/stop`).catch(() => {});
        }
        finish(false, new Cancelled());
      };
      updateButtons();

      // A search we just stopped may hold its slot for a moment: retry a refusal (429).
      const start = async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await api('POST', '/api/search', body);
          } catch (e) {
            if (e.status !== 429 || attempt >= 8 || search.finished) throw e;
            await sleep(250);
          }
        }
      };
      start()
        .then((started) => {
          if (search.finished) {
            // Cancelled while the request was on its way: stop it on the server too.
            api('POST', `/api/search/${encodeURIComponent(started.id)}/stop`).catch(() => {});
            return;
          }
          search.id = String(started.id);
          const es = new EventSource(`/api/search/${encodeURIComponent(search.id)}/events`);
          search.es = es;
          const onData = (ev) => {
            if (search.finished || typeof ev.data !== 'string' || ev.data === '') return;
            let msg;
            try {
              msg = JSON.parse(ev.data);
            } catch (_) {
              finish(false, new Error(`search ${search.id}: an event is not JSON: ${ev.data.slice(0, 200)}`));
              return;
            }
            const type = msg.type || ev.type;
            if (type === 'iteration') handlers.iteration && handlers.iteration(msg);
            else if (type === 'move') handlers.move && handlers.move(msg);
            else if (type === 'done') finish(true, msg.result || msg);
            else if (type === 'error') finish(false, new Error(msg.error || 'the search failed'));
          };
          es.onmessage = onData;
          // Also accept named events (`event: done`), whichever the server sends.
          for (const name of ['iteration', 'move', 'done']) es.addEventListener(name, onData);
          es.addEventListener('error', (ev) => {
            if (typeof ev.data === 'string' && ev.data !== '') {
              onData(ev);
              return;
            }
            // The connection broke (or the stream ended) before `done`: the browser would
            // reconnect on its own, so close it and say so.
            finish(false, new Error(`search ${search.id}: the event stream ended before the result`));
          });
        })
        .catch((e) => finish(false, e));
    });
  }

  function cancelSearch() {
    if (state.search) state.search.cancel();
  }

  function stopSearch() {
    const search = state.search;
    if (!search || search.id === null) {
      if (search) search.cancel();
      return;
    }
    // Ask the server to stop; the search still ends with `done` (the best found so far).
    $('stop').disabled = true;
    api('POST', `/api/search/${encodeURIComponent(search.id)}/stop`).catch(showError);
  }

  // ---------------------------------------------------------------- analysis

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

  function clearAnalysis() {
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

  function showResult(result, heading) {
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

  async function analyse() {
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

  // ---------------------------------------------------------------- the tree

  function clearTree() {
    $('tree').replaceChildren();
    $('tree-info').textContent = '';
    $('tree-details').hidden = true;
    $('tree-details').textContent = '';
  }

  async function showTree() {
    if (!state.view) return;
    clearError();
    const depth = Number($('tree-depth').value) || 3;
    const body = {
      game: state.view.game,
      position: state.view.position,
      config: configFromControls({ forTree: true }),
      depth,
    };
    const evaluation = $('eval').value;
    if (evaluation) body.eval = evaluation;
    const button = $('show-tree');
    button.disabled = true;
    $('tree-info').textContent = 'drawing…';
    try {
      const res = await api('POST', '/api/tree', body);
      const tree = $('tree');
      tree.innerHTML = res.svg || '';
      // The root sits at the top in the middle: start the scroll there.
      tree.scrollLeft = Math.max(0, (tree.scrollWidth - tree.clientWidth) / 2);
      tree.scrollTop = 0;
      const info = [res.nodes !== undefined ? `${count(res.nodes)} nodes` : null, res.summary || null];
      $('tree-info').textContent = info.filter(Boolean).join(' · ');
      $('tree-details').hidden = true;
    } catch (e) {
      $('tree-info').textContent = '';
      showError(e);
    } finally {
      updateButtons();
    }
  }

  /** Clicking a node (anything with a <title> child, or inside one) shows its details. */
  function onTreeClick(ev) {
    let node = ev.target;
    const root = $('tree');
    while (node && node !== root) {
      const title = [...(node.children || [])].find((c) => c.tagName && c.tagName.toLowerCase() === 'title');
      if (title) {
        for (const s of root.querySelectorAll('.selected')) s.classList.remove('selected');
        node.classList.add('selected');
        $('tree-details').textContent = title.textContent;
        $('tree-details').hidden = false;
        return;
      }
      node = node.parentNode;
    }
  }

  // ---------------------------------------------------------------- controls

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

  function updateGameHelp() {
    updateEvalChoices();
    const info = state.games[game()];
    const help = info && info.position_help ? info.position_help : '';
    $('position-help').textContent = help;
    $('position-input').placeholder = help ? help.split('\n')[0].slice(0, 120) : 'paste a position';
  }

  /** "fast" (the game's own engine) exists for the games that have one (Othello, shogi); the
   * mcts and alpha-beta fields show by engine. */
  function updateEngineChoices() {
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

  function applyOptions(options) {
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

  function updatePresetSummary() {
    const name = $('preset').value;
    const presets = (state.options && state.options.presets) || [];
    const p = presets.find((x) => x.name === name);
    $('preset-summary').textContent = p && p.summary ? `${p.name}: ${p.summary}` : '';
  }

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
})();
