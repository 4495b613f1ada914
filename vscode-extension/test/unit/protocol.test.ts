// Unit tests for reading tessel's experimental capabilities, which gate the Run and Show IR commands.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tesselCapabilities } from '../../src/protocol';

test('advertised capabilities are read', () => {
  assert.deepEqual(tesselCapabilities({ experimental: { tessel: { viewIR: true, runKernel: true } } }), {
    viewIR: true,
    runKernel: true,
  });
  assert.deepEqual(tesselCapabilities({ experimental: { tessel: { viewIR: true } } }), { viewIR: true, runKernel: false });
});

test('absent or malformed capabilities offer nothing', () => {
  const none = { viewIR: false, runKernel: false };
  assert.deepEqual(tesselCapabilities(undefined), none);
  assert.deepEqual(tesselCapabilities({}), none);
  assert.deepEqual(tesselCapabilities({ experimental: null }), none);
  assert.deepEqual(tesselCapabilities({ experimental: { tessel: { viewIR: 'yes', runKernel: 1 } } }), none);
});
