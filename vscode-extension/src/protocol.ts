// tessel's custom LSP extensions (see docs/lsp-extensions.md), typed once for the extension and its tests.
//
// This module imports vscode-jsonrpc only, never `vscode`, so the integration test drives the server with
// exactly the message types the extension sends.
import { NotificationType, RequestType } from 'vscode-jsonrpc';

export type IRKind = 'tir' | 'llvm' | 'ptx' | 'sass';
export const irKinds: readonly IRKind[] = ['tir', 'llvm', 'ptx', 'sass'];

/** `auto`: the GPU when the server's machine has one, else the CPU interpreter (the server decides). */
export type Device = 'cpu' | 'gpu' | 'auto';

export interface ViewIRParams {
  textDocument: { uri: string };
  kernel: string;
  config?: number;
  kind: IRKind;
}

export interface ViewIRResult {
  text: string;
  languageId: string;
}

export const viewIRRequest = new RequestType<ViewIRParams, ViewIRResult, void>('tessel/viewIR');

/** The server-side command behind Run code lenses, run through workspace/executeCommand. */
export const runKernelCommand = 'tessel.runKernel';

/** The server-side command behind the "+N configs" code lens: every autotune config with its figures. */
export const showConfigsCommand = 'tessel.showConfigs';
export interface ConfigTable {
  kernel: string;
  markdown: string;
}

export interface RunKernelArgs {
  uri: string;
  kernel: string;
  device: Device;
  config?: number;
}

/** What the server read from the run's report: the verdict, and on the GPU the time and % of the device's peak. */
export interface RunSummary {
  /** One line, e.g. `GPU ✓ 3 instances match the interpreter · n=98432: 0.0123 ms, 96 GB/s (2% of peak)`. */
  text: string;
  ok: boolean;
  device: 'cpu' | 'gpu';
  medianMillis?: number;
  gbPerSecond?: number;
  fractionOfPeakBandwidth?: number | null;
  tflopsPerSecond?: number;
  fractionOfPeakTflops?: number | null;
  /** With the tessel.run.triton setting: Triton's run beside tessel's (its verdict ends `text`). */
  triton?: {
    version: string | null;
    error: string | null;
    ran?: number;
    differ?: number;
    refused?: number;
    speedVsTriton?: number;
  };
}

export interface RunResult {
  uri: string;
  kernel: string;
  /** The device the run used: a `gpu` or `auto` request runs on the CPU where there is no GPU (see `note`). */
  device: Device;
  exitCode: number;
  output: string;
  summary?: RunSummary;
  /** Why the run is not on the device asked for. */
  note?: string;
}

export const runResultNotification = new NotificationType<RunResult>('tessel/runResult');

export const tuneKernelCommand = 'tessel.tuneKernel';

/** `tessel/tuneResult`: a finished (or failed, or cancelled) Tune; docs/lsp-extensions.md. */
export interface TuneResult {
  uri: string;
  kernel: string;
  device: Device;
  complete: boolean;
  markdown?: string;
  keep?: number[];
  exitCode: number;
  cancelled: boolean;
  output: string;
}

export const tuneResultNotification = new NotificationType<TuneResult>('tessel/tuneResult');

export interface ServerStatus {
  gpuAvailable: boolean;
  arch: string;
}

export const serverStatusNotification = new NotificationType<ServerStatus>('tessel/serverStatus');

/** LSP 3.17 RequestFailed: the server uses it for views that are not implemented yet. */
export const requestFailedCode = -32803;

export interface TesselCapabilities {
  viewIR: boolean;
  runKernel: boolean;
}

/** Reads `experimental.tessel` from the server's capabilities; anything missing or malformed means "not offered". */
export function tesselCapabilities(serverCapabilities: unknown): TesselCapabilities {
  const tessel = field(field(serverCapabilities, 'experimental'), 'tessel');
  return {
    viewIR: field(tessel, 'viewIR') === true,
    runKernel: field(tessel, 'runKernel') === true,
  };
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}
