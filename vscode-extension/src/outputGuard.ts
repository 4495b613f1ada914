// An output channel that goes quiet once closed, instead of throwing.
//
// On reload or window close the extension host closes output channels on its own schedule, while the server
// process can still flush stderr into them (vscode-languageclient appends every chunk): each such append threw
// "Channel has been closed" into the extension host log. The wrapper drops writes after its own dispose() or
// after the first such error. Free of `vscode` so the rule is unit-tested.

/** Wraps `channel` (any object with methods and a dispose()); non-function properties pass through. */
export function guardOutput<T extends { dispose(): void }>(channel: T): T {
  let closed = false;
  return new Proxy(channel, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'dispose') {
        return () => {
          closed = true;
          target.dispose();
        };
      }
      return (...args: unknown[]) => {
        if (closed) return undefined;
        try {
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (e) {
          if (!/closed|disposed/i.test(String((e as Error)?.message ?? e))) throw e;
          closed = true;
          return undefined;
        }
      };
    },
  });
}
