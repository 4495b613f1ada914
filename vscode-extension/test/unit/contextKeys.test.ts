// Unit tests for the context keys (which commands are offered) and the settings scope "Open Settings" opens.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { contextKeys, settingsCommand } from '../../src/contextKeys';

test('Run on GPU is offered only once the server reports a GPU', () => {
  const running = (gpuAvailable?: boolean) =>
    contextKeys({ kind: 'running', version: '0.1.0', status: gpuAvailable === undefined ? undefined : { gpuAvailable, arch: 'sm_90' } });
  assert.deepEqual(running(true), { 'tessel.active': true, 'tessel.gpuAvailable': true });
  assert.deepEqual(running(false), { 'tessel.active': true, 'tessel.gpuAvailable': false });
  assert.deepEqual(running(undefined), { 'tessel.active': true, 'tessel.gpuAvailable': false });
  assert.deepEqual(contextKeys({ kind: 'failed', message: 'x' }), { 'tessel.active': false, 'tessel.gpuAvailable': false });
  assert.deepEqual(contextKeys({ kind: 'stopped' }), { 'tessel.active': false, 'tessel.gpuAvailable': false });
});

test('every place that offers Run on GPU asks for tessel.gpuAvailable', () => {
  // out/test/unit/ at run time, test/unit/ when type-checked: the manifest is found from the package root.
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || path.basename(dir) === 'test') dir = path.dirname(dir);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const contributes = manifest.contributes;
  const command = contributes.commands.find((c: { command: string }) => c.command === 'tessel.runGpu');
  assert.match(command.enablement, /\btessel\.gpuAvailable\b/);
  const menuEntries = Object.values(contributes.menus as Record<string, { command?: string; when?: string }[]>)
    .flat()
    .filter((m) => m.command === 'tessel.runGpu');
  assert.ok(menuEntries.length >= 2, 'runGpu is in the palette and the context menu');
  for (const m of menuEntries) assert.match(m.when ?? '', /\btessel\.gpuAvailable\b/);
  // The CPU run stays offered without a GPU.
  const cpu = contributes.commands.find((c: { command: string }) => c.command === 'tessel.runCpu');
  assert.doesNotMatch(cpu.enablement, /gpuAvailable/);
});

test('tessel.path is machine-overridable, so User settings apply on a remote or code-server window', () => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || path.basename(dir) === 'test') dir = path.dirname(dir);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  assert.equal(manifest.contributes.configuration.properties['tessel.path'].scope, 'machine-overridable');
});

test('Open Settings opens the scope that decides tessel.path', () => {
  assert.equal(settingsCommand({}, undefined), 'workbench.action.openSettings');
  assert.equal(settingsCommand(undefined, undefined), 'workbench.action.openSettings');
  assert.equal(settingsCommand({}, 'ssh-remote'), 'workbench.action.openRemoteSettings');
  assert.equal(settingsCommand({ workspaceValue: '/opt/tessel' }, 'ssh-remote'), 'workbench.action.openWorkspaceSettings');
  assert.equal(settingsCommand({ workspaceFolderValue: '/opt/tessel', workspaceValue: '/x' }, undefined), 'workbench.action.openFolderSettings');
});
