// Unit tests for parsing `tessel --version` and the minimum-version check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkServerVersion, compareVersions, parseVersion } from '../../src/version';

test('parses the version out of the first X.Y.Z', () => {
  assert.deepEqual(parseVersion('tessel 0.1.0\n'), [0, 1, 0]);
  assert.deepEqual(parseVersion('tessel version 12.3.45-dev (abc)'), [12, 3, 45]);
  assert.equal(parseVersion('tessel dev'), undefined);
});

test('compares numerically, not as text', () => {
  assert.ok(compareVersions([0, 10, 0], [0, 9, 0]) > 0);
  assert.ok(compareVersions([1, 0, 0], [0, 99, 99]) > 0);
  assert.ok(compareVersions([0, 1, 0], [0, 1, 1]) < 0);
  assert.equal(compareVersions([2, 3, 4], [2, 3, 4]), 0);
});

test('accepts the minimum and newer', () => {
  assert.deepEqual(checkServerVersion('/b/tessel', 'tessel 0.1.0', '0.1.0'), { ok: true, version: '0.1.0' });
  assert.deepEqual(checkServerVersion('/b/tessel', 'tessel 0.2.0', '0.1.0'), { ok: true, version: '0.2.0' });
});

test('rejects an older server and says how to fix it', () => {
  const r = checkServerVersion('/b/tessel', 'tessel 0.0.9', '0.1.0');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.message : '', /0\.0\.9, older than 0\.1\.0/);
  assert.match(!r.ok ? r.message : '', /tessel\.path/);
});

test('rejects output that is not a version', () => {
  const r = checkServerVersion('/usr/bin/python3', 'Python\n', '0.1.0');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.message : '', /not a tessel version/);
});
