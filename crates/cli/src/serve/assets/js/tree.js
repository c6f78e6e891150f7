// The search tree, drawn by the server as SVG; a click on a node shows its details.

import { $, api, count, showError, clearError } from './util.js';
import { state } from './state.js';
import { updateButtons } from './board.js';
import { configFromControls } from './search.js';

export function clearTree() {
  $('tree').replaceChildren();
  $('tree-info').textContent = '';
  $('tree-details').hidden = true;
  $('tree-details').textContent = '';
}

export async function showTree() {
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
export function onTreeClick(ev) {
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
