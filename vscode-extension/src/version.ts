// Parses `tessel --version` output and compares it with the oldest server this extension can talk to.

/** The server must at least speak the protocol in protocol.ts. */
export const minimumServerVersion = '0.1.0';

export type Version = readonly [number, number, number];

/** Finds the first `X.Y.Z` in text such as `tessel 0.1.0` or `tessel version 0.2.3-dev (abc123)`. */
export function parseVersion(text: string): Version | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return 0;
}

export function formatVersion(v: Version): string {
  return v.join('.');
}

export type VersionCheck =
  | { ok: true; version: string }
  | { ok: false; message: string };

/** Judges the output of `<binary> --version`; the message names the binary and says how to fix it. */
export function checkServerVersion(binary: string, output: string, minimum = minimumServerVersion): VersionCheck {
  const found = parseVersion(output);
  const wanted = parseVersion(minimum);
  if (!wanted) throw new Error(`bad minimum version '${minimum}'`);
  if (!found) {
    const shown = output.trim().split('\n')[0] || '(nothing)';
    return {
      ok: false,
      message: `'${binary} --version' printed ${JSON.stringify(shown)}, not a tessel version. ` +
        `Check that tessel.path points at the tessel binary.`,
    };
  }
  if (compareVersions(found, wanted) < 0) {
    return {
      ok: false,
      message: `${binary} is tessel ${formatVersion(found)}, older than ${minimum} which this extension needs. ` +
        `Rebuild tessel (ninja -C <build> tessel) or point tessel.path at a newer binary.`,
    };
  }
  return { ok: true, version: formatVersion(found) };
}
