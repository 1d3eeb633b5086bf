// A local stand-in for the parts of GitHub a regrade talks to, on 127.0.0.1: the REST API's
// organisation listing (GET /api/orgs/{org}/repos, paginated with Link headers, a Bearer token
// required) and git's dumb HTTP protocol over a folder of bare repositories (Basic auth as
// x-access-token:<token> required, as github.com takes a token). Each bare repository must have
// had `git update-server-info` run in it. Every request is recorded, with whether it carried the token.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface StandInRequest {
  method: string;
  /** The path and query. */
  url: string;
  /** Whether the request carried the token as the route expects it. */
  authorized: boolean;
}

export interface GitHubStandIn {
  /** The server's base, as GITHUB_SERVER_URL: repositories are <url>/<owner>/<name>.git. */
  url: string;
  /** The API's base, as GITHUB_API_URL. */
  apiUrl: string;
  requests: StandInRequest[];
  close: () => Promise<void>;
}

export interface StandInOptions {
  token: string;
  /** The repository names each organisation lists, in the order the API gives them. */
  orgs: Record<string, string[]>;
  /** Holds <owner>/<name>.git bare repositories. */
  bareRoot: string;
  /** Repositories per page at most (the API's own cap is per_page, 100 at most). */
  pageSize: number;
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startGitHubStandIn(opts: StandInOptions): Promise<GitHubStandIn> {
  const requests: StandInRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const api = /^\/api\/orgs\/([^/]+)\/repos$/.exec(url.pathname);
    const authorized = api ? req.headers.authorization === `Bearer ${opts.token}` : req.headers.authorization === `Basic ${Buffer.from(`x-access-token:${opts.token}`).toString("base64")}`;
    requests.push({ method: req.method ?? "", url: req.url ?? "", authorized });
    if (api) return listRepos(api[1]!, url, authorized, res);
    if (!authorized) return res.writeHead(401, { "WWW-Authenticate": 'Basic realm="GitHub"' }).end("Unauthorized\n");
    serveBareFile(url.pathname, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function listRepos(org: string, url: URL, authorized: boolean, res: http.ServerResponse): void {
    if (!authorized) return json(res, 401, { message: "Bad credentials" });
    const names = opts.orgs[org];
    if (!names) return json(res, 404, { message: "Not Found" });
    const perPage = Math.min(opts.pageSize, Number(url.searchParams.get("per_page") ?? 30));
    const page = Number(url.searchParams.get("page") ?? 1);
    const slice = names.slice((page - 1) * perPage, page * perPage);
    const link = (p: number) => `<${base}/api/orgs/${org}/repos?per_page=${url.searchParams.get("per_page") ?? 30}&page=${p}>`;
    const last = Math.max(1, Math.ceil(names.length / perPage));
    const headers: Record<string, string> = page < last ? { Link: `${link(page + 1)}; rel="next", ${link(last)}; rel="last"` } : {};
    json(res, 200, slice.map((name) => ({ name, full_name: `${org}/${name}`, owner: { login: org } })), headers);
  }

  function serveBareFile(pathname: string, res: http.ServerResponse): void {
    const file = path.join(opts.bareRoot, path.normalize(decodeURIComponent(pathname)));
    const repo = /^\/[^/]+\/[^/]+\.git\//.exec(pathname);
    if (!repo || !file.startsWith(opts.bareRoot + path.sep) || !fs.existsSync(path.join(opts.bareRoot, repo[0]))) return void res.writeHead(404).end("Repository not found.\n");
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return void res.writeHead(404).end("Not found\n");
    res.writeHead(200, { "Content-Type": "application/octet-stream" }).end(fs.readFileSync(file));
  }

  return {
    url: base,
    apiUrl: `${base}/api`,
    requests,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));
}
