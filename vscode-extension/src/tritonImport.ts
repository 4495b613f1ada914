// Decides from a document's text alone whether it is a Triton file, cheaply enough to run on every open.
//
// The extension starts the server only for such files and keeps every other Python file away from it, so
// a false negative hides tessel from a kernel author and a false positive wastes a server on a plain script.
// Matches `import triton`, `import triton.language as tl`, `import os, triton`, `from triton import jit`
// and `from triton.language import ...` at any indentation (imports inside `try:` blocks count).
const importLine = /^[ \t]*(?:import[ \t]+[^#\n]*\btriton\b|from[ \t]+triton(?:\.[\w.]+)?[ \t]+import\b)/m;

export function importsTriton(text: string): boolean {
  return importLine.test(text);
}
