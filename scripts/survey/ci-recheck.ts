/**
 * The dataset's weekly recheck as `survey init` writes it: a scheduled GitHub Actions workflow and a GitLab CI job
 * for scheduled pipelines. Each installs the CLI at the same pinned spec as the dataset's CI, runs
 * `survey recheck . --report survey-recheck.md`, and puts the report in one open issue labelled `survey-recheck`
 * through the host's own CLI or API (GitHub: `gh` with the job's token; GitLab: its REST API with curl and a token in
 * the CI/CD variable `SURVEY_ISSUE_TOKEN`): the first run opens it, later runs replace its text. Nothing is committed
 * (docs/dataset.md, "Rechecking sources"). Deterministic: the same options give the same bytes.
 */
import { SURVEY_VERSION } from './version';

/** Where the scheduled GitHub workflow goes in a dataset repository. */
export const GITHUB_RECHECK_PATH = '.github/workflows/survey-recheck.yml';

/** The name of the GitLab job that rechecks on scheduled pipelines. */
export const GITLAB_RECHECK_JOB = 'survey-recheck';

/** The label that marks the one recheck issue, on either host. */
export const RECHECK_LABEL = 'survey-recheck';

/** The recheck issue's title when a run opens it. */
export const RECHECK_TITLE = 'Survey recheck: what changed on the sources';

/** The report the job writes in its checkout (kept as the run's artifact, never committed). */
export const RECHECK_REPORT = 'survey-recheck.md';

/** The issue's text the job makes from the report. */
export const RECHECK_ISSUE_BODY = 'survey-recheck-issue.md';

/** When GitHub runs the recheck: Mondays at 05:23 UTC (off the hour, when GitHub's schedules are busiest). */
export const RECHECK_CRON = '23 5 * * 1';

/** The GitLab CI/CD variable with a token that may open and edit the project's issues (scope `api`). */
export const ISSUE_TOKEN_VARIABLE = 'SURVEY_ISSUE_TOKEN';

/** What each host's issue holds, in bytes of report (GitHub's limit is 65,536 characters, GitLab's 1,000,000). */
const ISSUE_LIMIT = { github: 60_000, gitlab: 900_000 } as const;

/** How the jobs install the CLI (the same line as the dataset's CI). */
export function installLine(install: string): string {
  return `npm install --global --no-audit --no-fund ${install}`;
}

function indent(pad: string, lines: readonly string[]): string {
  return lines.map((l) => (l ? `${pad}${l}` : '')).join('\n');
}

/**
 * The shell lines that make the issue's text from the report: the report whole when the host's issues hold it, else
 * cut at a line with a note saying where the whole report is; then a line saying which run wrote it. `runUrl` is a
 * shell expression of the run's (or job's) web address.
 */
function issueBodyLines(host: 'github' | 'gitlab', runUrl: string): string[] {
  const limit = ISSUE_LIMIT[host];
  return [
    '{',
    `  if [ "$(wc -c < ${RECHECK_REPORT})" -le ${limit} ]; then`,
    `    cat ${RECHECK_REPORT}`,
    '  else',
    `    head -c ${limit} ${RECHECK_REPORT} | sed '$d'`,
    `    printf '\\n**The report is longer than an issue holds and was cut here.** The whole report is the artifact of %s\\n' "${runUrl}"`,
    '  fi',
    `  printf '\\n---\\nWritten by the scheduled survey recheck (%s). Each run replaces this text; close the issue and the next run opens a new one.\\n' "${runUrl}"`,
    `} > ${RECHECK_ISSUE_BODY}`,
  ];
}

/** The shell lines that open the recheck issue with `gh`, or replace the text of the open one. */
function githubIssueLines(): string[] {
  return [
    `gh label create ${RECHECK_LABEL} --color 1D76DB --description "The weekly survey recheck's report" --force`,
    `number="$(gh issue list --label ${RECHECK_LABEL} --state open --limit 1 --json number --jq '.[].number')"`,
    'if [ -n "$number" ]; then',
    `  gh issue edit "$number" --body-file ${RECHECK_ISSUE_BODY}`,
    '  echo "Updated issue #$number with the report."',
    'else',
    `  gh issue create --title "${RECHECK_TITLE}" --label ${RECHECK_LABEL} --body-file ${RECHECK_ISSUE_BODY}`,
    'fi',
  ];
}

/** A GitHub job's first steps: the repository checked out, Node 20, and the survey CLI at its pinned spec. */
export function githubSetupSteps(install: string): string {
  return `      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Install the survey CLI
        run: ${installLine(install)}`;
}

