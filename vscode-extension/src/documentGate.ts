// Decides which Python documents the server may see: those that import triton, from the first such moment on.
//
// vscode-languageclient syncs every document its selector matches; the middleware (middleware.ts) asks this
// gate before forwarding didOpen/didChange/didSave/didClose and feature requests, so plain Python files never
// reach the server. A file that gains `import triton` while being edited is opened on the server at that edit;
// one that loses it stays open until closed, so diagnostics do not flicker while the user retypes the import.
import { importsTriton } from './tritonImport';

export type ChangeDecision = 'forward' | 'open' | 'ignore';

export class DocumentGate {
  private readonly open = new Set<string>();

  /** Called on didOpen: true when the server should receive the document. */
  opened(uri: string, text: string): boolean {
    if (!importsTriton(text)) return false;
    this.open.add(uri);
    return true;
  }

  /** Called on didChange with the text after the change. */
  changed(uri: string, text: string): ChangeDecision {
    if (this.open.has(uri)) return 'forward';
    if (!importsTriton(text)) return 'ignore';
    this.open.add(uri);
    return 'open';
  }

  /** Called on didClose: true when the server had the document and must be told. */
  closed(uri: string): boolean {
    return this.open.delete(uri);
  }

  has(uri: string): boolean {
    return this.open.has(uri);
  }

  /** The server forgot everything (restart); documents are re-announced as the client reopens them. */
  reset(): void {
    this.open.clear();
  }
}
