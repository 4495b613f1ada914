// Owns the language client's lifecycle: find the binary, start `tessel lsp --stdio`, stop, restart, report state.
//
// The output channels outlive each client so a restart does not lose the log. Features that listen to server
// notifications attach to every new client through `ClientHook`, before it starts (vscode-languageclient 9
// queues handlers registered before start).
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  InlayHintRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { TesselCapabilitiesFeature } from './capabilities';
import { readSettings } from './config';
import { contextKeys, settingsCommand } from './contextKeys';
import { DocumentGate } from './documentGate';
import { createMiddleware } from './middleware';
import {
  ConfigTable,
  RunKernelArgs,
  ServerStatus,
  serverStatusNotification,
  TuneResult,
  tuneResultNotification,
} from './protocol';
import { locateServer } from './serverBinary';
import { serverArgs, serverSettings } from './settings';
import { ServerState } from './statusText';

export interface ClientHook {
  attach(client: LanguageClient): void;
  runStarted?(args: RunKernelArgs): void;
}

export class ServerController implements vscode.Disposable {
  readonly gate = new DocumentGate();
  readonly capabilities = new TesselCapabilitiesFeature();
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private stateValue: ServerState = { kind: 'stopped' };
  private disposed = false;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(
    private readonly extensionDir: string,
    readonly output: vscode.OutputChannel,
    private readonly traceOutput: vscode.OutputChannel,
    private readonly hooks: ClientHook[],
  ) {}

  get state(): ServerState {
    return this.stateValue;
  }

  /** The running client, if any; commands check this rather than starting a server behind the user's back. */
  get running(): LanguageClient | undefined {
    return this.stateValue.kind === 'running' ? this.client : undefined;
  }

