// Show Tile IR / LLVM IR / PTX / SASS: read-only `tessel-ir:` documents filled by `tessel/viewIR`, refreshed on edit.
//
// Modelled on rust-analyzer's viewHir: the document URI names the source, kernel, kind and config, the
// provider asks the server each time VS Code wants the content, and an edit to the source re-fires the
// provider (debounced) so an open view follows the code. A server error, such as -32803 "not available
// yet", becomes the document's text (as comments) and a one-time notification, never an exception.
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import { decodeIRTarget, encodeIRTarget, IRTarget, irErrorText, irScheme, irTitle } from './irDocument';
import { pickKernel } from './kernelPicker';
import { IRKind, viewIRRequest } from './protocol';
import { ServerController } from './serverController';

const refreshDelayMs = 300;

export class IRViewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  /** The last error per IR document, so the command can tell the user once, right after opening. */
  private readonly lastError = new Map<string, string>();
  private readonly languageOf = new Map<string, string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly listeners: vscode.Disposable[] = [];

  constructor(private readonly controller: ServerController) {
    this.listeners.push(
      vscode.workspace.registerTextDocumentContentProvider(irScheme, this),
      vscode.workspace.onDidChangeTextDocument((e) => this.sourceChanged(e.document.uri)),
      controller.onDidChangeState((s) => {
        if (s.kind === 'running') this.refreshAll();
      }),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const key = uri.toString();
    const target = decodeIRTarget(uri.query);
    if (!target) return `// tessel: malformed IR document name ${key}\n`;
    const client = this.controller.running;
    if (!client || !this.controller.capabilities.capabilities.viewIR) {
      return this.failed(key, target, 'the tessel server is not running or does not offer IR views (see Tessel: Show Output)');
    }
    try {
      const params = { textDocument: { uri: target.source }, kernel: target.kernel, kind: target.kind };
      const result = await client.sendRequest(
        viewIRRequest,
        target.config !== undefined ? { ...params, config: target.config } : params,
        token,
      );
      this.lastError.delete(key);
      this.languageOf.set(key, result.languageId);
      return result.text;
    } catch (e) {
      const message = e instanceof ResponseError ? e.message : (e as Error).message;
      return this.failed(key, target, message);
    }
  }

  /** The command behind Show Tile IR / LLVM IR / PTX / SASS. */
  async show(kind: IRKind, args?: unknown): Promise<void> {
    const target = await pickKernel(args);
    if (!target) return;
    const client = this.controller.running;
    const source = client ? client.code2ProtocolConverter.asUri(target.document.uri) : target.document.uri.toString();
    const irTarget: IRTarget = { source, kernel: target.kernel, kind, config: target.config };
    const uri = vscode.Uri.from({ scheme: irScheme, ...encodeIRTarget(irTarget) });
    const key = uri.toString();

    let doc = await vscode.workspace.openTextDocument(uri);
    const languageId = this.languageOf.get(key);
    if (languageId && doc.languageId !== languageId) {
      // VS Code refuses language ids no installed extension defines (e.g. ptx); the view stays plain text then.
      doc = await vscode.languages.setTextDocumentLanguage(doc, languageId).then(
        (d) => d,
        () => doc,
      );
    }
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
    const error = this.lastError.get(key);
    if (error) void vscode.window.showWarningMessage(`Tessel: no ${irTitle(kind)} for ${target.kernel}: ${error}`);
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.listeners.forEach((l) => l.dispose());
    this.changeEmitter.dispose();
  }

  private failed(key: string, target: IRTarget, message: string): string {
    this.lastError.set(key, message);
    return irErrorText(target, message);
  }

  private openViews(): vscode.Uri[] {
    return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === irScheme && !d.isClosed).map((d) => d.uri);
  }

  private sourceChanged(source: vscode.Uri): void {
    if (source.scheme === irScheme) return;
    const client = this.controller.running;
    const name = client ? client.code2ProtocolConverter.asUri(source) : source.toString();
    for (const view of this.openViews()) {
      if (decodeIRTarget(view.query)?.source === name) this.schedule(view);
    }
  }

  private refreshAll(): void {
    this.openViews().forEach((v) => this.schedule(v));
  }

  private schedule(view: vscode.Uri): void {
    const key = view.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.changeEmitter.fire(view);
      }, refreshDelayMs),
    );
  }
}
