// A minimal LSP client over vscode-jsonrpc for the integration test: spawns `tessel lsp --stdio`, answers the
// server's requests the way vscode-languageclient would, and lets the test wait for notifications.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import {
  createMessageConnection,
  MessageConnection,
  NotificationType,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

/** Why the integration test cannot run here, or undefined when it can. */
export async function whyNoServer(bin: string | undefined): Promise<string | undefined> {
  if (!bin) return 'TESSEL_BIN is not set; point it at <build>/tools/tessel (ctest sets it)';
  if (!fs.existsSync(bin)) return `TESSEL_BIN=${bin} does not exist; build it with ninja -C <build> tessel`;
  const help = await new Promise<{ code: number | null; text: string }>((resolve) => {
    execFile(bin, ['lsp', '--help'], { timeout: 10_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, text: stdout + stderr });
    });
  });
  // Only the dispatcher's own "unknown command" means the subcommand is absent; any other failure is a bug
  // in the server and must fail the test rather than hide behind a skip.
  if (/unknown command 'lsp'/.test(help.text)) return `${bin} has no 'lsp' subcommand yet (the server is being written)`;
  return undefined;
}

interface Waiter<P> {
  accept(params: P): boolean;
  resolve(params: P): void;
}

export class LspSession {
  readonly connection: MessageConnection;
  readonly process: ChildProcess;
  stderr = '';
  /** Settings returned for workspace/configuration, like vscode-languageclient reading `tessel.*`. */
  settings: unknown = {};
  private readonly waiters = new Map<string, Waiter<unknown>[]>();
  private readonly seen = new Map<string, unknown[]>();

  /** `args` are the ones the extension passes (settings.ts serverArgs). */
  constructor(bin: string, args: string[]) {
    this.process = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.process.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.connection = createMessageConnection(
      new StreamMessageReader(this.process.stdout!),
      new StreamMessageWriter(this.process.stdin!),
    );
    this.connection.onNotification((method: string, params: unknown) => this.notified(method, params));
    this.connection.onRequest((method: string, params: unknown) => {
      if (method === 'workspace/configuration') {
        const items = (params as { items?: { section?: string }[] }).items ?? [];
        return items.map((i) => (i.section === 'tessel' ? this.settings : null));
      }
      // workDoneProgress/create, client/registerCapability, refresh requests: accepted, as VS Code does.
      return null;
    });
    this.connection.listen();
  }

  /** Resolves with the first notification of `type` (already received or future) that `accept` takes. */
  waitFor<P>(type: NotificationType<P> | string, accept: (p: P) => boolean, timeoutMs: number): Promise<P> {
    const method = typeof type === 'string' ? type : type.method;
    const earlier = (this.seen.get(method) ?? []) as P[];
    const hit = earlier.find(accept);
    if (hit !== undefined) return Promise.resolve(hit);
    return new Promise<P>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no ${method} notification within ${timeoutMs} ms; server stderr:\n${this.stderr.slice(-2000)}`));
      }, timeoutMs);
      const list = this.waiters.get(method) ?? [];
      list.push({
        accept: accept as (p: unknown) => boolean,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p as P);
        },
      });
      this.waiters.set(method, list);
    });
  }

  /** Forgets notifications received so far, so the next waitFor sees only newer ones. */
  forget(method: string): void {
    this.seen.delete(method);
  }

  exited(timeoutMs: number): Promise<number | null> {
    if (this.process.exitCode !== null) return Promise.resolve(this.process.exitCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server still running ${timeoutMs} ms after exit`)), timeoutMs);
      this.process.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  kill(): void {
    this.connection.dispose();
    if (this.process.exitCode === null) this.process.kill('SIGKILL');
  }

  private notified(method: string, params: unknown): void {
    const list = this.seen.get(method) ?? [];
    list.push(params);
    this.seen.set(method, list);
    const waiters = this.waiters.get(method) ?? [];
    const remaining = waiters.filter((w) => {
      if (!w.accept(params)) return true;
      w.resolve(params);
      return false;
    });
    this.waiters.set(method, remaining);
  }
}
