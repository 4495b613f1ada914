// Finds `@jit` kernels in Python text by lines, so Run and Show IR can pick the kernel under the cursor.
//
// A kernel is a `def` whose decorators include one whose dotted name ends in `jit` (`@triton.jit`, `@jit`,
// `@triton.jit(do_not_specialize=[...])`), possibly under `@triton.autotune(...)` or `@triton.heuristics(...)`
// whose arguments span many lines. This is a line scan, not a parser: the server knows the real kernels,
// and the extension needs only names and line spans, even while the file is half-typed.

export interface KernelDef {
  name: string;
  /** 0-based line of the first decorator. */
  startLine: number;
  /** 0-based line of `def`. */
  defLine: number;
  /** 0-based last line of the body (last non-blank line before the next statement at the def's indentation). */
  endLine: number;
}

const decoratorRe = /^([ \t]*)@[ \t]*([\w.]+)/;
const defRe = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)/;

export function findKernels(text: string): KernelDef[] {
  const lines = text.split(/\r?\n/);
  const kernels: KernelDef[] = [];
  let i = 0;
  while (i < lines.length) {
    const deco = decoratorRe.exec(lines[i]);
    if (!deco) {
      i++;
      continue;
    }
    const startLine = i;
    let isJit = false;
    // Consume the decorator block: each decorator may continue over lines until its brackets close.
    while (i < lines.length) {
      const d = decoratorRe.exec(lines[i]);
      if (!d) break;
      if (d[2].split('.').pop() === 'jit') isJit = true;
      i = skipBracketed(lines, i);
    }
    const def = i < lines.length ? defRe.exec(lines[i]) : null;
    if (!def || !isJit) continue;
    const indent = def[1].length;
    const bodyStart = skipBracketed(lines, i);
    kernels.push({ name: def[2], startLine, defLine: i, endLine: endOfBlock(lines, bodyStart, indent, i) });
    i = bodyStart;
  }
  return kernels;
}

/** The kernel whose lines contain `line`, if any. */
export function kernelAt(kernels: readonly KernelDef[], line: number): KernelDef | undefined {
  return kernels.find((k) => k.startLine <= line && line <= k.endLine);
}

/** Returns the index after the logical line starting at `start` (brackets may carry it over several lines). */
function skipBracketed(lines: string[], start: number): number {
  let depth = 0;
  let i = start;
  do {
    depth += bracketDelta(lines[i]);
    i++;
  } while (depth > 0 && i < lines.length);
  return i;
}

function bracketDelta(line: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let j = 0; j < line.length; j++) {
    const c = line[j];
    if (quote) {
      if (c === '\\') j++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '#') break;
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
  }
  return depth;
}

function endOfBlock(lines: string[], from: number, indent: number, defLine: number): number {
  let last = defLine;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    const lineIndent = line.length - line.trimStart().length;
    if (lineIndent <= indent && !line.trimStart().startsWith('#')) break;
    last = i;
  }
  return last;
}
