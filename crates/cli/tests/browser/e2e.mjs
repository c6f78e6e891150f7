// End-to-end test of `prune serve`'s page in headless Chromium.
//
//   PRUNE_URL=http://127.0.0.1:18731/ SCREENSHOT_DIR=/tmp node crates/cli/tests/browser/e2e.mjs
//
// Needs `playwright-core` (found from this file's folder up, or in $PLAYWRIGHT_DIR, by
// default /tmp/pw, where `npm install playwright-core` put it) and Chromium at
// $CHROMIUM (default /usr/bin/chromium); no browser is downloaded.
//
// Steps: load the page; play tic-tac-toe as X against the engine to the end; play a shogi
// move by clicks and see the engine answer; analyse the
// Othello start at depth 4 (one scored row per legal move); draw its search tree at depth 2.
// Screenshots page.png, analysis.png and tree.png go to $SCREENSHOT_DIR (default /tmp).
// Exit code 0 on success; 1 with the failing step's message otherwise; 2 past the overall
// time limit.

import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const URL_ = process.env.PRUNE_URL;
const SHOTS = process.env.SCREENSHOT_DIR || '/tmp';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const STEP_MS = 60_000; // the most any one step may take
const TOTAL_MS = 5 * 60_000; // the whole test

if (!URL_) {
  console.error('e2e: FAIL: set PRUNE_URL to the URL `prune serve` printed');
  process.exit(1);
}

async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch (_) {
    const dir = process.env.PLAYWRIGHT_DIR || '/tmp/pw';
    try {
      const require = createRequire(path.join(dir, 'package.json'));
      return require('playwright-core');
    } catch (e) {
      throw new Error(
        `playwright-core not found (from ${path.dirname(new URL(import.meta.url).pathname)} up, ` +
          `nor in ${dir}): run \`npm install playwright-core\` there (${e.message})`,
      );
    }
  }
}

const overall = setTimeout(() => {
  console.error(`e2e: FAIL: the whole test took more than ${TOTAL_MS / 1000} s`);
  process.exit(2);
}, TOTAL_MS);
overall.unref();

let step = 'start';
function log(message) {
  console.log(`e2e: ${message}`);
}

/** Fails the step if the page shows an error message. */
async function noPageError(page) {
  const error = page.locator('#error');
  if (await error.isVisible()) {
    throw new Error(`the page shows an error: ${(await error.innerText()).trim()}`);
  }
}

async function statusText(page) {
  return (await page.locator('#status').innerText()).trim();
}

async function waitForCells(page, n) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('#board [data-row][data-col]').length === n,
    n,
    { timeout: STEP_MS },
  );
}

async function selectGame(page, name, cells) {
  await page.selectOption('#game', name);
  await waitForCells(page, cells);
  await page.waitForFunction(() => /your move/.test(document.querySelector('#status').textContent), null, {
    timeout: STEP_MS,
  });
  await noPageError(page);
}

async function playTicTacToe(page) {
  step = 'tic-tac-toe: choose the game';
  await page.selectOption('#human-side', 'X');
  await selectGame(page, 'tictactoe', 9);
  // Quick engine moves: the whole tree is small; a time limit keeps it bounded anyway.
  await page.fill('#depth', '');
  await page.fill('#time-ms', '500');

  for (let turn = 1; turn <= 9; turn++) {
    step = `tic-tac-toe: turn ${turn}`;
    // Wait until it is our move or the game is over.
    await page.waitForFunction(
      () => {
        const s = document.querySelector('#status').textContent.trim();
        const err = document.querySelector('#error');
        return (err && !err.hidden) || (s !== 'engine thinking' && s !== 'loading' && s !== 'engine to move');
      },
      null,
      { timeout: STEP_MS },
    );
    await noPageError(page);
    const status = await statusText(page);
    if (status !== 'your move') {
      if (!/wins|draw/i.test(status)) throw new Error(`unexpected status '${status}'`);
      log(`tic-tac-toe over after ${turn - 1} moves of ours: ${status}`);
      const legal = await page.locator('#board .cell.legal').count();
      if (legal !== 0) throw new Error(`the game is over but ${legal} cells are marked legal`);
      return status;
    }
    const cell = page.locator('#board .cell.legal').first();
    if ((await cell.count()) === 0) throw new Error("status says 'your move' but no cell is legal");
    const move = await cell.getAttribute('data-move');
    if (!move) throw new Error('a legal cell has no data-move');
    const before = await page.locator('#board .cell.x, #board .cell.o').count();
    await cell.click();
    // Our mark appears (and perhaps the engine's reply).
    await page.waitForFunction(
      (before) => document.querySelectorAll('#board .cell.x, #board .cell.o').length > before,
      before,
      { timeout: STEP_MS },
    );
    log(`tic-tac-toe: played ${move}`);
  }
  throw new Error('tic-tac-toe did not end within 9 turns');
}

