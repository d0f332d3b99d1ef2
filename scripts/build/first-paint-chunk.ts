/**
 * One chunk for what the evidence panel needs at its first paint. Left to itself the bundler splits the modules the
 * extension's pages share into many small chunks (fourteen for the panel, five now), and every chunk is one more
 * request the page's parser starts on its main thread before the panel's code runs; on a busy two-core machine that
 * was a large part of the panel's first paint (docs/benchmarks.md, "Issue 27, fourth pass"). Here the shared modules
 * in the static import graph of one entry go into one chunk; modules it imports only dynamically, and modules no
 * other page shares, are split as before.
 */

/** The graph of the bundle as the bundler's chunking context reports it. */
export interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** Every module `entry` imports statically, directly or not, itself included (empty when the graph lacks it). */
export function staticGraph(graph: ModuleGraph, entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = graph.getModuleInfo(entry) ? [entry] : [];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of graph.getModuleInfo(id)?.importedIds ?? []) if (!seen.has(next)) queue.push(next);
  }
  return seen;
}

/**
 * The bundler's `codeSplitting` options that put the modules shared by several pages and statically imported by the
 * module `entry` (an absolute file path) into one chunk named `name`.
 */
export function firstPaintChunk(entry: string, name: string) {
  let graph: Set<string> | null = null;
  return {
    groups: [
      // The bundler's helper of dynamic imports is no page's own import, so no graph shows it; as a dependency of this
      // chunk's modules it would be taken into it, and every page with a dynamic import would load the chunk for it
      // (the PDF viewer's entry, a few kilobytes that open the PDF before anything else loads, would load 103 KiB).
      { name: 'preload-helper', test: /^\0vite\/preload-helper/, priority: 2 },
      {
        priority: 1,
        name: (id: string, ctx: ModuleGraph): string | null => {
          graph ??= staticGraph(ctx, entry);
          return graph.has(id) ? name : null;
        },
        minShareCount: 2,
      },
    ],
  };
}
