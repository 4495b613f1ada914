// Unit tests for the client middleware's routing: which sync notifications and requests reach the server.
//
// middleware.ts imports `vscode` for types only, so it runs in plain node; documents here are plain
// objects with the two members the middleware reads (uri, getText).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentGate } from '../../src/documentGate';
import { createMiddleware } from '../../src/middleware';
import type { ConfigTable, RunKernelArgs } from '../../src/protocol';

interface FakeDoc {
  uri: { toString(): string };
  text: string;
  getText(): string;
}

function doc(uri: string, text: string): FakeDoc {
  const d: FakeDoc = { uri: { toString: () => uri }, text, getText: () => d.text };
  return d;
}

function setup(hints = true) {
  const opened: string[] = [];
  const runs: RunKernelArgs[] = [];
  const tables: ConfigTable[] = [];
  const m = createMiddleware({
    gate: new DocumentGate(),
    openLate: async (d) => {
      opened.push(d.uri.toString());
    },
    inlayHintsEnabled: () => hints,
    runStarted: (a) => runs.push(a),
    showConfigTable: (t) => tables.push(t),
  });
  // The middleware's parameters are VS Code types; the fakes carry what it reads.
  const anyM = m as unknown as Record<string, (...args: unknown[]) => unknown>;
  return { m: anyM, opened, runs, tables };
}

function spy() {
  const calls: unknown[][] = [];
  const next = (...args: unknown[]) => {
    calls.push(args);
    return 'from-server';
  };
  return { calls, next };
}

test('plain Python is never opened, changed, saved or closed on the server', async () => {
  const { m } = setup();
  const d = doc('file:///plain.py', 'import os\n');
  for (const method of ['didOpen', 'didSave', 'didClose']) {
    const s = spy();
    await m[method](d, s.next);
    assert.equal(s.calls.length, 0, method);
  }
  const s = spy();
  await m.didChange({ document: d, contentChanges: [] }, s.next);
  assert.equal(s.calls.length, 0);
});

test('a triton file is forwarded through its whole life', async () => {
  const { m } = setup();
  const d = doc('file:///k.py', 'import triton\n');
  const s = spy();
  await m.didOpen(d, s.next);
  await m.didChange({ document: d, contentChanges: [] }, s.next);
  await m.didSave(d, s.next);
  await m.didClose(d, s.next);
  assert.equal(s.calls.length, 4);
});

test('typing the import sends didOpen instead of the change', async () => {
  const { m, opened } = setup();
  const d = doc('file:///n.py', 'x = 1\n');
  const s = spy();
  await m.didOpen(d, s.next);
  d.text = 'import triton\nx = 1\n';
  await m.didChange({ document: d, contentChanges: [] }, s.next);
  assert.deepEqual(opened, ['file:///n.py']);
  assert.equal(s.calls.length, 0);
  await m.didChange({ document: d, contentChanges: [] }, s.next);
  assert.equal(s.calls.length, 1);
});

test('feature requests for unknown documents are answered locally', async () => {
  const { m } = setup();
  const plain = doc('file:///plain.py', 'import os\n');
  const kernel = doc('file:///k.py', 'import triton\n');
  await m.didOpen(kernel, spy().next);
  const s = spy();
  assert.equal(m.provideHover(plain, {}, {}, s.next), undefined);
  assert.equal(m.provideCodeLenses(plain, {}, s.next), undefined);
  assert.equal(s.calls.length, 0);
  assert.equal(m.provideHover(kernel, {}, {}, s.next), 'from-server');
  assert.equal(m.provideDiagnostics(kernel.uri, undefined, {}, s.next), 'from-server');
  assert.equal(m.provideDiagnostics(plain, undefined, {}, s.next), undefined);
});

test('inlay hints obey the setting without asking the server', async () => {
  const on = setup(true);
  const off = setup(false);
  const kernel = doc('file:///k.py', 'import triton\n');
  for (const { m } of [on, off]) await m.didOpen(kernel, spy().next);
  const s = spy();
  assert.equal(on.m.provideInlayHints(kernel, {}, {}, s.next), 'from-server');
  assert.deepEqual(off.m.provideInlayHints(kernel, {}, {}, s.next), []);
  assert.equal(s.calls.length, 1);
});

test('runs started from code lenses are reported before they go out', async () => {
  const { m, runs } = setup();
  const s = spy();
  const args = { uri: 'file:///k.py', kernel: 'k', device: 'gpu' };
  await m.executeCommand('tessel.runKernel', [args], s.next);
  await m.executeCommand('tessel.runKernel', [{ kernel: 'no-uri' }], s.next);
  await m.executeCommand('other.command', [args], s.next);
  assert.deepEqual(runs, [args]);
  assert.equal(s.calls.length, 3);
});

test("the +N configs lens's table is shown once the server answers", async () => {
  const { m, tables } = setup();
  const table = { kernel: 'k', markdown: '### `k`: 2 autotune configs\n' };
  const answered = (...args: unknown[]) => {
    void args;
    return Promise.resolve(table);
  };
  assert.deepEqual(await m.executeCommand('tessel.showConfigs', [{ uri: 'file:///k.py', kernel: 'k' }], answered), table);
  // A reply of another shape (an older server) shows nothing.
  await m.executeCommand('tessel.showConfigs', [{ uri: 'file:///k.py', kernel: 'k' }], () => Promise.resolve(null));
  assert.deepEqual(tables, [table]);
});

