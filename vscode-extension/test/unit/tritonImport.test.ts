// Unit tests for the cheap triton-import check that decides whether the extension starts at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importsTriton } from '../../src/tritonImport';

test('recognises the common import forms', () => {
  for (const text of [
    'import triton\n',
    'import triton.language as tl\n',
    'import os, triton\n',
    'import numpy as np\nfrom triton import jit\n',
    'from triton.language import core\n',
    'try:\n    import triton\nexcept ImportError:\n    pass\n',
    '\r\nimport triton\r\n',
  ]) {
    assert.equal(importsTriton(text), true, JSON.stringify(text));
  }
});

test('leaves other Python files alone', () => {
  for (const text of [
    '',
    'import torch\n',
    '# import triton\n',
    'x = "import triton"\n',
    'import tritonclient\n',
    'from tritonclient import grpc\n',
    'from mylib.triton import helpers\n',
    'print("triton")\n',
  ]) {
    assert.equal(importsTriton(text), false, JSON.stringify(text));
  }
});
