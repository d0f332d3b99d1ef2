/**
 * A real git smart-HTTP server for the tests: `git http-backend` run as CGI
 * behind a small Node HTTP server on 127.0.0.1, with Basic auth (a token per
 * user, read or read-write) and `http.receivepack` on. Each repository gets a
 * `pre-receive` hook that runs `survey check` on the pushed tree, so the
 * server refuses an invalid dataset the way a protected repository would; the
 * hook's output reaches the client as `remote:` lines.
 *
 * Usable from unit/integration tests and benchmarks (Node), and later from
 * end-to-end tests (the browser reaches it on 127.0.0.1). Needs git (with
 * `git http-backend`) and tar on the machine.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bundleSurveyCli } from './survey-package';

/** A user of the server: the token is the Basic-auth password; `write` allows pushes. */
export interface GitUser {
  token: string;
  write: boolean;
}

/** How a test wants its server. */
export interface GitServerOptions {
  users?: Record<string, GitUser>;
  /** Run `survey check` on every pushed tree (default true). */
  checkPushes?: boolean;
}

/** One request the server answered (for tests that look at the traffic). */
export interface ServedRequest {
  method: string;
  path: string;
  user: string | null;
  status: number;
}

/** A running server. */
export interface GitServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** The folder holding the bare repositories. */
  root: string;
  requests: ServedRequest[];
  /** The HTTPS-style URL of a repository: `http://127.0.0.1:PORT/<name>.git`. */
  url(name: string): string;
  /** The bare repository's folder. */
  repoPath(name: string): string;
  /** Makes a bare repository (branch `main` unless told), with `http.receivepack` and the hook; `seed` commits files as a first commit. */
  createRepo(name: string, options?: { branch?: string; seed?: Record<string, string> }): string;
  /** Runs the git CLI in a repository (bare) and returns its stdout. */
  git(name: string, ...args: string[]): string;
  /** Commits files onto a branch of a repository with the git CLI, bypassing the hook (a host without protection); returns the commit. */
  commitDirectly(name: string, branch: string, files: Record<string, string | Buffer>, message: string): string;
  /**
   * The host's merge button: a plain `git merge` of `head` into `base` (`--no-ff`, or `--squash` then a commit) on
   * the host's side, with no merge driver and no hook. A conflict merges nothing and names the conflicting files.
   */
  merge(name: string, base: string, head: string, how?: 'merge' | 'squash'): { commit: string | null; conflicts: string[] };
  /** Runs (synchronously) before each authorised request is served: a test moves a branch between a client's fetch and its push. */
  beforeRequest: ((request: { method: string; path: string; user: string }) => void) | null;
  /** Stops answering (connections dropped); `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops and deletes every repository. */
  close(): Promise<void>;
}

/** Users the tests use unless told otherwise. */
export const DEFAULT_USERS: Record<string, GitUser> = {
  alice: { token: 'alice-token', write: true },
  bob: { token: 'bob-token', write: true },
  reader: { token: 'reader-token', write: false },
};

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test Server',
  GIT_AUTHOR_EMAIL: 'server@example.test',
  GIT_COMMITTER_NAME: 'Test Server',
  GIT_COMMITTER_EMAIL: 'server@example.test',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: os.tmpdir(),
};

function hookScript(survey: string): string {
  // Generated at run time with this machine's paths; never committed.
  return `#!/bin/sh
# Refuses a push whose tree is not a valid dataset, like a protected repository: "survey check" on the pushed tree
# (with --review on any branch but the dataset's own, whose README is rebuilt once a review is merged).
zero=0000000000000000000000000000000000000000
status=0
default=$(git symbolic-ref HEAD)
while read old new ref; do
  [ "$new" = "$zero" ] && continue
  case "$ref" in refs/heads/*) ;; *) continue ;; esac
  review=--review
  [ "$ref" = "$default" ] && review=
  tmp=$(mktemp -d)
  git archive "$new" | tar -x -C "$tmp"
  if ! (cd "$tmp" && ${JSON.stringify(process.execPath)} ${JSON.stringify(survey)} check . $review) >&2; then
    echo "push to $ref refused: the dataset does not pass survey check" >&2
    status=1
  fi
  rm -rf "$tmp"
done
exit $status
`;
}

