// Drives a real `tessel lsp --stdio` through the requests the extension makes: initialize (capabilities that
// gate the commands), didOpen and diagnostics, hover, didChange and cleared diagnostics, settings, tessel/viewIR,
// tessel.runKernel -> tessel/runResult, shutdown/exit. Skips, saying why, when TESSEL_BIN or `tessel lsp` is absent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ResponseError } from 'vscode-jsonrpc/node';
import {
  requestFailedCode,
  runKernelCommand,
  RunKernelArgs,
  RunResult,
  runResultNotification,
  serverStatusNotification,
  tesselCapabilities,
  viewIRRequest,
} from '../../src/protocol';
import { defaultSettings, serverArgs, serverSettings } from '../../src/settings';
import { LspSession, whyNoServer } from '../support/lspSession';

// Compiled to out/test/integration/, the fixture stays in the source tree.
const fixture = path.resolve(__dirname, '../../../test/fixtures/add_kernels.py');
const fixtureText = fs.readFileSync(fixture, 'utf8');
const uri = pathToFileURL(fixture).toString();
const bin = process.env.TESSEL_BIN;

interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  code?: string | number;
  message: string;
}
interface PublishDiagnostics {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

/** What `tessel check --format=json` reports for the fixture: the front-end findings the server must publish too. */
function checkFindings(): Promise<Diagnostic[]> {
  return new Promise((resolve, reject) => {
    execFile(bin!, ['check', '--format=json', fixture], (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      try {
        resolve(collectDiagnostics(JSON.parse(stdout)));
      } catch (e) {
        reject(new Error(`tessel check --format=json printed no JSON (${(e as Error).message}): ${stdout}${stderr}`));
      }
    });
  });
}

/** Finds LSP Diagnostic objects anywhere in check's JSON, whatever its envelope looks like. */
function collectDiagnostics(json: unknown): Diagnostic[] {
  if (Array.isArray(json)) return json.flatMap(collectDiagnostics);
  if (typeof json !== 'object' || json === null) return [];
  const o = json as Record<string, unknown>;
  if (typeof o.message === 'string' && typeof o.range === 'object') return [o as unknown as Diagnostic];
  return Object.values(o).flatMap(collectDiagnostics);
}

/** The initialize params vscode-languageclient 9 sends, reduced to what tessel reads. */
function initializeParams(): unknown {
  return {
    processId: process.pid,
    clientInfo: { name: 'tessel-vscode-integration-test', version: '0.1.0' },
    rootUri: null,
    workspaceFolders: null,
    initializationOptions: serverSettings(defaultSettings),
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      window: { workDoneProgress: true },
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
      textDocument: {
        synchronization: { didSave: true, willSave: true, dynamicRegistration: true },
        publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        inlayHint: { dynamicRegistration: true },
        codeLens: { dynamicRegistration: true },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
      },
    },
  };
}

const key = (d: Diagnostic) => `${d.code}@${d.range.start.line}:${d.range.start.character}`;

