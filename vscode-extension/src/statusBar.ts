// The status bar item: target architecture and GPU availability while the server runs, or why it does not.
import * as vscode from 'vscode';
import { readSettings } from './config';
import { ServerController } from './serverController';
import { statusView } from './statusText';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('tessel.status', vscode.StatusBarAlignment.Right, 100);
  private readonly listeners: vscode.Disposable[] = [];

  constructor(private readonly controller: ServerController) {
    this.item.name = 'Tessel';
    this.item.command = 'tessel.showOutput';
    this.listeners.push(
      controller.onDidChangeState(() => this.update()),
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
    );
    this.update();
  }

  /** Also called when tessel.arch changes. */
  update(): void {
    const state = this.controller.state;
    const editor = vscode.window.activeTextEditor;
    const onPython = editor?.document.languageId === 'python';
    if (state.kind === 'stopped' || !onPython) {
      this.item.hide();
      return;
    }
    const view = statusView(state, readSettings().settings.arch);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      state.kind === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.listeners.forEach((l) => l.dispose());
    this.item.dispose();
  }
}
