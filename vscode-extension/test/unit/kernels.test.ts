// Unit tests for finding @jit kernels and the kernel under the cursor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findKernels, kernelAt } from '../../src/kernels';

const source = [
  'import triton', //                                   0
  'import triton.language as tl', //                    1
  '', //                                                2
  '@triton.autotune(', //                               3
  '    configs=[triton.Config({"BLOCK": 128}),', //     4
  '             triton.Config({"BLOCK": 256})],', //    5
  "    key=['n'])", //                                  6
  '@triton.jit', //                                     7
  'def add_kernel(x_ptr, y_ptr,', //                    8
  '               n, BLOCK: tl.constexpr):', //         9
  '    pid = tl.program_id(0)', //                      10
  '', //                                                11
  '    # a comment at column 0 below must not end the body', // 12
  '# col0', //                                          13
  '    tl.store(y_ptr, pid)', //                        14
  '', //                                                15
  '@functools.cache', //                                16
  'def not_a_kernel():', //                             17
  '    return 1', //                                    18
  '', //                                                19
  'class K:', //                                        20
  '    @jit(do_not_specialize=["n"])', //               21
  '    def method_kernel(n):', //                       22
  '        pass', //                                    23
  '    x = 1', //                                       24
  '@triton.jit', //                                     25
  'def last(): pass', //                                26
].join('\n');

test('finds jit kernels with multi-line decorators and signatures', () => {
  const ks = findKernels(source);
  assert.deepEqual(ks, [
    { name: 'add_kernel', startLine: 3, defLine: 8, endLine: 14 },
    { name: 'method_kernel', startLine: 21, defLine: 22, endLine: 23 },
    { name: 'last', startLine: 25, defLine: 26, endLine: 26 },
  ]);
});

test('brackets inside strings do not confuse the scan', () => {
  const ks = findKernels('@triton.jit(repr=lambda _: ")(")\ndef k(a):\n    pass\n');
  assert.deepEqual(ks, [{ name: 'k', startLine: 0, defLine: 1, endLine: 2 }]);
});

test('the kernel at a line includes its decorators and body only', () => {
  const ks = findKernels(source);
  assert.equal(kernelAt(ks, 3)?.name, 'add_kernel');
  assert.equal(kernelAt(ks, 14)?.name, 'add_kernel');
  assert.equal(kernelAt(ks, 15), undefined);
  assert.equal(kernelAt(ks, 18), undefined);
  assert.equal(kernelAt(ks, 23)?.name, 'method_kernel');
});

test('half-typed text yields what it can', () => {
  assert.deepEqual(findKernels('@triton.jit\n'), []);
  assert.deepEqual(findKernels('@triton.autotune(configs=[\n'), []);
  assert.deepEqual(findKernels('@triton.jit\ndef k(x,\n'), [{ name: 'k', startLine: 0, defLine: 1, endLine: 1 }]);
});
