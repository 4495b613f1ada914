// Unit tests for the tessel-ir: document names and the error text shown in place of IR.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeIRTarget, encodeIRTarget, irErrorText, wrap } from '../../src/irDocument';

test('a target survives encoding, including odd characters in the source URI', () => {
  const t = { source: 'file:///home/u/my%20kernels/add.py?x=1&y=#z', kernel: 'add_kernel', kind: 'ptx' as const, config: 2 };
  const { path, query } = encodeIRTarget(t);
  assert.equal(path, '/add_kernel.config2.ptx');
  assert.deepEqual(decodeIRTarget(query), t);
});

test('config is optional and the extension follows the IR kind', () => {
  const { path, query } = encodeIRTarget({ source: 'file:///a.py', kernel: 'k', kind: 'llvm' });
  assert.equal(path, '/k.ll');
  assert.deepEqual(decodeIRTarget(query), { source: 'file:///a.py', kernel: 'k', kind: 'llvm' });
});

test('malformed queries are rejected', () => {
  assert.equal(decodeIRTarget(''), undefined);
  assert.equal(decodeIRTarget('source=file%3A%2F%2F%2Fa.py&kernel=k&kind=asm'), undefined);
  assert.equal(decodeIRTarget('source=file%3A%2F%2F%2Fa.py&kernel=k&kind=tir&config=-1'), undefined);
  assert.equal(decodeIRTarget('source=file%3A%2F%2F%2Fa.py&kind=tir'), undefined);
});

test('errors are shown as comments of the IR language', () => {
  const text = irErrorText({ source: 'file:///a.py', kernel: 'k', kind: 'llvm' }, 'not available yet: no codegen\nsecond');
  assert.equal(
    text,
    "; tessel could not produce LLVM IR for kernel 'k':\n" +
      ';   not available yet: no codegen\n' +
      ';   second\n' +
      '; This view refreshes when the source changes.\n',
  );
  assert.match(irErrorText({ source: 's', kernel: 'k', kind: 'sass', config: 1 }, 'x'), /^\/\/ .*SASS.*\(config 1\)/);
});

test('long server messages are wrapped at spaces', () => {
  assert.deepEqual(wrap('aaa bbb ccc', 7), ['aaa bbb', 'ccc']);
  assert.deepEqual(wrap('a-very-long-word x', 5), ['a-very-long-word', 'x']);
  assert.deepEqual(wrap('', 5), ['']);
  const text = irErrorText({ source: 's', kernel: 'k', kind: 'ptx' }, 'not available yet: ' + 'word '.repeat(40).trim());
  for (const line of text.split('\n')) assert.ok(line.length <= 100, line);
  assert.match(text, /^\/\/ {3}not available yet: word/m);
});