test('tessel lsp serves what the VS Code extension asks for', { timeout: 120_000 }, async (t) => {
  const skip = await whyNoServer(bin);
  if (skip) {
    t.skip(skip);
    return;
  }
  const s = new LspSession(bin!, serverArgs(defaultSettings, process.pid));
  s.settings = serverSettings(defaultSettings);
  t.after(() => s.kill());

  let caps: Record<string, unknown> = {};
  await t.test('initialize advertises the capabilities the commands depend on', async () => {
    const result = (await s.connection.sendRequest('initialize', initializeParams())) as {
      capabilities: Record<string, unknown>;
    };
    caps = result.capabilities;
    assert.equal(typeof caps, 'object');
    const tessel = tesselCapabilities(caps);
    t.diagnostic(`experimental.tessel: viewIR=${tessel.viewIR} runKernel=${tessel.runKernel}`);
    if (tessel.runKernel) {
      const commands = (caps.executeCommandProvider as { commands?: string[] } | undefined)?.commands ?? [];
      assert.ok(commands.includes(runKernelCommand), `runKernel advertised but executeCommandProvider lacks ${runKernelCommand}`);
    }
    await s.connection.sendNotification('initialized', {});
  });

  const expected = await checkFindings();
  await t.test('didOpen publishes the findings tessel check reports', async () => {
    assert.ok(expected.length > 0, 'tessel check found nothing in the fixture, so this test would prove nothing');
    await s.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'python', version: 1, text: fixtureText },
    });
    const want = new Set(expected.map(key));
    const published = await s.waitFor<PublishDiagnostics>(
      'textDocument/publishDiagnostics',
      (p) => p.uri === uri && [...want].every((k) => p.diagnostics.some((d) => key(d) === k)),
      20_000,
    );
    if (published.version !== undefined) assert.equal(published.version, 1);
  });

  await t.test('hover over a tile answers', async () => {
    const line = fixtureText.split('\n').findIndex((l) => l.includes('mask = offs < n'));
    const hover = (await s.connection.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line, character: fixtureText.split('\n')[line].indexOf('offs') + 1 },
    })) as { contents: unknown } | null;
    if (caps.hoverProvider) assert.ok(hover && hover.contents, 'hoverProvider advertised but no hover over `offs`');
  });

  await t.test('settings changes are accepted and the server keeps serving', async () => {
    s.settings = { arch: 'sm_80', inlayHints: { enable: false }, jit: { enable: true } };
    await s.connection.sendNotification('workspace/didChangeConfiguration', { settings: { tessel: s.settings } });
    const symbols = await s.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.ok(symbols === null || typeof symbols === 'object');
  });

  await t.test('an edit that fixes the syntax error clears its diagnostic', async () => {
    s.forget('textDocument/publishDiagnostics');
    const fixed = fixtureText.replace('mask=offs < n,, other=0.0', 'mask=offs < n, other=0.0');
    assert.notEqual(fixed, fixtureText);
    await s.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: fixed }],
    });
    const syntaxKeys = new Set(expected.filter((d) => d.code === 'TS001').map(key));
    assert.ok(syntaxKeys.size > 0, 'the fixture should have a TS001 syntax error');
    const published = await s.waitFor<PublishDiagnostics>(
      'textDocument/publishDiagnostics',
      (p) => p.uri === uri && (p.version === undefined || p.version === 2) && !p.diagnostics.some((d) => syntaxKeys.has(key(d))),
      20_000,
    );
    if (published.version !== undefined) assert.equal(published.version, 2);
  });

  await t.test('tessel/viewIR answers with IR or a RequestFailed error', async (st) => {
    if (!tesselCapabilities(caps).viewIR) {
      st.skip('the server does not advertise experimental.tessel.viewIR, so the extension hides Show IR');
      return;
    }
    for (const kind of ['tir', 'llvm', 'ptx', 'sass'] as const) {
      try {
        const r = await s.connection.sendRequest(viewIRRequest, { textDocument: { uri }, kernel: 'add_kernel', kind });
        assert.equal(typeof r.text, 'string', `${kind}: text`);
        assert.equal(typeof r.languageId, 'string', `${kind}: languageId`);
        assert.ok(r.text.length > 0, `${kind}: empty IR`);
      } catch (e) {
        assert.ok(e instanceof ResponseError, `${kind}: ${(e as Error).message}`);
        assert.equal(e.code, requestFailedCode, `${kind}: error ${e.code} ${e.message}`);
        assert.match(e.message, /\S/, `${kind}: the error must say why`);
        st.diagnostic(`${kind}: ${e.message}`);
      }
    }
  });

  await t.test('tessel.runKernel delivers tessel/runResult', async (st) => {
    if (!tesselCapabilities(caps).runKernel) {
      st.skip('the server does not advertise experimental.tessel.runKernel, so the extension hides Run');
      return;
    }
    const args: RunKernelArgs = { uri, kernel: 'add_kernel', device: 'cpu' };
    const result = s.waitFor<RunResult>(runResultNotification, (r) => r.uri === uri && r.kernel === 'add_kernel', 60_000);
    await s.connection.sendRequest('workspace/executeCommand', { command: runKernelCommand, arguments: [args] });
    const r = await result;
    assert.equal(r.device, 'cpu');
    assert.equal(typeof r.exitCode, 'number');
    assert.equal(typeof r.output, 'string');
    // `tessel run` exists now: the fixture's syntax error (broken_kernel) stops the run with exit
    // code 1 and a report, never the usage failure (2) of a missing subcommand.
    assert.notEqual(r.exitCode, 2, r.output);
    assert.match(r.output, /^run add_kernel in /);
    st.diagnostic(`exit ${r.exitCode}: ${r.output.split('\n')[0]}`);
  });

  await t.test('tessel/serverStatus, when sent, has the shape the status bar reads', async (st) => {
    const status = await s.waitFor(serverStatusNotification, () => true, 1000).catch(() => undefined);
    if (!status) {
      st.skip('no tessel/serverStatus notification (it is optional)');
      return;
    }
    assert.equal(typeof status.gpuAvailable, 'boolean');
    assert.equal(typeof status.arch, 'string');
  });

  await t.test('shutdown and exit end the process with status 0', async () => {
    await s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    const r = await s.connection.sendRequest('shutdown');
    assert.equal(r, null);
    await s.connection.sendNotification('exit');
    assert.equal(await s.exited(5000), 0);
  });
});

test('the target from tessel.arch reaches the status bar through tessel/serverStatus', { timeout: 30_000 }, async (t) => {
  const skip = await whyNoServer(bin);
  if (skip) {
    t.skip(skip);
    return;
  }
  const s = new LspSession(bin!, serverArgs({ ...defaultSettings, arch: 'sm_80' }, process.pid));
  t.after(() => s.kill());
  await s.connection.sendRequest('initialize', initializeParams());
  await s.connection.sendNotification('initialized', {});
  const status = await s.waitFor(serverStatusNotification, () => true, 5000).catch(() => undefined);
  if (!status) {
    t.skip('no tessel/serverStatus notification (it is optional)');
  } else {
    assert.equal(status.arch, 'sm_80');
  }
  await s.connection.sendRequest('shutdown');
  await s.connection.sendNotification('exit');
  assert.equal(await s.exited(5000), 0);
});
