// Finds the tessel binary: the `tessel.path` setting, then PATH, then the copy bundled in the .vsix.
//
// Pure apart from the injected file test, so every branch is unit-tested without touching the disk.
// An explicit setting that points nowhere is an error, not a reason to fall back: the user asked for that
// binary, and silently running another one would hide the mistake (clangd's `clangd.path` behaves the same).
import * as path from 'node:path';

export interface DiscoveryInput {
  /** The `tessel.path` setting, possibly empty or starting with `~`. */
  setting: string;
  /** The PATH environment variable. */
  pathEnv: string | undefined;
  /** The extension's install folder; a bundled server lives in `server/` inside it. */
  extensionDir: string;
  platform: NodeJS.Platform;
  homeDir: string;
  /** True when `file` exists, is a regular file and may be executed. */
  isExecutable(file: string): boolean;
}

export type ServerSource = 'setting' | 'PATH' | 'bundled';

export type Discovery =
  | { found: true; path: string; source: ServerSource }
  | { found: false; message: string; tried: string[] };

export function binaryName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'tessel.exe' : 'tessel';
}

export function bundledServerPath(extensionDir: string, platform: NodeJS.Platform): string {
  return pathApi(platform).join(extensionDir, 'server', binaryName(platform));
}

export function discoverServer(input: DiscoveryInput): Discovery {
  const p = pathApi(input.platform);
  const setting = input.setting.trim();
  if (setting !== '') {
    const expanded = expandHome(setting, input.homeDir, p);
    if (input.isExecutable(expanded)) return { found: true, path: expanded, source: 'setting' };
    return {
      found: false,
      tried: [expanded],
      message: `tessel.path is set to '${setting}', but no executable file is there. ` +
        `Fix the setting (for a source build: <build>/tools/tessel) or clear it to use tessel from PATH.`,
    };
  }

  const tried: string[] = [];
  const name = binaryName(input.platform);
  for (const dir of (input.pathEnv ?? '').split(p.delimiter)) {
    if (dir === '') continue;
    const candidate = p.join(dir, name);
    tried.push(candidate);
    if (input.isExecutable(candidate)) return { found: true, path: candidate, source: 'PATH' };
  }

  const bundled = bundledServerPath(input.extensionDir, input.platform);
  tried.push(bundled);
  if (input.isExecutable(bundled)) return { found: true, path: bundled, source: 'bundled' };

  return {
    found: false,
    tried,
    message: `No tessel language server found: tessel.path is empty, '${name}' is not on PATH, and this ` +
      `extension has no bundled server. Build tessel (cmake -S . -B build -G Ninja && ninja -C build tessel), ` +
      `then set tessel.path to <build>/tools/tessel or put that folder on PATH.`,
  };
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function expandHome(file: string, home: string, p: path.PlatformPath): string {
  if (file === '~') return home;
  if (file.startsWith('~/') || file.startsWith('~\\')) return p.join(home, file.slice(2));
  return file;
}
