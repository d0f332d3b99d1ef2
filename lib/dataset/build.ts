/**
 * `survey build`: a dataset's generated parts made again from its records (issue 25): every records file in the
 * export order and form, a record in a file that is not its own moved to its own, and the README's table and counts
 * line as the extension's publish writes them (the "not disclosed" days moved by the source records), the curators'
 * own text kept. Pure: files in, changes out; the same
 * dataset built twice changes nothing the second time.
 */
import { layoutFiles, pathRole } from './layout';
import { indexDataset } from './publish';
import type { ReadDataset } from './read';
import { newReadme, updateReadme } from './readme';
import { README_PATH } from './layout';
import { mergeSources, SOURCES_PATH, sourcesText } from './sources';

/** What a build changes: path → the file's new text, or null for a records file left with no record of its own. */
export type BuildChanges = Map<string, string | null>;

/**
 * The changes that make the dataset `read` (with its README text, or null when it has none) what the extension
 * would publish for its records. Where a record appears twice, the newest version stays, as a publish and a pull
 * settle it. Only call it for a dataset without invalid lines (`read.problems` empty): nothing unreadable is rewritten.
 */
export function buildDataset(read: ReadDataset, readme: string | null, title: string): BuildChanges {
  if (read.problems.length) throw new Error('the dataset has invalid lines: fix them first (survey check names them)');
  const records = [...indexDataset(read.records.map((r) => r.record)).values()];
  const want = layoutFiles(records);
  // The sources file, when the dataset has one (a recheck writes it), in its canonical order, one record per URL.
  const sources = mergeSources([read.sources.map((s) => s.record)], { prefer: 'newer' }).records;
  if (read.texts.has(SOURCES_PATH) || sources.length) want.set(SOURCES_PATH, sourcesText(sources));
  const changes: BuildChanges = new Map();
  for (const [path, text] of want) if (read.texts.get(path) !== text) changes.set(path, text);
  for (const path of read.texts.keys()) if (!want.has(path) && pathRole(path) !== 'other') changes.set(path, null);
  const next = readme === null ? newReadme(title, records, sources) : updateReadme(readme, records, sources);
  if (next !== readme) changes.set(README_PATH, next);
  return changes;
}