/** `.github/workflows/survey-recheck.yml`: weekly and by hand; the report into one issue through `gh`. */
export function githubRecheckWorkflow(install: string): string {
  const run = '$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID';
  return `# The dataset's weekly recheck, written by "survey init" (survey ${SURVEY_VERSION}).
# Every Monday, or by hand (Actions > survey recheck > Run workflow), every source is read again as served today
# ("survey recheck . --report ${RECHECK_REPORT}") and the report goes into one open issue labelled ${RECHECK_LABEL}:
# the first run opens it, later runs replace its text; close it and the next run opens a new one. Nothing is
# committed: "survey recheck . --write" then "survey build ." on a curator's machine moves the README's dates.
# The install line is the one in survey.yml: change both together.
name: survey recheck
on:
  schedule:
    - cron: '${RECHECK_CRON}'
  workflow_dispatch:
permissions:
  contents: read
  issues: write
concurrency:
  group: survey-recheck
jobs:
  recheck:
    runs-on: ubuntu-latest
    steps:
${githubSetupSteps(install)}
      - name: Recheck every source
        run: survey recheck . --report ${RECHECK_REPORT}
      - name: Keep the whole report
        uses: actions/upload-artifact@v4
        with:
          name: survey-recheck
          path: ${RECHECK_REPORT}
      - name: Make the issue's text
        run: |
${indent('          ', issueBodyLines('github', run))}
      - name: Open or update the recheck issue
        env:
          GH_TOKEN: \${{ github.token }}
          GH_REPO: \${{ github.repository }}
        run: |
${indent('          ', githubIssueLines())}
`;
}

/** A curl call to GitLab's API with the issue token; an HTTP error fails it, and curl says which. */
const CURL = `curl --silent --show-error --fail-with-body --header "PRIVATE-TOKEN: $${ISSUE_TOKEN_VARIABLE}"`;

/** Reads a JSON answer on stdin and prints `expression` of it (node is there: the CLI was installed with npm). */
function jsonPick(expression: string): string {
  return `node -p 'const it = JSON.parse(require("fs").readFileSync(0, "utf8")); ${expression}'`;
}

/** The shell lines that open the recheck issue through GitLab's REST API, or replace the text of the open one. */
function gitlabIssueLines(): string[] {
  const list = `${CURL} "$issues?labels=${RECHECK_LABEL}&state=opened&per_page=1"`;
  const update = `${CURL} --request PUT --data-urlencode "description@${RECHECK_ISSUE_BODY}" "$issues/$iid"`;
  const create = `${CURL} --request POST --data-urlencode "title=${RECHECK_TITLE}" --data-urlencode "labels=${RECHECK_LABEL}" --data-urlencode "description@${RECHECK_ISSUE_BODY}" "$issues"`;
  return [
    'issues="$CI_API_V4_URL/projects/$CI_PROJECT_ID/issues"',
    `iid="$(${list} | ${jsonPick('if (!Array.isArray(it)) throw new Error("GitLab did not answer with a list of issues"); it.length ? it[0].iid : ""')})"`,
    'if [ -n "$iid" ]; then',
    `  url="$(${update} | ${jsonPick('it.web_url')})"`,
    '  echo "Updated $url with the report."',
    'else',
    `  url="$(${create} | ${jsonPick('it.web_url')})"`,
    '  echo "Opened $url with the report."',
    'fi',
  ];
}

/**
 * The `survey-recheck` job of `.gitlab-ci.yml` (top-level YAML, starting with the job's name): it runs on scheduled
 * pipelines only, and opens or updates the issue through GitLab's REST API.
 */
export function gitlabRecheckJob(install: string): string {
  return `# The weekly recheck (scheduled pipelines only: make one in Build > Pipeline schedules, weekly, on the branch).
# Every source read again ("survey recheck . --report ${RECHECK_REPORT}"), the report put into one open issue
# labelled ${RECHECK_LABEL} (opened by the first run, its text replaced by later ones). It needs a CI/CD variable
# ${ISSUE_TOKEN_VARIABLE}: a project access token with the api scope and the Reporter role. Nothing is committed.
${GITLAB_RECHECK_JOB}:
  image: node:20
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
  resource_group: survey-recheck
  script:
    - |
      if [ -z "$${ISSUE_TOKEN_VARIABLE}" ]; then
        echo "Set the CI/CD variable ${ISSUE_TOKEN_VARIABLE} (a project access token with the api scope, role Reporter) so this job can open and update the recheck issue."
        exit 1
      fi
    - ${installLine(install)}
    - survey recheck . --report ${RECHECK_REPORT}
    - |
${indent('      ', issueBodyLines('gitlab', '$CI_JOB_URL'))}
    - |
${indent('      ', gitlabIssueLines())}
  artifacts:
    when: always
    paths:
      - ${RECHECK_REPORT}
    expire_in: 30 days
`;
}
