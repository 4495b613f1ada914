// Unit tests for formatting run results into the output channel and the summary notification.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, formatRunResult, runTargetLabel, uriBaseName } from '../../src/runFormat';

const now = new Date('2026-01-02T03:04:05.000Z');

test('a successful run', () => {
  const f = formatRunResult(
    { uri: 'file:///w/vector%20add.py', kernel: 'add_kernel', device: 'cpu', exitCode: 0, output: 'max error 0.0' },
    1234,
    now,
  );
  assert.equal(f.ok, true);
  assert.equal(f.summary, 'add_kernel ran on CPU in 1.23 s.');
  assert.equal(f.block, '[2026-01-02T03:04:05.000Z] add_kernel on CPU (vector add.py): exit code 0, 1.23 s\nmax error 0.0\n\n');
});

test('a failed run quotes the line that names the error', () => {
  const f = formatRunResult(
    {
      uri: 'file:///w/k.py',
      kernel: 'k',
      device: 'gpu',
      exitCode: 3,
      output: 'launching grid (4,)\nerror: out of bounds load at k.py:12:8 (offset 1024 >= 1000)\n',
    },
    undefined,
    now,
  );
  assert.equal(f.ok, false);
  assert.equal(f.summary, 'k failed on GPU (exit code 3): error: out of bounds load at k.py:12:8 (offset 1024 >= 1000)');
  assert.match(f.block, /: exit code 3\nlaunching grid/);
});

test('empty output is said, not left blank', () => {
  const f = formatRunResult({ uri: 'file:///k.py', kernel: 'k', device: 'cpu', exitCode: 1, output: '' }, undefined, now);
  assert.equal(f.summary, 'k failed on CPU (exit code 1).');
  assert.match(f.block, /\(no output\)/);
});

test('long first lines are cut for the notification', () => {
  const f = formatRunResult({ uri: 'file:///k.py', kernel: 'k', device: 'cpu', exitCode: 1, output: 'x'.repeat(500) }, undefined, now);
  assert.ok(f.summary.length < 220);
  assert.ok(f.summary.endsWith('…'));
});

test('durations and names', () => {
  assert.equal(formatDuration(12.4), '12 ms');
  assert.equal(formatDuration(61000), '61.0 s');
  assert.equal(uriBaseName('untitled:Untitled-1'), 'untitled:Untitled-1');
  assert.equal(uriBaseName('file:///a/b/c.py#L3'), 'c.py');
});

test("the server's summary (verdict, time, % of peak) is the notification, and a fallback is said", () => {
  const f = formatRunResult(
    {
      uri: 'file:///w/k.py',
      kernel: 'add_kernel',
      device: 'cpu',
      exitCode: 0,
      output: 'run add_kernel\n',
      note: 'no GPU on this machine: ran on the CPU interpreter',
      summary: { text: 'CPU ✓ 3 instances ran clean', ok: true, device: 'cpu' },
    },
    undefined,
    now,
  );
  assert.equal(f.ok, true);
  assert.equal(f.summary, 'add_kernel: CPU ✓ 3 instances ran clean. (no GPU on this machine: ran on the CPU interpreter)');
  assert.match(f.block, /\nnote: no GPU on this machine: ran on the CPU interpreter\nrun add_kernel\nsummary: CPU ✓ 3 instances ran clean\n/);
  const g = formatRunResult(
    {
      uri: 'file:///w/k.py',
      kernel: 'add_kernel',
      device: 'gpu',
      exitCode: 1,
      output: '',
      summary: { text: 'GPU ✗ 1 of 3 instances differ from the interpreter', ok: false, device: 'gpu' },
    },
    undefined,
    now,
  );
  assert.equal(g.ok, false);
  assert.equal(g.summary, 'add_kernel: GPU ✗ 1 of 3 instances differ from the interpreter.');
});

test('the progress toast names the CPU when the server reported no GPU', () => {
  assert.equal(runTargetLabel('gpu', false), 'CPU (no GPU on this machine)');
  assert.equal(runTargetLabel('auto', false), 'CPU (no GPU on this machine)');
  assert.equal(runTargetLabel('auto', true), 'GPU');
  assert.equal(runTargetLabel('gpu', true), 'GPU');
  assert.equal(runTargetLabel('gpu', undefined), 'GPU');
  assert.equal(runTargetLabel('cpu', false), 'CPU');
});
