// vscode-languageclient middleware: keeps non-Triton Python files away from the server, applies the inlay-hint
// switch at once, reports Run commands (from code lenses too) to the kernel runner, and shows the config table
// that the "+N configs" lens's command answers with.
//
// The document selector has to match all Python files (a selector cannot look at content), so every sync
// notification and feature request passes through DocumentGate first. Requests for a document the server
// has not been given are answered locally with "nothing", exactly as if tessel had nothing to say.
import type * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import { DocumentGate } from './documentGate';
import { ConfigTable, runKernelCommand, RunKernelArgs, showConfigsCommand } from './protocol';

export interface MiddlewareDeps {
  gate: DocumentGate;
  /** Sends didOpen for a document that started importing triton while being edited. */
  openLate(document: vscode.TextDocument): Promise<void>;
  inlayHintsEnabled(): boolean;
  /** Called before a `tessel.runKernel` request goes out, from the palette or a code lens. */
  runStarted(args: RunKernelArgs): void;
  /** Shows a kernel's autotune configs and their figures (the reply of `tessel.showConfigs`). */
  showConfigTable(table: ConfigTable): void;
}

export function createMiddleware(deps: MiddlewareDeps): Middleware {
  const { gate } = deps;
  const known = (doc: vscode.TextDocument) => gate.has(doc.uri.toString());
  return {
    didOpen: (doc, next) => (gate.opened(doc.uri.toString(), doc.getText()) ? next(doc) : Promise.resolve()),
    didChange: (event, next) => {
      switch (gate.changed(event.document.uri.toString(), event.document.getText())) {
        case 'forward':
          return next(event);
        case 'open':
          return deps.openLate(event.document);
        case 'ignore':
          return Promise.resolve();
      }
    },
    willSave: (event, next) => (known(event.document) ? next(event) : Promise.resolve()),
    didSave: (doc, next) => (known(doc) ? next(doc) : Promise.resolve()),
    didClose: (doc, next) => (gate.closed(doc.uri.toString()) ? next(doc) : Promise.resolve()),

    provideHover: (doc, pos, token, next) => (known(doc) ? next(doc, pos, token) : undefined),
    provideCompletionItem: (doc, pos, ctx, token, next) => (known(doc) ? next(doc, pos, ctx, token) : undefined),
    provideSignatureHelp: (doc, pos, ctx, token, next) => (known(doc) ? next(doc, pos, ctx, token) : undefined),
    provideDefinition: (doc, pos, token, next) => (known(doc) ? next(doc, pos, token) : undefined),
    provideReferences: (doc, pos, opts, token, next) => (known(doc) ? next(doc, pos, opts, token) : undefined),
    provideDocumentHighlights: (doc, pos, token, next) => (known(doc) ? next(doc, pos, token) : undefined),
    provideDocumentSymbols: (doc, token, next) => (known(doc) ? next(doc, token) : undefined),
    provideCodeActions: (doc, range, ctx, token, next) => (known(doc) ? next(doc, range, ctx, token) : undefined),
    provideCodeLenses: (doc, token, next) => (known(doc) ? next(doc, token) : undefined),
    provideFoldingRanges: (doc, ctx, token, next) => (known(doc) ? next(doc, ctx, token) : undefined),
    provideDocumentSemanticTokens: (doc, token, next) => (known(doc) ? next(doc, token) : undefined),
    provideDocumentSemanticTokensEdits: (doc, prev, token, next) => (known(doc) ? next(doc, prev, token) : undefined),
    provideDocumentRangeSemanticTokens: (doc, range, token, next) => (known(doc) ? next(doc, range, token) : undefined),
    // Pull diagnostics may name a document or only its URI; undefined reads as "no diagnostics".
    provideDiagnostics: (doc, previousResultId, token, next) =>
      gate.has(('uri' in doc ? doc.uri : doc).toString()) ? next(doc, previousResultId, token) : undefined,
    provideInlayHints: (doc, range, token, next) =>
      known(doc) && deps.inlayHintsEnabled() ? next(doc, range, token) : [],

    executeCommand: async (command, args, next) => {
      if (command === runKernelCommand && isRunArgs(args[0])) deps.runStarted(args[0]);
      const result: unknown = await next(command, args);
      if (command === showConfigsCommand && isConfigTable(result)) deps.showConfigTable(result);
      return result;
    },
  };
}

function isConfigTable(r: unknown): r is ConfigTable {
  if (typeof r !== 'object' || r === null) return false;
  const t = r as Record<string, unknown>;
  return typeof t.kernel === 'string' && typeof t.markdown === 'string';
}

function isRunArgs(a: unknown): a is RunKernelArgs {
  if (typeof a !== 'object' || a === null) return false;
  const r = a as Record<string, unknown>;
  return typeof r.uri === 'string' && typeof r.kernel === 'string' && (r.device === 'cpu' || r.device === 'gpu');
}
