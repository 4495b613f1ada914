// Turns a `tessel/runResult` notification into the output-channel block and the one-line summary the user sees.
import type { Device, RunResult } from './protocol';

export interface FormattedRun {
  /** Appended to the Tessel Run output channel. */
  block: string;
  /** Shown in a notification. */
  summary: string;
  ok: boolean;
}

export function deviceLabel(device: Device): string {
  return device === 'gpu' ? 'GPU' : device === 'auto' ? 'the GPU if present' : 'CPU';
}

/**
 * Where a run will go, for the progress toast: a GPU or `auto` run on a server that reported no GPU runs on the CPU
 * interpreter (the server falls back), so the toast says so rather than "GPU".
 */
export function runTargetLabel(device: Device, gpuAvailable: boolean | undefined): string {
  if (device !== 'cpu' && gpuAvailable === false) return 'CPU (no GPU on this machine)';
  if (device === 'auto' && gpuAvailable === true) return 'GPU';
  return deviceLabel(device);
}

/** The last path segment of a URI, decoded: `file:///a/b%20c.py` -> `b c.py`. */
export function uriBaseName(uri: string): string {
  const segment = uri.split(/[?#]/)[0].split('/').filter((s) => s !== '').pop() ?? uri;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * `elapsedMs` is measured by the extension from the command to the notification, when the run was started
 * from here (code lens runs go through the same path, see middleware.ts).
 */
export function formatRunResult(r: RunResult, elapsedMs?: number, now: Date = new Date()): FormattedRun {
  const ok = r.exitCode === 0;
  const where = `${r.kernel} on ${deviceLabel(r.device)} (${uriBaseName(r.uri)})`;
  const time = elapsedMs !== undefined ? `, ${formatDuration(elapsedMs)}` : '';
  const header = `[${now.toISOString()}] ${where}: exit code ${r.exitCode}${time}`;
  const output = r.output.endsWith('\n') || r.output === '' ? r.output : r.output + '\n';
  const note = r.note ? `note: ${r.note}\n` : '';
  const verdict = r.summary ? `summary: ${r.summary.text}\n` : '';
  const block = `${header}\n${note}${output === '' ? '(no output)\n' : output}${verdict}\n`;
  const firstLine = firstMeaningfulLine(r.output);
  // The server's summary says the verdict, the time and the % of peak; the output's lines are the fallback.
  const summary = r.summary
    ? `${r.kernel}: ${r.summary.text}.` + (r.note ? ` (${r.note})` : '')
    : ok
      ? `${r.kernel} ran on ${deviceLabel(r.device)}${time.replace(', ', ' in ')}.`
      : `${r.kernel} failed on ${deviceLabel(r.device)} (exit code ${r.exitCode})` + (firstLine ? `: ${firstLine}` : '.');
  return { block, summary, ok: r.summary ? r.summary.ok && ok : ok };
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

const summaryLimit = 160;

/** The first line that says something, preferring one that names an error. */
function firstMeaningfulLine(output: string): string | undefined {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const line = lines.find((l) => /error|fail|out of bounds|fault/i.test(l)) ?? lines[0];
  if (line === undefined) return undefined;
  return line.length > summaryLimit ? line.slice(0, summaryLimit - 1) + '…' : line;
}
