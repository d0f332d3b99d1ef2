import { describe, expect, it } from 'vitest';
import { firstPaintChunk, staticGraph, type ModuleGraph } from '../../../scripts/build/first-paint-chunk';

/** A module graph from a list of static imports by module id (dynamic imports are not in `importedIds`). */
function graphOf(imports: Record<string, string[]>): ModuleGraph {
  return { getModuleInfo: (id) => (id in imports ? { importedIds: imports[id]! } : null) };
}

const GRAPH = graphOf({
  '/p/entrypoints/sidepanel/main.tsx': ['/p/components/panel/PanelApp.tsx', '/p/lib/i18n/index.ts'],
  '/p/components/panel/PanelApp.tsx': ['/p/lib/survey/rows.ts', '/p/node_modules/preact/dist/preact.mjs'],
  '/p/lib/survey/rows.ts': ['/p/lib/taxonomy/index.ts'],
  '/p/lib/taxonomy/index.ts': ['/p/lib/survey/rows.ts'],
  '/p/lib/i18n/index.ts': [],
  '/p/node_modules/preact/dist/preact.mjs': [],
  '/p/entrypoints/options/main.tsx': ['/p/lib/i18n/index.ts', '/p/lib/schema/index.ts'],
  '/p/lib/schema/index.ts': ['/p/node_modules/zod/index.js'],
  '/p/node_modules/zod/index.js': [],
});

describe('staticGraph', () => {
  it('follows static imports through every level, cycles included, and nothing the entry does not reach', () => {
    expect([...staticGraph(GRAPH, '/p/entrypoints/sidepanel/main.tsx')].sort()).toEqual([
      '/p/components/panel/PanelApp.tsx',
      '/p/entrypoints/sidepanel/main.tsx',
      '/p/lib/i18n/index.ts',
      '/p/lib/survey/rows.ts',
      '/p/lib/taxonomy/index.ts',
      '/p/node_modules/preact/dist/preact.mjs',
    ]);
  });

  it('is empty for an entry the graph does not hold', () => {
    expect(staticGraph(GRAPH, '/p/entrypoints/missing/main.tsx').size).toBe(0);
  });
});

/** The group that names the chunk (the other one only sets the bundler's preload helper apart). */
function chunkGroup(options: ReturnType<typeof firstPaintChunk>) {
  const group = options.groups.find((g) => typeof g.name === 'function');
  if (!group || typeof group.name !== 'function') throw new Error('no naming group');
  return group as typeof group & { name: (id: string, ctx: ModuleGraph) => string | null };
}

describe('firstPaintChunk', () => {
  it("sets the bundler's helper of dynamic imports apart, before the chunk's group takes its modules' dependencies", () => {
    const options = firstPaintChunk('/p/entrypoints/sidepanel/main.tsx', 'panel-common');
    const helper = options.groups.find((g) => g.name === 'preload-helper');
    expect(helper?.test?.test('\0vite/preload-helper.js')).toBe(true);
    expect(helper!.priority).toBeGreaterThan(chunkGroup(options).priority!);
  });

  it("names the entry's static graph for the chunk, leaves every other module to the bundler, and takes only shared modules", () => {
    const group = chunkGroup(firstPaintChunk('/p/entrypoints/sidepanel/main.tsx', 'panel-common'));
    expect(group.minShareCount).toBe(2);
    expect(group.name('/p/lib/i18n/index.ts', GRAPH)).toBe('panel-common');
    expect(group.name('/p/node_modules/preact/dist/preact.mjs', GRAPH)).toBe('panel-common');
    expect(group.name('/p/lib/schema/index.ts', GRAPH)).toBeNull();
    expect(group.name('/p/node_modules/zod/index.js', GRAPH)).toBeNull();
  });

  it('reads the graph once, however many modules the bundler asks about', () => {
    let reads = 0;
    const counting: ModuleGraph = { getModuleInfo: (id) => (reads++, GRAPH.getModuleInfo(id)) };
    const group = chunkGroup(firstPaintChunk('/p/entrypoints/sidepanel/main.tsx', 'panel-common'));
    group.name('/p/lib/i18n/index.ts', counting);
    const first = reads;
    for (const id of ['/p/lib/schema/index.ts', '/p/lib/survey/rows.ts', '/p/node_modules/zod/index.js']) group.name(id, counting);
    expect(first).toBeGreaterThan(0);
    expect(reads).toBe(first);
  });
});
