/**
 * The `survey` command line: `survey <command> [options] FILE...`.
 * A FILE may be a folder (its `*.jsonl` files, recursively); `init` and
 * `check` work on a dataset repository's folder.
 * Exit codes: 0 done, 1 invalid records or unresolved conflicts, 2 a command
 * line that cannot be run (unknown command or option, missing file).
 */
import { UsageError } from './args';
import { merge, render, stats, validate, type Io } from './commands';
import { SURVEY_VERSION } from './version';

/** Where the CLI writes, and the directory relative paths start from. */
export type { Io } from './commands';

const HELP: Record<string, string> = {
  survey: `Usage: survey <command> [options] FILE...

Work with survey-record JSONL files (rl-survey.claim/1, rl-survey.model/1).

Commands:
  validate FILE...                         check every line; FILE:LINE: message per problem
  render FILE... [--format F] [--lang L]   print the survey table (md, csv or json; en or zh)
  merge FILE... -o OUT [--prefer newer]    merge files into one deterministic JSONL file
  stats FILE... [--json]                   count claims per model, kind, evidence level, source kind
  init DIR [--title T] [--install SPEC]    make an empty dataset repository (README, records/)
                                           and its CI (GitHub Actions, GitLab CI)
  check DIR [--review]                     what a dataset's CI runs: valid records in the layout,
                                           README table as "survey render" gives it
  build DIR                                rewrite the generated parts: records files in export
                                           order, README table and counts (your own text kept)
  recheck DIR [--json] [--report FILE.md]  read every source again: each claim unchanged, edited,
          [--write]                        gone or unreachable, and new sentences worth a look

A FILE may be a folder: its *.jsonl files, read recursively.
Run "survey <command> --help" for a command's options; "survey --version" prints the version.
Exit codes: 0 done, 1 invalid records or conflicts, 2 bad command line or missing file.
`,
  validate: `Usage: survey validate FILE...

Checks every line of every file against the record schemas. Prints one line
per problem as FILE:LINE: message — broken JSON, missing or mistyped fields,
unknown schema, and a claim id (or model record) that appears again with
different content, in any of the files given. Exit 0 when all is valid, 1 if not.
`,
  render: `Usage: survey render FILE... [--format md|csv|json] [--lang en|zh]

Prints the survey table derived from the records: one row per (model, recipe),
columns Model | Evidence | RL framework / system | Public RL stages and
algorithms | Design intention | Current judgment, every value footnoted to its
source. Where files hold several versions of a record, the newest is used.

Options:
  -f, --format md|csv|json   output format (default md)
  -l, --lang en|zh           language of headers and "not disclosed" (default en)
`,
  merge: `Usage: survey merge FILE... -o OUT [--prefer newer]

Merges the files into one JSONL file in the deterministic export order; the
result does not depend on the order of the inputs. Identical copies are kept
once. Two different versions of one record (same claim id, or same model and
recipe) are a conflict: reported on stderr, nothing written, exit 1.

Options:
  -o, --out OUT        file to write ("-" for stdout)
  --prefer newer       keep the version with the newest updated_at; versions
                       tying on updated_at are reported and the same one is
                       kept whatever the input order
`,
  init: `Usage: survey init DIR [--title T] [--branch B] [--install SPEC] [--ci]

Makes an empty dataset repository in DIR (made if missing): README.md with
the survey table and counts between their markers, an empty
records/models.jsonl and the records/claims/ folder (one file per model,
records/claims/<slug>.jsonl), and the dataset's CI: .github/workflows/survey.yml
and .gitlab-ci.yml. Both install the survey CLI and run "survey check ." on
every push and every pull or merge request; on a push to the branch B they
first run "survey build ." and commit the rebuilt README, so reviews carry
records only and merge without conflicts. The weekly recheck
(.github/workflows/survey-recheck.yml, and the survey-recheck job of
.gitlab-ci.yml for scheduled pipelines) runs "survey recheck ." and puts its
report in one issue labelled survey-recheck. Refuses a folder that already
holds a README.md, records/ or a CI file. Exit 0 when made, 1 if not.

Options:
  --title T       the README's title (default "RL post-training survey")
  --branch B      the dataset's branch, where reviews are merged (default main)
  --install SPEC  what the CI installs with "npm install --global": a version
                  in a registry (default recipe-lens-survey@${SURVEY_VERSION}),
                  a tarball URL or path, or a git URL
  --ci            write only the CI files, in a dataset that has its records
`,
  check: `Usage: survey check DIR [--review]

Checks a dataset repository the way its CI or a protected server would:
every records/claims/*.jsonl and records/models.jsonl line valid, each record
in its model's file, files in the deterministic export order, no record twice
with different content, no other file under records/, no records file over
32 MB, and README.md's table and counts exactly what "survey render" gives for
records/. Prints FILE:LINE: message per problem. Exit 0 when valid, 1 if not.

Options:
  --review   a review branch: the README's table and counts may lag the
             records (the dataset's branch rebuilds them once it is merged);
             everything else is checked as strictly
`,
  recheck: `Usage: survey recheck DIR [--json] [--report FILE.md] [--write] [--today D] [--timeout S]

Reads every source of the dataset in DIR again, as it is served today, and
gives each claim that is not deleted a verdict: unchanged (its passage is
there, verbatim), edited (still there, reworded: the new text is shown),
gone (no longer there) or unreachable (the source could not be read: HTTP
error, timeout, a redirect to another site, a body over 20 MB). It also lists
the sentences new on each source that read like claims, first for models
recorded as not disclosed. It changes no claim: a curator accepts an edit.
At most 2 requests at a time go to one host; 429 and 503 answers are retried
after their Retry-After. Pages are parsed, never run: scripts stay text, and
hidden elements are not passages. Progress goes to stderr.
Exit 0 once every source was tried, 1 if the dataset is invalid, 2 on a bad
command line.

Options:
  --json            one JSON object per claim on stdout:
                    {"id","url","verdict","text","reason"}
  --report FILE.md  write a Markdown report per model (edits as word diffs,
                    gone claims, new candidates); "-" for stdout
  --write           update records/sources.jsonl with what each source showed
                    (then "survey build ." moves the README's "as of" dates)
  --today D         the day to record (YYYY-MM-DD; default today, UTC)
  --timeout S       seconds one request may take (default 30)
`,
  stats: `Usage: survey stats FILE... [--json]

Counts claims per model (and recipe), kind, evidence level and source kind.

Options:
  --json   print the counts as JSON
`,
};

