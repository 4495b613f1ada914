// Unit tests for guardOutput: writes after close are dropped, not thrown into the extension host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardOutput } from '../../src/outputGuard';

/** Behaves as VS Code's output channel does once the extension host closed it. */
class Channel {
  readonly name = 'Tessel Language Server';
  lines: string[] = [];
  closed = false;
  appendLine(s: string): void {
    if (this.closed) throw new Error('Channel has been closed');
    this.lines.push(s);
  }
  dispose(): void {
    this.closed = true;
  }
}

test('writes pass through while the channel is open', () => {
  const ch = new Channel();
  const g = guardOutput(ch);
  g.appendLine('starting');
  assert.deepEqual(ch.lines, ['starting']);
  assert.equal(g.name, 'Tessel Language Server');
});

test('a channel closed behind our back drops later writes instead of throwing', () => {
  const ch = new Channel();
  const g = guardOutput(ch);
  ch.closed = true;
  assert.doesNotThrow(() => g.appendLine('server stderr after shutdown'));
  assert.doesNotThrow(() => g.appendLine('more'));
  assert.deepEqual(ch.lines, []);
});

test('after dispose nothing is written; other errors still surface', () => {
  const ch = new Channel();
  const g = guardOutput(ch);
  g.dispose();
  assert.ok(ch.closed);
  ch.closed = false;
  g.appendLine('late');
  assert.deepEqual(ch.lines, []);
  const bad = guardOutput({ dispose() {}, appendLine() { throw new Error('boom'); } });
  assert.throws(() => bad.appendLine(), /boom/);
});
