/**
 * A stand-in for GitLab's REST API (v4) on 127.0.0.1, for running a `.gitlab-ci.yml` job's script in the tests: one
 * project's issues, as much of the API as the recheck job uses. `GET /api/v4/projects/:id/issues` (filtered by
 * `labels` and `state`, newest first, `per_page`), `POST /api/v4/projects/:id/issues` (`title`, `labels`,
 * `description`) and `PUT /api/v4/projects/:id/issues/:iid` (`description`), form-encoded as curl sends them. A
 * request without the project's token in `PRIVATE-TOKEN` gets GitLab's 401; every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One request the fake API answered. */
export interface GitlabRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  token: string | null;
  /** The form-encoded body's fields. */
  form: Record<string, string>;
  status: number;
}

/** An issue of the fake project. */
export interface GitlabIssue {
  iid: number;
  title: string;
  labels: string[];
  description: string;
  state: 'opened' | 'closed';
}

/** The running fake API. */
export interface FakeGitlab {
  /** What a job sees as `CI_API_V4_URL`. */
  apiUrl: string;
  requests: GitlabRequest[];
  issues: GitlabIssue[];
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/** Starts the fake API for project `projectId`, accepting `token`. */
export async function startFakeGitlab(projectId: string, token: string): Promise<FakeGitlab> {
  const requests: GitlabRequest[] = [];
  const issues: GitlabIssue[] = [];
  let webBase = '';
  const view = (i: GitlabIssue) => ({ ...i, project_id: Number(projectId), web_url: `${webBase}/${i.iid}` });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const text = await body(req);
    const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(text)) : {};
    const sent = typeof req.headers['private-token'] === 'string' ? req.headers['private-token'] : null;
    const answer = (status: number, json: unknown) => {
      requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), token: sent, form, status });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (sent !== token) return answer(401, { message: '401 Unauthorized' });
    const base = `/api/v4/projects/${projectId}/issues`;
    if (url.pathname === base && req.method === 'GET') {
      const label = url.searchParams.get('labels');
      const state = url.searchParams.get('state');
      const found = issues
        .filter((i) => (!label || label.split(',').every((l) => i.labels.includes(l))) && (!state || state === 'all' || i.state === state))
        .sort((a, b) => b.iid - a.iid)
        .slice(0, Number(url.searchParams.get('per_page') ?? 20));
      return answer(200, found.map(view));
    }
    if (url.pathname === base && req.method === 'POST') {
      if (!form.title) return answer(400, { error: 'title is missing' });
      const issue: GitlabIssue = {
        iid: issues.length + 1,
        title: form.title,
        labels: (form.labels ?? '').split(',').filter(Boolean),
        description: form.description ?? '',
        state: 'opened',
      };
      issues.push(issue);
      return answer(201, view(issue));
    }
    const one = url.pathname.startsWith(`${base}/`) ? issues.find((i) => `${base}/${i.iid}` === url.pathname) : undefined;
    if (one && req.method === 'PUT') {
      if (form.description !== undefined) one.description = form.description;
      return answer(200, view(one));
    }
    return answer(404, { message: '404 Not found' });
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  webBase = `http://127.0.0.1:${port}/team/survey/-/issues`;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/v4`,
    requests,
    issues,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
