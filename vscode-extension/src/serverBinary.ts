// Locates the tessel binary on this machine and checks `tessel --version` before the client starts it.
//
// Node-only (no `vscode`), so the unit tests run it against real executables they write to a temp folder.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { discoverServer, ServerSource } from './discovery';
import { checkServerVersion, minimumServerVersion } from './version';

export type Located =
  | { ok: true; path: string; source: ServerSource; version: string }
  | { ok: false; message: string };

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** How long `tessel --version` may take; a binary that hangs here would hang the language server too. */
const versionTimeoutMs = 10_000;

/** Runs `<binary> --version` and returns what it printed, or rejects with a sentence saying what went wrong. */
export function readVersionOutput(binary: string, timeoutMs = versionTimeoutMs): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, ['--version'], { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
      if (err) {
        const detail = (stderr || err.message).trim().split('\n')[0];
        reject(new Error(`'${binary} --version' failed: ${detail}`));
        return;
      }
      resolve(stdout + stderr);
    });
  });
}

export async function locateServer(
  setting: string,
  extensionDir: string,
  env: NodeJS.ProcessEnv = process.env,
  minimum = minimumServerVersion,
): Promise<Located> {
  const found = discoverServer({
    setting,
    pathEnv: env.PATH ?? env.Path,
    extensionDir,
    platform: process.platform,
    homeDir: os.homedir(),
    isExecutable: isExecutableFile,
  });
  if (!found.found) return { ok: false, message: found.message };
  let output: string;
  try {
    output = await readVersionOutput(found.path);
  } catch (e) {
    return { ok: false, message: `${(e as Error).message}. Check tessel.path (found through ${found.source}).` };
  }
  const check = checkServerVersion(found.path, output, minimum);
  if (!check.ok) return { ok: false, message: check.message };
  return { ok: true, path: found.path, source: found.source, version: check.version };
}
