// Unit tests for which documents reach the server: triton files only, from the first edit that imports triton.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentGate } from '../../src/documentGate';

test('plain Python never reaches the server', () => {
  const g = new DocumentGate();
  assert.equal(g.opened('file:///a.py', 'import torch\n'), false);
  assert.equal(g.changed('file:///a.py', 'import torch\nx = 1\n'), 'ignore');
  assert.equal(g.closed('file:///a.py'), false);
});

test('a triton file is opened, changed and closed', () => {
  const g = new DocumentGate();
  assert.equal(g.opened('file:///k.py', 'import triton\n'), true);
  assert.equal(g.changed('file:///k.py', 'import triton\n@triton.jit\n'), 'forward');
  assert.equal(g.closed('file:///k.py'), true);
  assert.equal(g.has('file:///k.py'), false);
});

test('typing the import opens the document at that edit, and removing it keeps it open', () => {
  const g = new DocumentGate();
  assert.equal(g.opened('file:///n.py', ''), false);
  assert.equal(g.changed('file:///n.py', 'import tri'), 'ignore');
  assert.equal(g.changed('file:///n.py', 'import triton'), 'open');
  assert.equal(g.changed('file:///n.py', 'import tri'), 'forward');
});

test('reset forgets every document (server restart)', () => {
  const g = new DocumentGate();
  g.opened('file:///k.py', 'import triton\n');
  g.reset();
  assert.equal(g.has('file:///k.py'), false);
});
