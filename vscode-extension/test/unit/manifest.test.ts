// What package.json declares to VS Code about trust: Restricted Mode is limited, never an executable from the workspace.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

// Compiled to out/test/unit/; package.json is three levels up.
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));

test('untrusted workspaces are supported in a limited way', () => {
  const untrusted = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(untrusted?.supported, 'limited');
  assert.match(untrusted?.description ?? '', /tessel\.path/);
});

test('a workspace cannot choose the executable the extension runs until it is trusted', () => {
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['tessel.path']);
  // The setting exists and a machine may override it, so User settings on a remote window apply.
  assert.equal(manifest.contributes.configuration.properties['tessel.path'].scope, 'machine-overridable');
});
