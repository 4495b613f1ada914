// The `when`-clause context keys the extension sets, derived from the server state as plain data, and which
// settings editor opens for `tessel.path`.
//
// Kept free of `vscode` so the rules are unit-tested; serverController.ts applies them with `setContext` and
// `executeCommand`.
import type { ServerState } from './statusText';

export interface ContextKeys {
  /** The server runs: the editor context menu shows the Tessel submenu. */
  'tessel.active': boolean;
  /** The server reported a GPU (`tessel/serverStatus`): only then is "Run Kernel on GPU" offered. */
  'tessel.gpuAvailable': boolean;
}

export function contextKeys(state: ServerState): ContextKeys {
  const running = state.kind === 'running';
  return {
    'tessel.active': running,
    // Before the server reports nothing is claimed: a GPU run that cannot work is not offered on a guess.
    'tessel.gpuAvailable': running && state.status?.gpuAvailable === true,
  };
}

/** Where a value of `tessel.path` lives, as `WorkspaceConfiguration.inspect` reports it. */
export interface PathSettingScopes {
  workspaceFolderValue?: unknown;
  workspaceValue?: unknown;
}

/**
 * The command that opens the settings editor on the scope that decides `tessel.path`: the workspace (or folder)
 * settings when one of them sets it (they win over the user's), else on a remote or code-server window the
 * Remote settings, which are the server machine's user settings where a machine-overridable value belongs,
 * else the User settings.
 */
export function settingsCommand(scopes: PathSettingScopes | undefined, remoteName: string | undefined): string {
  if (scopes?.workspaceFolderValue !== undefined) return 'workbench.action.openFolderSettings';
  if (scopes?.workspaceValue !== undefined) return 'workbench.action.openWorkspaceSettings';
  if (remoteName !== undefined && remoteName !== '') return 'workbench.action.openRemoteSettings';
  return 'workbench.action.openSettings';
}