const COMMANDS: Record<string, (argv: readonly string[], io: Io) => Promise<number>> = {
  validate,
  render,
  merge,
  stats,
  // The dataset commands load their code only when run.
  init: async (argv, io) => (await import('./dataset')).init(argv, io),
  check: async (argv, io) => (await import('./dataset')).check(argv, io),
  build: async (argv, io) => (await import('./dataset')).build(argv, io),
  recheck: async (argv, io) => (await import('./recheck')).recheck(argv, io),
};

/** Runs the CLI on arguments (without `node` and the script) and returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-V') {
    io.stdout(`survey ${SURVEY_VERSION}\n`);
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined;
    if (topic !== undefined && !(topic in COMMANDS)) {
      io.stderr(`survey: unknown command ${JSON.stringify(topic)}. Run "survey --help" for the commands.\n`);
      return 2;
    }
    if (command === undefined) {
      io.stderr(HELP.survey!);
      return 2;
    }
    io.stdout(HELP[topic ?? 'survey']!);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.stderr(`survey: unknown command ${JSON.stringify(command)}. Run "survey --help" for the commands.\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(HELP[command]!);
    return 0;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`survey ${command}: ${error.message}\nRun "survey ${command} --help" for usage.\n`);
      return 2;
    }
    io.stderr(`survey ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
