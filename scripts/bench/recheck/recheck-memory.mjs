// The `recheck` benchmark's memory figure, run as a child process by recheck.mjs (one per run, so nothing else the
// bench did is in its memory): loads the code, notes its peak RSS so far, reads the whole revision corpus and
// rechecks every source once, and prints one JSON line: `{ loadedRss, peakRss, sources, claims }` (bytes, from
// `process.resourceUsage().maxRSS`), or `{ absent: true }` without the corpus.
import { loadRecheckCode, loadRecheckSources, recheckCorpus } from './recheck-corpus.mjs';

const maxRss = () => process.resourceUsage().maxRSS * 1024;
const code = await loadRecheckCode();
const loadedRss = maxRss();
const sources = loadRecheckSources(code);
if (!sources) process.stdout.write(`${JSON.stringify({ absent: true })}\n`);
else {
  const { judged } = recheckCorpus(code, sources);
  process.stdout.write(`${JSON.stringify({ loadedRss, peakRss: maxRss(), sources: sources.length, claims: judged.length })}\n`);
}
