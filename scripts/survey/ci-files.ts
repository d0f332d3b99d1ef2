/**
 * The dataset's CI as `survey init` writes it: a GitHub Actions workflow and a
 * `.gitlab-ci.yml` that install the CLI at a pinned version and run
 * `survey check .` on every push and every pull or merge request. On a push to
 * the dataset's branch (a merged review among them) the job first runs
 * `survey build .` and commits what it changed: reviews carry records only,
 * and the README's table and counts are rebuilt once they are merged
 * (docs/dataset.md, "Reviews that merge cleanly"). Beside them, the weekly
 * recheck (`ci-recheck.ts`): its own GitHub workflow, and a GitLab job for
 * scheduled pipelines, which the check job leaves alone. Deterministic: the
 * same options give the same bytes.
 */
import { GITHUB_RECHECK_PATH, githubRecheckWorkflow, githubSetupSteps, gitlabRecheckJob, installLine } from './ci-recheck';
import { SURVEY_VERSION } from './version';

/** Where the check workflow goes in a dataset repository. */
export const GITHUB_WORKFLOW_PATH = '.github/workflows/survey.yml';
/** Where GitLab's CI file goes (the check job and the recheck job). */
export const GITLAB_CI_PATH = '.gitlab-ci.yml';

/** What the CI files depend on. */
export interface CiOptions {
  /** What `npm install --global` installs: a registry name at a version, a tarball URL or path, a git URL. */
  install: string;
  /** The dataset's branch (where merged reviews land and the README is rebuilt). */
  branch: string;
}

/** The install spec used when none is given: this CLI's own version, by name. */
export const DEFAULT_INSTALL = `recipe-lens-survey@${SURVEY_VERSION}`;

/** Why an install spec or a branch name cannot go into a CI file (null when it can). */
export function ciOptionProblem(options: CiOptions): string | null {
  if (!/^[A-Za-z0-9@._~:/+#=-]+$/.test(options.install))
    return `--install ${JSON.stringify(options.install)}: use a package name with its version, a tarball URL or path, or a git URL (no spaces or quotes)`;
  if (!/^[A-Za-z0-9._/-]+$/.test(options.branch) || options.branch.startsWith('-') || options.branch.includes('..'))
    return `--branch ${JSON.stringify(options.branch)}: not a branch name`;
  return null;
}

const COMMIT_MESSAGE = "survey build: the README's table and counts from records/";

/** The shell lines that rebuild the generated parts on the dataset's branch, commit them and push (indented by `pad`). */
function rebuildLines(pad: string, when: string, push: string, branch: string): string {
  return [
    `if ${when}; then`,
    '  survey build .',
    '  if [ -n "$(git status --porcelain -- README.md records)" ]; then',
    '    git config user.name "survey build"',
    '    git config user.email "survey-build@users.noreply.invalid"',
    '    git add -A -- README.md records',
    `    git commit -q -m "${COMMIT_MESSAGE}"`,
    `    if ! ${push}; then`,
    `      git fetch -q origin ${branch}`,
    '      # A newer merge landed while this job ran: the job of that merge rebuilds the README.',
    '      [ "$(git rev-parse FETCH_HEAD)" != "$(git rev-parse HEAD~1)" ] || exit 1',
    `      echo "${branch} moved on meanwhile; its own job rebuilds the README."`,
    '    fi',
    '  fi',
    'fi',
  ]
    .map((l) => `${pad}${l}`)
    .join('\n');
}

/** `.github/workflows/survey.yml`. */
export function githubWorkflow({ install, branch }: CiOptions): string {
  const ref = `refs/heads/${branch}`;
  return `# The dataset's CI, written by "survey init" (survey ${SURVEY_VERSION}).
# Every push and pull request: "survey check .". A push to ${branch} (a merged review among them) first rebuilds
# the README's table and counts from records/ ("survey build .") and commits them; a review carries records only,
# so two reviews of different models merge without a conflict. Review branches are checked with --review.
# The install line is the one place that says which survey CLI runs: a registry version, a tarball URL, a git URL.
name: survey
on:
  push:
  pull_request:
permissions:
  contents: write
concurrency:
  group: survey-\${{ github.ref }}
jobs:
  survey:
    runs-on: ubuntu-latest
    steps:
${githubSetupSteps(install)}
      - name: Rebuild the README on ${branch}
        run: |
${rebuildLines('          ', `[ "$GITHUB_EVENT_NAME" = push ] && [ "$GITHUB_REF" = ${ref} ]`, `git push -q origin HEAD:${ref}`, branch)}
      - name: Check the dataset
        run: |
          if [ "$GITHUB_REF" = ${ref} ]; then survey check .; else survey check . --review; fi
`;
}

/** `.gitlab-ci.yml`. */
export function gitlabCi({ install, branch }: CiOptions): string {
  const push = `git push -q -o ci.skip "$CI_SERVER_PROTOCOL://oauth2:$SURVEY_PUSH_TOKEN@$CI_SERVER_FQDN/$CI_PROJECT_PATH.git" HEAD:refs/heads/${branch}`;
  return `# The dataset's CI, written by "survey init" (survey ${SURVEY_VERSION}).
# Every push and merge request: "survey check .". A push to ${branch} (a merged review among them) first rebuilds
# the README's table and counts from records/ ("survey build .") and commits them; a review carries records only,
# so two reviews of different models merge without a conflict. Review branches are checked with --review.
# Pushing that commit needs a CI/CD variable SURVEY_PUSH_TOKEN: a project access token with write_repository.
# The install lines are the one place that says which survey CLI runs: a registry version, a tarball URL, a git URL
# (the same in both jobs).
workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_PIPELINE_SOURCE == "schedule"
    - if: $CI_COMMIT_BRANCH && $CI_OPEN_MERGE_REQUESTS
      when: never
    - if: $CI_COMMIT_BRANCH
survey:
  image: node:20
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
      when: never
    - when: on_success
  resource_group: survey-$CI_COMMIT_REF_SLUG
  script:
    - ${installLine(install)}
    - |
      if [ "$CI_COMMIT_BRANCH" = ${branch} ] && [ -z "$SURVEY_PUSH_TOKEN" ]; then
        echo "Set the CI/CD variable SURVEY_PUSH_TOKEN (a project access token with write_repository) so this job can commit the rebuilt README."
      fi
${rebuildLines('      ', `[ "$CI_PIPELINE_SOURCE" = push ] && [ "$CI_COMMIT_BRANCH" = ${branch} ] && [ -n "$SURVEY_PUSH_TOKEN" ]`, push, branch)}
    - if [ "$CI_COMMIT_BRANCH" = ${branch} ]; then survey check .; else survey check . --review; fi

${gitlabRecheckJob(install)}`;
}

/** Every CI file: repository path → text (GitHub's check and recheck workflows, then GitLab's one file). */
export function ciFiles(options: CiOptions): Map<string, string> {
  return new Map([
    [GITHUB_WORKFLOW_PATH, githubWorkflow(options)],
    [GITHUB_RECHECK_PATH, githubRecheckWorkflow(options.install)],
    [GITLAB_CI_PATH, gitlabCi(options)],
  ]);
}
