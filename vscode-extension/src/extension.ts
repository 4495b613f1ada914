// Entry point: wires the server controller, commands, IR views, runs and status bar, and starts the server
// only once a Python file that imports triton is open.
import * as vscode from 'vscode';
import { onSettingsChanged } from './config';
import { IRViewProvider } from './irView';
import { IRKind } from './protocol';
import { guardOutput } from './outputGuard';
import { KernelRunner } from './runKernel';
import { ServerController } from './serverController';
import { StatusBar } from './statusBar';
import { importsTriton } from './tritonImport';

let controller: ServerController | undefined;

export function activate(context: vscode.ExtensionContext): void {
  // Guarded: the server's last stderr can arrive after the extension host closed the channels (outputGuard.ts).
  const output = guardOutput(vscode.window.createOutputChannel('Tessel Language Server'));
  const traceOutput = guardOutput(vscode.window.createOutputChannel('Tessel Language Server Trace'));
  const runner = new KernelRunner();
  controller = new ServerController(context.extensionPath, output, traceOutput, [runner]);
  runner.setController(controller);
  const ctl = controller;
  const irViews = new IRViewProvider(ctl);
  const statusBar = new StatusBar(ctl);
  // Disposed in this order on reload or close: the client stops (and logs that it stops) while its output
  // channels are still open; disposing a channel first makes vscode-languageclient write to a closed one.
  context.subscriptions.push(ctl, runner, irViews, statusBar, output, traceOutput);

  const command = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));
  command('tessel.run', (args) => runner.run(undefined, args));
  command('tessel.runCpu', (args) => runner.run('cpu', args));
  command('tessel.runGpu', (args) => runner.run('gpu', args));
  const irCommands: [string, IRKind][] = [
    ['tessel.showTileIR', 'tir'],
    ['tessel.showLLVMIR', 'llvm'],
    ['tessel.showPTX', 'ptx'],
    ['tessel.showSASS', 'sass'],
  ];
  for (const [id, kind] of irCommands) command(id, (args) => irViews.show(kind, args));
  command('tessel.restartServer', () => ctl.restart());
  command('tessel.showOutput', () => ctl.output.show(true));

  context.subscriptions.push(
    onSettingsChanged((action) => {
      if (action === 'restart') void ctl.restart();
      if (action === 'notify') void ctl.notifySettings();
      statusBar.update();
    }),
  );

  // Start lazily: the first Triton document, already open or opened (or typed) later, starts the server.
  const maybeStart = (doc: vscode.TextDocument) => {
    if (ctl.state.kind !== 'stopped' || doc.languageId !== 'python') return;
    if (importsTriton(doc.getText())) void ctl.start();
  };
  vscode.workspace.textDocuments.forEach(maybeStart);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(maybeStart),
    vscode.workspace.onDidChangeTextDocument((e) => maybeStart(e.document)),
  );
}

export function deactivate(): Promise<void> | undefined {
  return controller?.shutdown();
}
