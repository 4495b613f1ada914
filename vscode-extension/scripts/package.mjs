// Builds the .vsix: bundles the extension, optionally copies a tessel binary into server/ (TESSEL_BIN), and runs
// vsce offline. With a bundled binary the package is platform-specific (linux-x64 and so on).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const serverDir = path.join(root, 'server');
const bin = process.env.TESSEL_BIN;

fs.rmSync(serverDir, { recursive: true, force: true });
const vsceArgs = ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository'];
let out = `${manifest.name}-${manifest.version}.vsix`;
if (bin) {
  if (!fs.existsSync(bin)) {
    console.error(`TESSEL_BIN=${bin} does not exist; build tessel first or unset TESSEL_BIN`);
    process.exit(1);
  }
  const target = `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch}`;
  fs.mkdirSync(serverDir);
  const dest = path.join(serverDir, process.platform === 'win32' ? 'tessel.exe' : 'tessel');
  fs.copyFileSync(bin, dest);
  fs.chmodSync(dest, 0o755);
  // A RelWithDebInfo build carries its debug info; users need none of it in their editor download.
  if (process.platform === 'linux') {
    try {
      execFileSync('strip', ['--strip-debug', dest]);
    } catch (e) {
      console.warn(`strip failed (${e.message}); bundling the binary unstripped`);
    }
  }
  vsceArgs.push('--target', target);
  out = `${manifest.name}-${target}-${manifest.version}.vsix`;
  console.log(`bundling ${bin} as server/${path.basename(dest)} (target ${target})`);
} else {
  console.log('TESSEL_BIN unset: packaging without a bundled server (users need tessel on PATH or tessel.path)');
}
vsceArgs.push('--out', out);

const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
run(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--production']);

// Prove the package will hold what the extension loads, and nothing from development, so a broken
// .vscodeignore fails the build here rather than in a user's editor.
const listing = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '');
const required = ['package.json', 'dist/extension.js', 'README.md'];
if (bin) required.push(`server/${process.platform === 'win32' ? 'tessel.exe' : 'tessel'}`);
const missing = required.filter((f) => !listing.includes(f));
if (missing.length > 0) {
  console.error(`the package would lack ${missing.join(', ')}`);
  process.exit(1);
}
const leaked = listing.filter((l) => /^(src|test|node_modules|out|scripts)\//.test(l) || l.endsWith('.map'));
if (leaked.length > 0) {
  console.error(`the package would contain development files: ${leaked.slice(0, 5).join(', ')}`);
  process.exit(1);
}

run(process.execPath, [vsce, ...vsceArgs]);
if (!fs.existsSync(path.join(root, out))) {
  console.error(`vsce did not write ${out}`);
  process.exit(1);
}
console.log(`packaged ${out}: ${listing.join(', ')}`);