/** Shogi on the page: the board from the registry, a piece moved by two clicks, a drop from
 * the hand after a capture, and the engine's replies in shogi's words. */
async function playShogi(page) {
  step = 'shogi: choose the game';
  await page.selectOption('#human-side', 'X');
  await selectGame(page, 'shogi', 81);
  await page.fill('#depth', '');
  await page.fill('#time-ms', '300');
  const pieces = await page.locator('#board .piece').count();
  if (pieces !== 40) throw new Error(`the start shows ${pieces} pieces, not 40`);
  if (!(await page.locator('#hand-X').isVisible())) throw new Error("Black's hand is not shown");

  step = 'shogi: 7g7f by two clicks';
  // 7g: rank g is row 6, file 7 is column 2 (file 9 on the left).
  await page.click('#board .cell[data-row="6"][data-col="2"]');
  const lit = await page.locator('#board .cell.legal').count();
  if (lit !== 1) throw new Error(`the pawn of 7g lights ${lit} cells, not 1 (7f)`);
  await page.click('#board .cell[data-row="5"][data-col="2"]');
  await page.waitForFunction(
    () =>
      /your move|wins/.test(document.querySelector('#status').textContent) &&
      / 3$/.test(document.querySelector('#position-text').textContent.trim()),
    null,
    { timeout: STEP_MS },
  );
  await noPageError(page);
  const sfen = (await page.locator('#position-text').innerText()).trim();
  // Black's pawn on 7f (rank f: 2P6), White's reply made: Black to move at move 3.
  if (!sfen.includes('/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b ') || !sfen.endsWith(' 3')) {
    throw new Error(`after 7g7f and the engine's reply the SFEN is '${sfen}'`);
  }
  const engineLine = (await page.locator('#result').innerText().catch(() => '')).trim();
  log(`shogi: played 7g7f; now ${sfen}${engineLine ? ' · ' + engineLine.split('\n')[0] : ''}`);

  step = 'shogi: a drop from the hand';
  // After 7g7f 3c3d 8h2b+ 3a2b: Black holds the bishop it took.
  await page.fill('#position-input', 'lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5');
  await page.click('#set-position');
  await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 38, null, {
    timeout: STEP_MS,
  });
  await page.click('#hand-X button[data-drop="B"]');
  const drops = await page.locator('#board .cell.legal').count();
  // Every empty square: 81 less the 38 pieces.
  if (drops !== 43) throw new Error(`the bishop in hand lights ${drops} squares, not 43`);
  await page.click('#board .cell[data-row="4"][data-col="4"]');
  await page.waitForFunction(
    () => / b - 7$/.test(document.querySelector('#position-text').textContent.trim()),
    null,
    { timeout: STEP_MS },
  );
  await noPageError(page);
  const after = (await page.locator('#position-text').innerText()).trim();
  if (!after.includes('/4B4/')) throw new Error(`after B*5e the SFEN is '${after}'`);
  log(`shogi: dropped B*5e; now ${after}`);
  await page.screenshot({ path: path.join(SHOTS, 'shogi.png'), fullPage: true });
}

async function analyseOthello(page) {
  step = 'othello: choose the game';
  await selectGame(page, 'othello', 64);
  const legal = await page.locator('#board .cell.legal').count();
  if (legal !== 4) throw new Error(`the Othello start shows ${legal} legal cells, not 4`);

  step = 'othello: analyse at depth 4';
  await page.fill('#depth', '4');
  await page.fill('#time-ms', '');
  await page.click('#analyse');
  await page.waitForFunction(
    (n) => {
      const err = document.querySelector('#error');
      if (err && !err.hidden) return true;
      const rows = [...document.querySelectorAll('#analysis tr[data-move]')];
      return rows.length === n && rows.every((r) => r.querySelector('.score').textContent.trim() !== '');
    },
    legal,
    { timeout: STEP_MS },
  );
  await noPageError(page);
  // Wait for the end of the search (the Stop button goes off, the result shows).
  await page.waitForFunction(() => document.querySelector('#stop').disabled, null, { timeout: STEP_MS });
  await noPageError(page);
  const rows = await page.locator('#analysis tr[data-move]').evaluateAll((trs) =>
    trs.map((tr) => `${tr.dataset.move} ${tr.querySelector('.score').textContent.trim()}`),
  );
  const moves = rows.map((r) => r.split(' ')[0]).sort();
  const expected = ['c4', 'd3', 'e6', 'f5'];
  if (JSON.stringify(moves) !== JSON.stringify(expected)) {
    throw new Error(`analysis rows are ${moves.join(', ')}, expected ${expected.join(', ')}`);
  }
  log(`othello analysis: ${rows.join('; ')}`);
  await page.screenshot({ path: path.join(SHOTS, 'analysis.png'), fullPage: true });
}