function parseBasic(header: string | undefined): { user: string; token: string } | null {
  const m = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : { user: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}

/** Starts a server on a free port of 127.0.0.1. */
export async function startGitServer(options: GitServerOptions = {}): Promise<GitServer> {
  const users = options.users ?? DEFAULT_USERS;
  const checkPushes = options.checkPushes ?? true;
  const root = mkdtempSync(path.join(os.tmpdir(), 'recipe-lens-git-'));
  // The `survey` CLI the hook runs, bundled once per server: each push costs a plain `node` start.
  const survey = checkPushes ? await bundleSurveyCli(path.join(root, 'survey-cli.mjs')) : '';
  const requests: ServedRequest[] = [];
  const sockets = new Set<Socket>();
  const hooks: { before: GitServer['beforeRequest'] } = { before: null };

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record = (status: number, user: string | null) => requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, user, status });
    const auth = parseBasic(req.headers.authorization);
    const who = auth && users[auth.user]?.token === auth.token ? auth.user : null;
    if (!who) {
      record(401, null);
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="datasets"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    const pushing = url.searchParams.get('service') === 'git-receive-pack' || url.pathname.endsWith('/git-receive-pack');
    if (pushing && !users[who]!.write) {
      record(403, who);
      res.writeHead(403, { 'Content-Type': 'text/plain' });
      res.end('this token may not push\n');
      return;
    }
    hooks.before?.({ method: req.method ?? 'GET', path: url.pathname, user: who });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...GIT_ENV,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.replace(/^\?/, ''),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: who,
      REMOTE_ADDR: '127.0.0.1',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
    };
    if (req.headers['content-length'] !== undefined) env.CONTENT_LENGTH = String(req.headers['content-length']);
    const child = spawn('git', ['http-backend'], { env });
    req.pipe(child.stdin);
    child.stdin.on('error', () => undefined);
    req.on('error', () => child.kill());
    let head = Buffer.alloc(0);
    let headersDone = false;
    let status = 200;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf('\r\n\r\n');
      const lf = head.indexOf('\n\n');
      const end = crlf !== -1 && (lf === -1 || crlf < lf) ? crlf : lf;
      if (end === -1) return;
      const sep = end === crlf ? 4 : 2;
      const lines = head.subarray(0, end).toString('latin1').split(/\r?\n/);
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const colon = l.indexOf(':');
        if (colon === -1) continue;
        const name = l.slice(0, colon).trim();
        const value = l.slice(colon + 1).trim();
        if (/^status$/i.test(name)) status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      headersDone = true;
      record(status, who);
      res.write(head.subarray(end + sep));
    });
    child.stderr.on('data', () => undefined);
    child.on('close', () => {
      if (!headersDone) {
        record(500, who);
        res.writeHead(500, { 'Content-Type': 'text/plain' });
      }
      res.end();
    });
    res.on('close', () => {
      if (child.exitCode === null) child.kill();
    });
  };

  const server = http.createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  let running = true;

  const repoPath = (name: string) => path.join(root, `${name}.git`);
  const git = (name: string, ...args: string[]) =>
    execFileSync('git', args, { cwd: repoPath(name), env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

  const commitDirectly = (name: string, branch: string, files: Record<string, string | Buffer>, message: string): string => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'recipe-lens-work-'));
    const env = { ...process.env, ...GIT_ENV };
    const run = (...args: string[]) => execFileSync('git', args, { cwd: work, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    try {
      run('init', '-q', '-b', branch);
      const hasBranch = git(name, 'branch', '--list', branch).trim() !== '';
      if (hasBranch) {
        run('fetch', '-q', repoPath(name), branch);
        run('reset', '-q', '--hard', 'FETCH_HEAD');
      }
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        writeFileSync(path.join(work, file), content);
      }
      run('add', '-A');
      run('commit', '-q', '--allow-empty', '-m', message);
      // The bare repository fetches the commit: no receive-pack, so no hook (a host without protection).
      git(name, 'fetch', '-q', work, `+HEAD:refs/heads/${branch}`);
      return run('rev-parse', 'HEAD').trim();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };

  const merge = (name: string, base: string, head: string, how: 'merge' | 'squash' = 'merge') => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'recipe-lens-merge-'));
    const env = { ...process.env, ...GIT_ENV };
    const run = (...args: string[]) => execFileSync('git', args, { cwd: work, env, encoding: 'utf8', stdio: 'pipe', maxBuffer: 256 * 1024 * 1024 });
    try {
      run('init', '-q', '-b', base);
      run('fetch', '-q', repoPath(name), `refs/heads/${base}:refs/remotes/host/${base}`, `refs/heads/${head}:refs/remotes/host/${head}`);
      run('reset', '-q', '--hard', `refs/remotes/host/${base}`);
      try {
        if (how === 'squash') {
          run('merge', '-q', '--squash', `refs/remotes/host/${head}`);
          run('commit', '-q', '-m', `Merge ${head} (squashed)`);
        } else run('merge', '-q', '--no-ff', '-m', `Merge branch '${head}'`, `refs/remotes/host/${head}`);
      } catch {
        const conflicts = run('diff', '--name-only', '--diff-filter=U').split('\n').filter(Boolean);
        return { commit: null, conflicts: conflicts.length ? conflicts : ['(the merge failed)'] };
      }
      git(name, 'fetch', '-q', work, `+HEAD:refs/heads/${base}`);
      return { commit: run('rev-parse', 'HEAD').trim(), conflicts: [] };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };

  const stop = async () => {
    if (!running) return;
    running = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };

  return {
    origin,
    root,
    requests,
    get beforeRequest() {
      return hooks.before;
    },
    set beforeRequest(hook) {
      hooks.before = hook;
    },
    url: (name) => `${origin}/${name}.git`,
    repoPath,
    git,
    commitDirectly,
    merge,
    createRepo(name, opts = {}) {
      const branch = opts.branch ?? 'main';
      const dir = repoPath(name);
      execFileSync('git', ['init', '-q', '--bare', '-b', branch, dir], { env: { ...process.env, ...GIT_ENV } });
      git(name, 'config', 'http.receivepack', 'true');
      // A dataset's CI pushes its rebuilt README with a push option (GitLab's ci.skip).
      git(name, 'config', 'receive.advertisePushOptions', 'true');
      if (opts.seed) commitDirectly(name, branch, opts.seed, 'Seed the dataset');
      if (checkPushes) {
        const hook = path.join(dir, 'hooks', 'pre-receive');
        writeFileSync(hook, hookScript(survey));
        chmodSync(hook, 0o755);
      }
      return dir;
    },
    stop,
    async start() {
      if (running) return;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      running = true;
    },
    async close() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
