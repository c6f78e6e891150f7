// The page's helpers: calls to the server's API, building elements, numbers as text, the
// error banner.

export const $ = (id) => document.getElementById(id);

/** An error that was not the server's: a search we cancelled ourselves. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/** Calls the API; resolves with the JSON body, rejects with the server's error message. */
export async function api(method, path, body) {
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

export function el(tag, attrs, ...children) {
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
export function count(n) {
  return typeof n === 'number' && isFinite(n) ? fmt.format(n) : '-';
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function showError(e) {
  if (e instanceof Cancelled) return;
  const message = e && e.message ? e.message : String(e);
  $('error-text').textContent = message;
  $('error').hidden = false;
  console.error(e);
}

export function clearError() {
  $('error').hidden = true;
  $('error-text').textContent = '';
}
