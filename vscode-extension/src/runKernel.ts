// Run Kernel: sends `tessel.runKernel` to the server, shows progress until `tessel/runResult`, then the result
// in the Tessel Run output channel and a summary notification.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { pickKernel } from './kernelPicker';
import { guardOutput } from './outputGuard';
import { Device, runKernelCommand, RunKernelArgs, RunResult, runResultNotification } from './protocol';
import { formatRunResult, runTargetLabel } from './runFormat';
import { ClientHook, ServerController } from './serverController';
import { readSettings } from './config';

/** A run the user is waiting for; the server may never answer (killed server), so progress ends on a timer too. */
interface PendingRun {
  startedAt: number;
  finish(): void;
}

const runTimeoutMs = 10 * 60 * 1000;

export class KernelRunner implements ClientHook, vscode.Disposable {
  readonly channel = guardOutput(vscode.window.createOutputChannel('Tessel Run'));
  private readonly pending = new Map<string, PendingRun>();
  private controller: ServerController | undefined;
  private stateListener: vscode.Disposable | undefined;

  setController(controller: ServerController): void {
    this.controller = controller;
    // A server that stops will never answer its runs; end their progress instead of leaving it spinning.
    this.stateListener = controller.onDidChangeState((s) => {
      if (s.kind === 'running' || s.kind === 'starting') return;
      for (const p of [...this.pending.values()]) p.finish();
    });
  }

  attach(client: LanguageClient): void {
    client.onNotification(runResultNotification, (r) => this.onResult(r));
  }

  /** Called for every `tessel.runKernel` request, including those from code lenses (see middleware.ts). */
  runStarted(args: RunKernelArgs): void {
    const key = runKey(args);
    this.pending.get(key)?.finish(); // the server cancels the earlier run of the same kernel
    const state = this.controller?.state;
    const gpu = state?.kind === 'running' ? state.status?.gpuAvailable : undefined;
    const label = `${args.kernel} on ${runTargetLabel(args.device, gpu)}`;
    this.channel.appendLine(`[${new Date().toISOString()}] running ${label}…`);
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Tessel: running ${label}…` },
      () =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => finish(), runTimeoutMs);
          const finish = () => {
            clearTimeout(timer);
            if (this.pending.get(key) === entry) this.pending.delete(key);
            resolve();
          };
          const entry: PendingRun = { startedAt: Date.now(), finish };
          this.pending.set(key, entry);
        }),
    );
  }

  /** The palette/context-menu command; `device` undefined means the tessel.run.device setting. */
  async run(device: Device | undefined, args?: unknown): Promise<void> {
    const client = this.controller?.running;
    if (!client || !this.controller?.capabilities.capabilities.runKernel) {
      void vscode.window.showErrorMessage('Tessel: the server is not running or cannot run kernels. See Tessel: Show Output.');
      return;
    }
    const target = await pickKernel(args);
    if (!target) return;
    const runArgs: RunKernelArgs = {
      uri: client.code2ProtocolConverter.asUri(target.document.uri),
      kernel: target.kernel,
      device: device ?? readSettings().settings.runDevice,
    };
    if (target.config !== undefined) runArgs.config = target.config;
    this.runStarted(runArgs);
    try {
      await client.sendRequest(ExecuteCommandRequest.type, { command: runKernelCommand, arguments: [runArgs] });
    } catch (e) {
      this.pending.get(runKey(runArgs))?.finish();
      const message = (e as Error).message;
      this.channel.appendLine(`  the server refused the run: ${message}`);
      void vscode.window.showErrorMessage(`Tessel: could not run ${runArgs.kernel}: ${message}`);
    }
  }

  dispose(): void {
    this.stateListener?.dispose();
    for (const p of [...this.pending.values()]) p.finish();
    this.channel.dispose();
  }

  private onResult(r: RunResult): void {
    const entry = this.pending.get(runKey(r));
    const elapsed = entry ? Date.now() - entry.startedAt : undefined;
    entry?.finish();
    const f = formatRunResult(r, elapsed);
    this.channel.append(f.block);
    const show = (choice: string | undefined) => {
      if (choice === 'Show Output') this.channel.show(true);
    };
    if (f.ok) void vscode.window.showInformationMessage(`Tessel: ${f.summary}`, 'Show Output').then(show);
    else void vscode.window.showErrorMessage(`Tessel: ${f.summary}`, 'Show Output').then(show);
  }
}

/** Not keyed by device: a `gpu` or `auto` run may come back as a CPU run (no GPU there), and the server runs one at a time. */
function runKey(r: { uri: string; kernel: string }): string {
  return `${r.uri}\u0000${r.kernel}`;
}
