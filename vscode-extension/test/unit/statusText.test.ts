// Unit tests for the status bar text: target architecture, GPU availability, and failure states.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusView } from '../../src/statusText';

test('the setting names the target; the server names whether a GPU is there', () => {
  const v = statusView({ kind: 'running', version: '0.1.0', status: { gpuAvailable: true, arch: 'sm_90' } }, 'sm_80');
  assert.equal(v.text, '$(chip) sm_80 $(check) GPU');
  assert.match(v.tooltip, /Target: sm_80 \(from tessel\.arch\)/);
});

test('auto shows the architecture the server detected', () => {
  const v = statusView({ kind: 'running', version: '0.1.0', status: { gpuAvailable: false, arch: 'sm_90' } }, 'auto');
  assert.equal(v.text, '$(chip) sm_90 $(circle-slash) no GPU');
  assert.match(v.tooltip, /detected by the server/);
  assert.match(v.tooltip, /CPU interpreter/);
});

test('before the server reports, nothing is claimed about the GPU', () => {
  const v = statusView({ kind: 'running', version: '0.1.0' }, 'auto');
  assert.equal(v.text, '$(chip) auto');
  assert.match(v.tooltip, /GPU: not reported yet/);
});

test('a failure says why', () => {
  const v = statusView({ kind: 'failed', message: 'no tessel on PATH' }, 'auto');
  assert.equal(v.text, '$(error) tessel');
  assert.match(v.tooltip, /no tessel on PATH/);
});
