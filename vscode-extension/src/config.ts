// Reads the tessel.* settings from VS Code and routes each change to what it needs: restart, notify, or nothing.
import * as vscode from 'vscode';
import { ChangeAction, changeAction, parseSettings, ParsedSettings } from './settings';

export function readSettings(scope?: vscode.ConfigurationScope): ParsedSettings {
  const config = vscode.workspace.getConfiguration('tessel', scope);
  return parseSettings((key) => config.get(key));
}

export function onSettingsChanged(handler: (action: ChangeAction) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    const action = changeAction((section) => e.affectsConfiguration(section));
    if (action !== 'none') handler(action);
  });
}
