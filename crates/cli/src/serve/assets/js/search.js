// Searches: the controls as a request, a search started on the server and followed by its
// Server-Sent Events, stopped or cancelled.

import { $, Cancelled, api, sleep, showError } from './util.js';
import { state } from './state.js';
import { updateButtons } from './board.js';

function numberField(id) {
  const v = $(id).value.trim();
  if (v === '') return undefined;
  const n = Number(v);
  return isFinite(n) ? n : undefined;
}

/** The search controls as the API's config object; only what is set. */
export function configFromControls({ forTree = false } = {}) {
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
export function runSearch(analyze, handlers) {
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

export function cancelSearch() {
  if (state.search) state.search.cancel();
}

export function stopSearch() {
  const search = state.search;
  if (!search || search.id === null) {
    if (search) search.cancel();
    return;
  }
  // Ask the server to stop; the search still ends with `done` (the best found so far).
  $('stop').disabled = true;
  api('POST', `/api/search/${encodeURIComponent(search.id)}/stop`).catch(showError);
}