  /** Starts the server unless it is running or starting; a failed start stays failed until restart(). */
  start(): Promise<void> {
    // Shutting down (reload, close): a document event then must not start a client the dying host cannot run.
    if (this.disposed) return Promise.resolve();
    if (this.starting) return this.starting;
    if (this.client || this.stateValue.kind === 'failed') return Promise.resolve();
    this.starting = this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async stop(): Promise<void> {
    if (this.starting) await this.starting;
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(5000);
      } catch (e) {
        if (!this.disposed) this.output.appendLine(`tessel: stopping the server failed: ${(e as Error).message}`);
      }
      void client.dispose();
    }
    this.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Sends the settings the running server reads (inlay hints) after they changed. */
  async notifySettings(): Promise<void> {
    const client = this.running;
    if (!client) return;
    const settings = serverSettings(readSettings().settings);
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { tessel: settings } });
    // VS Code would keep showing the old hints until the next edit; ask it to query again now, so the
    // middleware's switch shows at once.
    const hints = client.getFeature(InlayHintRequest.method);
    const refreshed = new Set<unknown>();
    for (const editor of vscode.window.visibleTextEditors) {
      const shape = hints.getProvider(editor.document);
      if (!shape || refreshed.has(shape)) continue;
      refreshed.add(shape);
      shape.onDidChangeInlayHints.fire();
    }
  }

  /** deactivate(): stops the client for good; nothing starts or reports after this. */
  shutdown(): Promise<void> {
    this.disposed = true;
    return this.stop();
  }

  dispose(): void {
    // deactivate() has normally stopped the client already; this covers a dispose without it. Nothing is
    // reported after this point: the output channels and the status bar go right after.
    this.disposed = true;
    void this.stop();
    this.stateEmitter.dispose();
  }

  private async doStart(): Promise<void> {
    const { settings, problems } = readSettings();
    for (const p of problems) this.output.appendLine(`tessel: setting ignored: ${p}`);
    this.setState({ kind: 'starting' });

    const located = await locateServer(settings.path, this.extensionDir);
    if (!located.ok) {
      this.fail(located.message);
      return;
    }
    const args = serverArgs(settings, process.pid);
    this.output.appendLine(
      `tessel: starting ${located.path} ${args.join(' ')} (tessel ${located.version}, found through ${located.source})`,
    );

    const serverOptions: ServerOptions = { command: located.path, args };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        { scheme: 'untitled', language: 'python' },
      ],
      outputChannel: this.output,
      traceOutputChannel: this.traceOutput,
      initializationOptions: () => serverSettings(readSettings().settings),
      middleware: createMiddleware({
        gate: this.gate,
        openLate: (doc) => this.openLate(doc),
        inlayHintsEnabled: () => readSettings().settings.inlayHintsEnable,
        runStarted: (args) => this.hooks.forEach((h) => h.runStarted?.(args)),
        showConfigTable: (table) => void showConfigTable(table),
      }),
    };
    // The id 'tessel' makes vscode-languageclient follow `tessel.trace.server` live.
    const client = new LanguageClient('tessel', 'Tessel', serverOptions, clientOptions);
    client.registerFeature(this.capabilities);
    for (const hook of this.hooks) hook.attach(client);
    // Registered before start: the server sends tessel/serverStatus right after `initialized`, which can
    // arrive before start() resolves; the last one seen is kept for the running state.
    let status: ServerStatus | undefined;
    const running = (): ServerState => ({ kind: 'running', version: located.version, status });
    client.onNotification(tuneResultNotification, (r) => void showTuneResult(r, this.output));
    client.onNotification(serverStatusNotification, (s) => {
      status = s;
      if (this.client === client && this.stateValue.kind === 'running') this.setState(running());
    });
    client.onDidChangeState((e) => {
      // A crashed server is restarted by vscode-languageclient a few times before it gives up in Stopped.
      if (this.client !== client || this.starting) return;
      if (e.newState === State.Stopped) this.setState({ kind: 'failed', message: 'the server stopped; see the output' });
      if (e.newState === State.Running) this.setState(running());
    });
    this.gate.reset();
    this.client = client;
    try {
      await client.start();
    } catch (e) {
      this.client = undefined;
      void client.dispose();
      this.fail(`the server did not start: ${(e as Error).message}`);
      return;
    }
    this.setState(running());
  }

  private async openLate(doc: vscode.TextDocument): Promise<void> {
    const client = this.client;
    if (!client) return;
    await client.sendNotification(DidOpenTextDocumentNotification.type, client.code2ProtocolConverter.asOpenTextDocumentParams(doc));
  }

  private fail(message: string): void {
    this.output.appendLine(`tessel: ${message}`);
    this.setState({ kind: 'failed', message });
    void vscode.window.showErrorMessage(`Tessel: ${message}`, 'Open Settings', 'Show Output').then((choice) => {
      if (choice === 'Open Settings') void this.openPathSettings();
      if (choice === 'Show Output') this.output.show(true);
    });
  }

  /** Opens the settings editor where `tessel.path` is decided (contextKeys.ts says which). */
  private async openPathSettings(): Promise<void> {
    const scopes = vscode.workspace.getConfiguration('tessel').inspect('path');
    const command = settingsCommand(scopes, vscode.env.remoteName);
    try {
      await vscode.commands.executeCommand(command, { query: 'tessel.path' });
    } catch {
      // A window without that scope (no remote settings in it): the User settings still show the value.
      await vscode.commands.executeCommand('workbench.action.openSettings', { query: 'tessel.path' });
    }
  }

  private setState(state: ServerState): void {
    this.stateValue = state;
    if (this.disposed) return;
    for (const [key, value] of Object.entries(contextKeys(state))) {
      // On window close the command service can be gone before the last state change: not worth an error.
      vscode.commands.executeCommand('setContext', key, value).then(undefined, () => undefined);
    }
    this.stateEmitter.fire(state);
  }
}

/**
 * A finished Tune: its table beside the editor; a runner's failure lines (the tune's output) as one message,
 * so an incomplete tune never looks complete. The quick fix on the kernel then keeps the winning configs.
 */
async function showTuneResult(r: TuneResult, output: vscode.OutputChannel): Promise<void> {
  output.appendLine(`tessel tune ${r.kernel}: ${r.cancelled ? 'cancelled' : `exit ${r.exitCode}`}\n${r.output}`);
  if (r.markdown) await showConfigTable({ kernel: r.kernel, markdown: r.markdown });
  if (r.cancelled) return;
  if (!r.complete) {
    const why = r.output.split('\n').find((l) => l.startsWith('tessel tune: ')) ?? 'see the output';
    void vscode.window.showErrorMessage(`Tune ${r.kernel} is incomplete: ${why}`);
    return;
  }
  const keep = r.keep ?? [];
  void vscode.window.showInformationMessage(
    `Tuned ${r.kernel}: ${keep.length} config${keep.length === 1 ? '' : 's'} best for some shape (quick fix on the kernel keeps them).`,
  );
}

/** The "+N configs" lens's table: a Markdown document beside the editor, previewed where VS Code can. */
async function showConfigTable(table: ConfigTable): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: table.markdown });
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', doc.uri);
  } catch {
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
}
