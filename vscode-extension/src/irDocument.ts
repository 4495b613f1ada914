// Names and contents of the read-only IR documents (`tessel-ir:` URIs) that Show Tile IR / LLVM IR / PTX / SASS open.
//
// The URI carries everything needed to ask the server again (source document, kernel, kind, config), so the
// content provider can re-request after every edit without remembering which command opened the view,
// as rust-analyzer's viewHir documents do.
import type { IRKind } from './protocol';

export const irScheme = 'tessel-ir';

export interface IRTarget {
  /** URI of the Python document, as a string. */
  source: string;
  kernel: string;
  kind: IRKind;
  config?: number;
}

const extensions: Record<IRKind, string> = { tir: 'tir', llvm: 'll', ptx: 'ptx', sass: 'sass' };
const titles: Record<IRKind, string> = { tir: 'Tile IR', llvm: 'LLVM IR', ptx: 'PTX', sass: 'SASS' };
const commentPrefix: Record<IRKind, string> = { tir: '//', llvm: ';', ptx: '//', sass: '//' };

export function irTitle(kind: IRKind): string {
  return titles[kind];
}

/** The path and query of the virtual document; config.ts-free so both directions are unit-tested. */
export function encodeIRTarget(t: IRTarget): { path: string; query: string } {
  const q = new URLSearchParams({ source: t.source, kernel: t.kernel, kind: t.kind });
  if (t.config !== undefined) q.set('config', String(t.config));
  const suffix = t.config !== undefined ? `.config${t.config}` : '';
  return { path: `/${t.kernel}${suffix}.${extensions[t.kind]}`, query: q.toString() };
}

export function decodeIRTarget(query: string): IRTarget | undefined {
  const q = new URLSearchParams(query);
  const source = q.get('source');
  const kernel = q.get('kernel');
  const kind = q.get('kind');
  if (!source || !kernel || !isIRKind(kind)) return undefined;
  const config = q.get('config');
  if (config === null) return { source, kernel, kind };
  const n = Number(config);
  if (!Number.isInteger(n) || n < 0) return undefined;
  return { source, kernel, kind, config: n };
}

function isIRKind(k: string | null): k is IRKind {
  return k === 'tir' || k === 'llvm' || k === 'ptx' || k === 'sass';
}

/** The text shown in place of IR the server could not produce, as a comment in that IR's syntax. */
export function irErrorText(t: IRTarget, message: string): string {
  const c = commentPrefix[t.kind];
  const lines = [
    `${c} tessel could not produce ${titles[t.kind]} for kernel '${t.kernel}'` +
      (t.config !== undefined ? ` (config ${t.config})` : '') + ':',
    ...message.split('\n').flatMap((l) => wrap(l, wrapWidth)).map((l) => `${c}   ${l}`),
    `${c} This view refreshes when the source changes.`,
  ];
  return lines.join('\n') + '\n';
}

/** Server messages are one long sentence; the view is usually half the editor wide. */
const wrapWidth = 88;

/** Splits `line` at spaces into pieces of at most `width` characters (a longer word stays whole). */
export function wrap(line: string, width: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  out.push(current);
  return out;
}
