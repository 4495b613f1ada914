// Unit tests for server discovery order: setting, then PATH, then the bundled binary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discoverServer, DiscoveryInput } from '../../src/discovery';

function input(executables: string[], over: Partial<DiscoveryInput> = {}): DiscoveryInput {
  return {
    setting: '',
    pathEnv: '/usr/local/bin:/usr/bin',
    extensionDir: '/ext',
    platform: 'linux',
    homeDir: '/home/u',
    isExecutable: (f) => executables.includes(f),
    ...over,
  };
}

test('the setting wins over PATH and the bundled binary', () => {
  const d = discoverServer(input(['/opt/t/tessel', '/usr/bin/tessel', '/ext/server/tessel'], { setting: '/opt/t/tessel' }));
  assert.deepEqual(d, { found: true, path: '/opt/t/tessel', source: 'setting' });
});

test('a setting starting with ~ is expanded', () => {
  const d = discoverServer(input(['/home/u/b/tessel'], { setting: '~/b/tessel' }));
  assert.deepEqual(d, { found: true, path: '/home/u/b/tessel', source: 'setting' });
});

test('a setting that points nowhere is an error, with no fallback', () => {
  const d = discoverServer(input(['/usr/bin/tessel'], { setting: '/nope/tessel' }));
  assert.equal(d.found, false);
  assert.match(!d.found ? d.message : '', /tessel\.path is set to '\/nope\/tessel'/);
});

test('PATH is searched in order', () => {
  const d = discoverServer(input(['/usr/bin/tessel', '/usr/local/bin/tessel']));
  assert.deepEqual(d, { found: true, path: '/usr/local/bin/tessel', source: 'PATH' });
});

test('the bundled binary is the last resort', () => {
  const d = discoverServer(input(['/ext/server/tessel']));
  assert.deepEqual(d, { found: true, path: '/ext/server/tessel', source: 'bundled' });
});

test('nothing found lists every place tried and says how to fix it', () => {
  const d = discoverServer(input([], { pathEnv: '/a::/b' }));
  assert.equal(d.found, false);
  if (d.found) return;
  assert.deepEqual(d.tried, ['/a/tessel', '/b/tessel', '/ext/server/tessel']);
  assert.match(d.message, /set tessel\.path/);
});

test('Windows uses tessel.exe and ; separators', () => {
  const d = discoverServer(
    input(['C:\\tools\\tessel.exe'], { platform: 'win32', pathEnv: 'C:\\bin;C:\\tools', extensionDir: 'C:\\ext' }),
  );
  assert.deepEqual(d, { found: true, path: 'C:\\tools\\tessel.exe', source: 'PATH' });
});
