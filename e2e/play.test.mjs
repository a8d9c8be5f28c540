// End-to-end test of the web player: the real `patience serve` binary and Debian's headless Chromium, driven by
// playwright-core (no browser download). Run from the repository's root after `cargo build -p patience`:
//
//     node --test e2e/
//
// The binary is target/debug/patience (under CARGO_TARGET_DIR when it is set), or PATIENCE_BIN; the browser
// /usr/bin/chromium, or CHROMIUM. Screenshots go to e2e/artifacts/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(root, process.env.CARGO_TARGET_DIR) : path.join(root, 'target');
const binary = process.env.PATIENCE_BIN || path.join(targetDir, 'debug', 'patience');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = path.join(here, 'artifacts');

let scratch;
let server;
let address;
let context;

/** Starts `patience serve --port 0` and reads the address it prints. */
function startServer(dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--data-dir', dataDir, 'serve', '--port', '0', '--bind', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the server printed no address in 20 s: ${out}${err}`)), 20000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, address: match[1] });
      }
    });
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${err}`));
    });
  });
}

before(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'patience-e2e-'));
  mkdirSync(artifacts, { recursive: true });
  ({ child: server, address } = await startServer(path.join(scratch, 'data')));
  context = await chromium.launchPersistentContext(path.join(scratch, 'chromium'), {
    executablePath: browserPath,
    headless: true,
    viewport: { width: 1200, height: 800 },
    reducedMotion: 'reduce',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
});

after(async () => {
  if (context) await context.close();
  if (server) server.kill();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A new tab that fails the test on any script error. */
async function newPage() {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.errors = errors;
  return page;
}

const pile = (id) => `.pile[data-pile="${id}"]`;
const card = (code) => `.card[data-card="${code}"]`;

async function moveCount(page) {
  const text = await page.textContent('#moves');
  return Number(/\d+/.exec(text)[0]);
}

async function dragAndDrop(page, from, to) {
  const a = await page.locator(from).boundingBox();
  const b = await page.locator(to).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 4);
  await page.mouse.down();
  const steps = 8;
  for (let i = 1; i <= steps; i += 1) {
    await page.mouse.move(
      a.x + a.width / 2 + ((b.x + b.width / 2) - (a.x + a.width / 2)) * (i / steps),
      a.y + a.height / 4 + ((b.y + b.height / 4) - (a.y + a.height / 4)) * (i / steps),
    );
  }
  await page.mouse.up();
}

test('Canfield deal 1: drag, click, undo, hints to the win, and the statistics count it', async () => {
  const page = await newPage();
  await page.goto(`${address}/#canfield/1`);
  await page.waitForSelector(`${pile('tableau:3')} ${card('KH')}`);
  assert.equal(await page.textContent('#deal-number'), 'Deal 1');
  assert.match(await page.getAttribute(pile('tableau:0'), 'aria-label'), /Tableau 1, 1 card: King of spades/);
  assert.equal(await page.getAttribute(card('QC'), 'aria-label'), 'Queen of clubs');

  // Drag and drop: the reserve's queen of clubs onto the king of hearts.
  await dragAndDrop(page, card('QC'), card('KH'));
  await page.waitForSelector(`${pile('tableau:3')} ${card('QC')}`);
  assert.equal(await moveCount(page), 1);

  // Click to move: the two of spades, then the three of hearts' pile.
  await page.click(card('2S'));
  await page.click(pile('tableau:2'));
  await page.waitForSelector(`${pile('tableau:2')} ${card('2S')}`);
  assert.equal(await moveCount(page), 2);

  // An illegal move is refused with the engine's reason, and changes nothing.
  await page.click(card('KS'));
  await page.click(pile('tableau:2'));
  await page.waitForFunction(() => /does not go on/.test(document.querySelector('#message').textContent));
  assert.equal(await moveCount(page), 2);

  // Undo.
  await page.click('#undo');
  await page.waitForSelector(`${pile('tableau:1')} ${card('2S')}`);
  assert.equal(await moveCount(page), 1);

  // Hints until the game is won.
  let shot = false;
  for (let i = 0; i < 400; i += 1) {
    if (await page.isVisible('#celebration')) break;
    const before = await moveCount(page);
    await page.click('#play-hint');
    await page.waitForFunction(
      (n) => !document.querySelector('#celebration').hidden
        || Number(/\d+/.exec(document.querySelector('#moves').textContent)[0]) !== n,
      before,
      { timeout: 30000 },
    );
    if (!shot && before >= 40) {
      await page.screenshot({ path: path.join(artifacts, 'canfield-in-progress.png') });
      shot = true;
    }
  }
  await page.waitForSelector('#celebration:not([hidden])');
  assert.match(await page.textContent('#won-text'), /Canfield, deal 1, in \d+ moves/);
  assert.match(await page.textContent('#winnable'), /Won/);
  await page.screenshot({ path: path.join(artifacts, 'canfield-won.png') });

  // The statistics page counts the win.
  await page.click('#won-stats');
  await page.waitForSelector('#stats-table tbody tr[data-game="canfield"]');
  const cells = await page.$$eval('#stats-table tbody tr[data-game="canfield"] > *', (nodes) => nodes.map((n) => n.textContent));
  assert.equal(cells[0], 'Canfield');
  assert.equal(cells[1], '1', 'played');
  assert.equal(cells[2], '1', 'won');
  assert.equal(cells[3], '100.0 %');
  assert.equal(cells[8], '$208');
  assert.ok(await page.isVisible('#chart svg polyline'));
  await page.screenshot({ path: path.join(artifacts, 'statistics.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Keyboard alone: tab to a pile, Enter to pick it up and Enter to put it down; shortcuts draw and undo', async () => {
  const page = await newPage();
  await page.goto(`${address}/#canfield/1`);
  await page.waitForSelector(`${pile('tableau:1')} ${card('2S')}`);
  assert.equal(await moveCount(page), 0);
  await page.focus(pile('tableau:1'));
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${card('2S')}.selected`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.pile), 'tableau:2');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${pile('tableau:2')} ${card('2S')}`);
  assert.equal(await moveCount(page), 1);
  await page.keyboard.press('d');
  await page.waitForFunction(() => /Moves: 2/.test(document.querySelector('#moves').textContent));
  await page.keyboard.press('u');
  await page.waitForFunction(() => /Moves: 1/.test(document.querySelector('#moves').textContent));
  // Double-click sends the waste's jack of spades to its foundation.
  await page.dblclick(`${pile('waste')} ${card('JS')}`);
  await page.waitForSelector(`${pile('foundation:1')} ${card('JS')}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Four Seasons is laid out as a cross, and two tabs play apart', async () => {
  const one = await newPage();
  const two = await newPage();
  await one.goto(`${address}/#four-seasons/1`);
  await two.goto(`${address}/#gate/1`);
  await one.waitForSelector('.cross');
  await two.waitForSelector('.rails');
  assert.equal(await one.locator('.cross > .pile').count(), 9);
  await two.keyboard.press('d');
  await two.waitForFunction(() => /Moves: 1/.test(document.querySelector('#moves').textContent));
  await one.reload();
  await one.waitForSelector('.cross');
  assert.equal(await moveCount(one), 0);
  assert.deepEqual(one.errors, []);
  assert.deepEqual(two.errors, []);
  await one.close();
  await two.close();
});

test('Selective Canfield deal 4: a losing choice of base card, and the post-mortem names the choices that could win', async () => {
  const page = await newPage();
  await page.goto(`${address}/#selective-canfield/4`);
  await page.waitForSelector(`${pile('choice:2')} ${card('5C')}`);
  await page.dblclick(card('5C'));
  await page.waitForSelector(`${pile('foundation:0')} ${card('5C')}`);
  await page.waitForSelector('#postmortem-button:not([hidden])', { timeout: 30000 });
  await page.click('#postmortem-button');
  await page.waitForFunction(() => {
    const items = [...document.querySelectorAll('#postmortem .choices li')];
    return items.length === 5 && items.every((li) => li.dataset.outcome);
  }, null, { timeout: 60000 });
  assert.equal(await page.getAttribute('#postmortem .choices li.yours', 'data-card'), '5C');
  assert.equal(await page.getAttribute('#postmortem .choices li.yours', 'data-outcome'), 'lost');
  assert.match(await page.textContent('#postmortem'), /could have won; your choice, 5\u2663, could not\./);
  await page.screenshot({ path: path.join(artifacts, 'selective-canfield-post-mortem.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});
