// Tidy rules for the extension's own sources: a one-line summary comment opens every module, and no to-do
// markers (write FIXME with the reason), as tests/tidy does for the C++ tree.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

// Compiled to out/test/unit/; the sources are three levels up.
const root = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sources(rel);
    return /\.(ts|mjs)$/.test(e.name) ? [rel] : [];
  });
}

const files = [...sources('src'), ...sources('test'), ...sources('scripts'), 'eslint.config.mjs'];

test('there are sources to check', () => {
  assert.ok(files.includes(path.join('src', 'extension.ts')), files.join(', '));
});

test('every module opens with a one-line summary comment', () => {
  const bad = files.filter((f) => !/^\/\/ \S.{10,}/.test(fs.readFileSync(path.join(root, f), 'utf8').split('\n')[0]));
  assert.deepEqual(bad, []);
});

test('no to-do markers', () => {
  const marker = 'TO' + 'DO';
  const bad = files.filter((f) => fs.readFileSync(path.join(root, f), 'utf8').includes(marker));
  assert.deepEqual(bad, []);
});
