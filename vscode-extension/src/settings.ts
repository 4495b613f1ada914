// The extension's settings as plain data: defaults, validation, what the server is sent, and what a change needs.
//
// Kept free of `vscode` so the rules are unit-tested; config.ts feeds it `WorkspaceConfiguration.get`.
import type { Device } from './protocol';

export interface TesselSettings {
  path: string;
  /** `auto` or an `sm_XX` target. */
  arch: string;
  inlayHintsEnable: boolean;
  /** The server's JIT tier: background compiles for the code lenses' figures and TS401-TS403. */
  jitEnable: boolean;
  runDevice: Device;
  /** Run also through Triton itself (`tessel run --triton`), compared and timed beside tessel. */
  runTriton: boolean;
  /** Where Run goes (`tessel run --runner`): `local`, `ssh://[user@]host[:port]`, `slurm://PARTITION`; '' for here. */
  defaultRunner: string;
  /** Where Tune spreads its runs (`tessel tune --runner`, each); empty: the default runner, else this machine. */
  runners: string[];
  traceServer: 'off' | 'messages' | 'verbose';
}

export const defaultSettings: TesselSettings = {
  path: '',
  arch: 'auto',
  inlayHintsEnable: true,
  jitEnable: true,
  runDevice: 'cpu',
  runTriton: false,
  defaultRunner: '',
  runners: [],
  traceServer: 'off',
};

export interface ParsedSettings {
  settings: TesselSettings;
  /** One sentence per rejected value; the default was used instead. */
  problems: string[];
}

/** The targets `tessel lsp --arch` accepts today; `auto` lets the server choose (sm_90 without a GPU). */
export const supportedArchs = ['auto', 'sm_80', 'sm_90'] as const;

/** `get(key)` returns the raw value of `tessel.<key>`, or undefined when unset. */
export function parseSettings(get: (key: string) => unknown): ParsedSettings {
  const problems: string[] = [];
  const pick = <T>(key: string, fallback: T, ok: (v: unknown) => v is T, hint: string): T => {
    const value = get(key);
    if (value === undefined || value === null) return fallback;
    if (ok(value)) return value;
    problems.push(`tessel.${key}: ${JSON.stringify(value)} is not ${hint}; using ${JSON.stringify(fallback)}`);
    return fallback;
  };
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
  const isArch = (v: unknown): v is string => typeof v === 'string' && (supportedArchs as readonly string[]).includes(v);
  const isDevice = (v: unknown): v is Device => v === 'cpu' || v === 'gpu' || v === 'auto';
  const isRunners = (v: unknown): v is string[] => Array.isArray(v) && v.every((r) => typeof r === 'string' && r !== '');
  const isTrace = (v: unknown): v is TesselSettings['traceServer'] =>
    v === 'off' || v === 'messages' || v === 'verbose';

  return {
    settings: {
      path: pick('path', defaultSettings.path, isString, 'a string'),
      arch: pick('arch', defaultSettings.arch, isArch, `one of ${supportedArchs.join(', ')}`),
      inlayHintsEnable: pick('inlayHints.enable', defaultSettings.inlayHintsEnable, isBool, 'true or false'),
      jitEnable: pick('jit.enable', defaultSettings.jitEnable, isBool, 'true or false'),
      runDevice: pick('run.device', defaultSettings.runDevice, isDevice, "'cpu', 'gpu' or 'auto'"),
      runTriton: pick('run.triton', defaultSettings.runTriton, isBool, 'true or false'),
      defaultRunner: pick('defaultRunner', defaultSettings.defaultRunner, isString, 'a string'),
      runners: pick('runners', defaultSettings.runners, isRunners, 'a list of runner names'),
      traceServer: pick('trace.server', defaultSettings.traceServer, isTrace, "'off', 'messages' or 'verbose'"),
    },
    problems,
  };
}

/**
 * The server's command line. The target is fixed when the server starts (`--arch`), so changing it
 * restarts the server; `--clientProcessId` makes the server exit if the editor dies without saying so.
 */
export function serverArgs(s: TesselSettings, clientPid?: number): string[] {
  const args = ['lsp', '--stdio'];
  if (s.arch !== 'auto') args.push(`--arch=${s.arch}`);
  if (clientPid !== undefined) args.push(`--clientProcessId=${clientPid}`);
  return args;
}

/** What the server receives, in initializationOptions and in workspace/didChangeConfiguration. */
export interface ServerSettings {
  arch: string;
  inlayHints: { enable: boolean };
  jit: { enable: boolean };
  /** The server adds `--triton` to every Run (code lenses too) while this is on. */
  run: { triton: boolean };
  /** Run's and Tune's runners (docs/runners.md); the server passes them to `tessel run` and `tessel tune`. */
  defaultRunner: string;
  runners: string[];
}

export function serverSettings(s: TesselSettings): ServerSettings {
  return {
    arch: s.arch,
    inlayHints: { enable: s.inlayHintsEnable },
    jit: { enable: s.jitEnable },
    run: { triton: s.runTriton },
    defaultRunner: s.defaultRunner,
    runners: s.runners,
  };
}

/**
 * What a configuration change requires, most disruptive first:
 * - `restart`: a different binary may be chosen, or the target (a command-line flag) changed;
 * - `notify`: the running server is told through workspace/didChangeConfiguration;
 * - `client`: only the extension reads it (run device; trace, which vscode-languageclient applies itself);
 * - `none`: not ours.
 */
export type ChangeAction = 'restart' | 'notify' | 'client' | 'none';

export function changeAction(affects: (section: string) => boolean): ChangeAction {
  if (affects('tessel.path') || affects('tessel.arch')) return 'restart';
  if (
    affects('tessel.inlayHints') ||
    affects('tessel.jit') ||
    affects('tessel.run.triton') ||
    affects('tessel.defaultRunner') ||
    affects('tessel.runners')
  )
    return 'notify';
  if (affects('tessel')) return 'client';
  return 'none';
}
