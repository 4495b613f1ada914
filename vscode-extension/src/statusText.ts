// What the status bar item says: the target architecture, whether a GPU is there, or why the server is not running.
import type { ServerStatus } from './protocol';

export type ServerState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; version: string; status?: ServerStatus }
  | { kind: 'failed'; message: string };

export interface StatusView {
  text: string;
  tooltip: string;
}

/** `arch` is the tessel.arch setting; `auto` defers to what the server reports. */
export function statusView(state: ServerState, arch: string): StatusView {
  switch (state.kind) {
    case 'stopped':
      return { text: '$(circle-slash) tessel', tooltip: 'The tessel language server is stopped. Click for its output.' };
    case 'starting':
      return { text: '$(sync~spin) tessel', tooltip: 'Starting the tessel language server…' };
    case 'failed':
      return { text: '$(error) tessel', tooltip: `tessel is not running: ${state.message}\nClick for the output.` };
    case 'running': {
      const reported = state.status?.arch;
      const shownArch = arch !== 'auto' ? arch : reported || 'auto';
      const gpu = state.status === undefined ? undefined : state.status.gpuAvailable;
      const gpuText = gpu === undefined ? '' : gpu ? ' $(check) GPU' : ' $(circle-slash) no GPU';
      const archSource = arch !== 'auto' ? 'from tessel.arch' : reported ? 'detected by the server' : 'not reported yet';
      const gpuLine =
        gpu === undefined ? 'GPU: not reported yet' : gpu ? 'GPU: available, Run on GPU works' : 'GPU: none, runs use the CPU interpreter';
      return {
        text: `$(chip) ${shownArch}${gpuText}`,
        tooltip: `tessel ${state.version}\nTarget: ${shownArch} (${archSource})\n${gpuLine}\nClick for the output.`,
      };
    }
  }
}