/** Proof-number search from the page: tic-tac-toe analysed by df-pn, every first move a
 * proved draw. */
async function proveTicTacToe(page) {
  step = 'tic-tac-toe: analyse by df-pn';
  await selectGame(page, 'tictactoe', 9);
  await page.selectOption('#algorithm', 'dfpn');
  await page.fill('#depth', '');
  await page.fill('#time-ms', '');
  await page.click('#analyse');
  await page.waitForFunction(
    () => {
      const err = document.querySelector('#error');
      if (err && !err.hidden) return true;
      return document.querySelector('#stop').disabled && document.querySelectorAll('#analysis tr[data-move]').length === 9;
    },
    null,
    { timeout: STEP_MS },
  );
  await noPageError(page);
  const rows = await page.locator('#analysis tr[data-move]').evaluateAll((trs) =>
    trs.map((tr) => tr.querySelector('.score').textContent.trim()),
  );
  const scores = [...new Set(rows)];
  if (scores.length !== 1 || scores[0] === '') {
    throw new Error(`every first move of tic-tac-toe draws, but the scores read ${rows.join(', ')}`);
  }
  log(`tic-tac-toe by df-pn: 9 moves, each ${scores[0]}`);
  await page.selectOption('#algorithm', '');
}

async function showTree(page) {
  step = 'othello: show the tree at depth 2';
  await page.fill('#tree-depth', '2');
  await page.click('#show-tree');
  await page.waitForFunction(
    () => {
      const err = document.querySelector('#error');
      return (err && !err.hidden) || document.querySelector('#tree svg') !== null;
    },
    null,
    { timeout: STEP_MS },
  );
  await noPageError(page);
  const titles = await page.locator('#tree svg title').count();
  if (titles === 0) throw new Error('the tree has no <title> on any node');
  // Clicking a node shows its details.
  await page.locator('#tree svg g:has(> title)').first().dispatchEvent('click');
  const details = page.locator('#tree-details');
  if (!(await details.isVisible()) || (await details.innerText()).trim() === '') {
    throw new Error('clicking a tree node shows no details');
  }
  log(`tree: ${titles} titled elements; ${(await page.locator('#tree-info').innerText()).trim()}`);
  await page.locator('#tree').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'tree.png'), fullPage: true });
}

async function main() {
  step = 'load playwright-core';
  const { chromium } = await loadPlaywright();
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set CHROMIUM)`);
  fs.mkdirSync(SHOTS, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'prune-e2e-'));
  step = 'launch Chromium';
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
    timeout: STEP_MS,
  });
  const pageErrors = [];
  try {
    const page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(STEP_MS);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
    });

    step = 'load the page';
    const response = await page.goto(URL_, { timeout: STEP_MS });
    if (!response || !response.ok()) throw new Error(`GET ${URL_}: ${response ? response.status() : 'no response'}`);
    await waitForCells(page, 64);
    await page.waitForFunction(() => /your move/.test(document.querySelector('#status').textContent), null, {
      timeout: STEP_MS,
    });
    await noPageError(page);
    const lab = await page.locator('a[href="/lab"]').count();
    if (lab === 0) throw new Error('no link to /lab');
    await page.screenshot({ path: path.join(SHOTS, 'page.png'), fullPage: true });
    log('page loaded: Othello start drawn');

    await playTicTacToe(page);
    await playShogi(page);
    await proveTicTacToe(page);
    await analyseOthello(page);
    await showTree(page);

    step = 'page errors';
    if (pageErrors.length) throw new Error(`the page logged errors:\n  ${pageErrors.join('\n  ')}`);
  } finally {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().then(
  () => {
    log(`ok (screenshots in ${SHOTS}: page.png, shogi.png, analysis.png, tree.png)`);
    process.exit(0);
  },
  (e) => {
    console.error(`e2e: FAIL at '${step}': ${e && e.message ? e.message : e}`);
    process.exit(1);
  },
);
