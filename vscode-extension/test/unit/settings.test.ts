// Unit tests for settings parsing, the payload sent to the server, and what each change requires.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeAction, defaultSettings, parseSettings, serverArgs, serverSettings } from '../../src/settings';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

test('unset settings take the defaults', () => {
  const { settings, problems } = parseSettings(from({}));
  assert.deepEqual(settings, defaultSettings);
  assert.deepEqual(problems, []);
});

test('valid values are kept', () => {
  const { settings, problems } = parseSettings(
    from({
      path: '/x/tessel',
      arch: 'sm_80',
      'inlayHints.enable': false,
      'jit.enable': false,
      'run.device': 'gpu',
      'run.triton': true,
      defaultRunner: 'ssh://gpu7',
      runners: ['ssh://gpu7', 'slurm://gpu?workers=8'],
      'trace.server': 'verbose',
    }),
  );
  assert.deepEqual(settings, {
    path: '/x/tessel',
    arch: 'sm_80',
    inlayHintsEnable: false,
    jitEnable: false,
    runDevice: 'gpu',
    runTriton: true,
    defaultRunner: 'ssh://gpu7',
    runners: ['ssh://gpu7', 'slurm://gpu?workers=8'],
    traceServer: 'verbose',
  });
  assert.deepEqual(problems, []);
});

test('a runner list that is not a list of names falls back to none', () => {
  const { settings, problems } = parseSettings(from({ runners: 'ssh://gpu7' }));
  assert.deepEqual(settings.runners, []);
  assert.equal(problems.length, 1);
});

test('invalid values fall back to defaults and are reported', () => {
  const { settings, problems } = parseSettings(from({ arch: 'ampere', 'run.device': 'tpu', 'inlayHints.enable': 'yes' }));
  assert.equal(settings.arch, 'auto');
  assert.equal(settings.runDevice, 'cpu');
  assert.equal(settings.inlayHintsEnable, true);
  assert.equal(problems.length, 3);
  assert.match(problems[0], /tessel\.arch: "ampere" is not one of auto, sm_80, sm_90/);
});

test("'auto' runs on the GPU when the server has one: a valid device", () => {
  const { settings, problems } = parseSettings(from({ 'run.device': 'auto' }));
  assert.equal(settings.runDevice, 'auto');
  assert.deepEqual(problems, []);
  assert.match(parseSettings(from({ 'run.device': 'tpu' })).problems[0], /'cpu', 'gpu' or 'auto'/);
});

test('targets the server does not accept yet are refused before it starts', () => {
  const { settings, problems } = parseSettings(from({ arch: 'sm_86' }));
  assert.equal(settings.arch, 'auto');
  assert.equal(problems.length, 1);
});

test('the command line carries the target and the editor pid', () => {
  assert.deepEqual(serverArgs(defaultSettings), ['lsp', '--stdio']);
  assert.deepEqual(serverArgs({ ...defaultSettings, arch: 'sm_80' }, 42), ['lsp', '--stdio', '--arch=sm_80', '--clientProcessId=42']);
});

test('the server is sent arch, the inlay hint switch, the JIT switch and the Triton switch', () => {
  assert.deepEqual(serverSettings({ ...defaultSettings, arch: 'sm_80', inlayHintsEnable: false, jitEnable: false }), {
    arch: 'sm_80',
    inlayHints: { enable: false },
    jit: { enable: false },
    run: { triton: false },
    defaultRunner: '',
    runners: [],
  });
  assert.deepEqual(serverSettings({ ...defaultSettings, runners: ['ssh://gpu7', 'slurm://gpu?workers=8'] }).runners, [
    'ssh://gpu7',
    'slurm://gpu?workers=8',
  ]);
  assert.deepEqual(serverSettings({ ...defaultSettings, runTriton: true }).run, { triton: true });
});

test('path and arch changes restart, hints notify, the rest stays in the client', () => {
  const only = (changed: string) => (s: string) => changed === s || changed.startsWith(s + '.');
  assert.equal(changeAction(only('tessel.path')), 'restart');
  assert.equal(changeAction(only('tessel.arch')), 'restart');
  assert.equal(changeAction(only('tessel.inlayHints.enable')), 'notify');
  assert.equal(changeAction(only('tessel.jit.enable')), 'notify');
  assert.equal(changeAction(only('tessel.runners')), 'notify');
  assert.equal(changeAction(only('tessel.defaultRunner')), 'notify');
  assert.equal(changeAction(only('tessel.run.device')), 'client');
  assert.equal(changeAction(only('tessel.run.triton')), 'notify');
  assert.equal(changeAction(only('tessel.trace.server')), 'client');
  assert.equal(changeAction(only('python.analysis')), 'none');
});
