// Chooses the kernel a command acts on: explicit arguments, else the kernel under the cursor, else a quick pick.
import * as vscode from 'vscode';
import { findKernels, kernelAt } from './kernels';

export interface KernelTarget {
  document: vscode.TextDocument;
  kernel: string;
  config?: number;
}

/** Arguments a code lens or another extension may pass: `{uri, kernel, config?}` as in protocol.ts. */
interface KernelArgs {
  uri?: unknown;
  kernel?: unknown;
  config?: unknown;
}

export async function pickKernel(args: unknown): Promise<KernelTarget | undefined> {
  const explicit = await fromArgs(args);
  if (explicit) return explicit;

  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') {
    void vscode.window.showErrorMessage('Tessel: open a Python file with a @triton.jit kernel first.');
    return undefined;
  }
  const kernels = findKernels(editor.document.getText());
  if (kernels.length === 0) {
    void vscode.window.showErrorMessage('Tessel: no @triton.jit kernel in this file.');
    return undefined;
  }
  const atCursor = kernelAt(kernels, editor.selection.active.line) ?? (kernels.length === 1 ? kernels[0] : undefined);
  if (atCursor) return { document: editor.document, kernel: atCursor.name };

  const picked = await vscode.window.showQuickPick(
    kernels.map((k) => ({ label: k.name, description: `line ${k.defLine + 1}` })),
    { placeHolder: 'Which kernel?' },
  );
  return picked && { document: editor.document, kernel: picked.label };
}

async function fromArgs(args: unknown): Promise<KernelTarget | undefined> {
  if (typeof args !== 'object' || args === null) return undefined;
  const a = args as KernelArgs;
  if (typeof a.uri !== 'string' || typeof a.kernel !== 'string') return undefined;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(a.uri));
  const config = typeof a.config === 'number' ? a.config : undefined;
  return { document, kernel: a.kernel, config };
}
