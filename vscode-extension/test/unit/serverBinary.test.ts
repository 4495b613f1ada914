// Unit tests for locating the server and probing `--version`, against real executables written to a temp folder.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { locateServer } from '../../src/serverBinary';

const skipOnWindows = process.platform === 'win32' ? 'shell scripts as fake servers need a POSIX shell' : false;

function fakeServer(dir: string, script: string, mode = 0o755): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'tessel');
  fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode });
  return file;
}

const made: string[] = [];
after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessel-ext-'));
  made.push(dir);
  return dir;
}

test('finds a current server on PATH', { skip: skipOnWindows }, async () => {
  const root = tempDir();
  const bin = fakeServer(path.join(root, 'bin'), 'echo "tessel 0.3.1"');
  const r = await locateServer('', path.join(root, 'ext'), { PATH: path.join(root, 'bin') }, '0.1.0');
  assert.deepEqual(r, { ok: true, path: bin, source: 'PATH', version: '0.3.1' });
});

test('a file without the execute bit is not a server', { skip: skipOnWindows }, async () => {
  const root = tempDir();
  fakeServer(path.join(root, 'bin'), 'echo "tessel 0.3.1"', 0o644);
  const r = await locateServer('', path.join(root, 'ext'), { PATH: path.join(root, 'bin') }, '0.1.0');
  assert.equal(r.ok, false);
});

test('uses the bundled server when nothing else is there', { skip: skipOnWindows }, async () => {
  const root = tempDir();
  const bin = fakeServer(path.join(root, 'ext', 'server'), 'echo "tessel 0.1.0"');
  const r = await locateServer('', path.join(root, 'ext'), { PATH: '' }, '0.1.0');
  assert.deepEqual(r, { ok: true, path: bin, source: 'bundled', version: '0.1.0' });
});

test('an old server is refused with the fix', { skip: skipOnWindows }, async () => {
  const root = tempDir();
  const bin = fakeServer(root, 'echo "tessel 0.0.1"');
  const r = await locateServer(bin, root, { PATH: '' }, '0.1.0');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.message : '', /older than 0\.1\.0.*tessel\.path/s);
});

test('a binary whose --version fails is refused with its error', { skip: skipOnWindows }, async () => {
  const root = tempDir();
  const bin = fakeServer(root, 'echo "unknown option --version" >&2; exit 2');
  const r = await locateServer(bin, root, { PATH: '' }, '0.1.0');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.message : '', /--version' failed: unknown option --version/);
});
