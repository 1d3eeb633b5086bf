// The repositories GitHub Classroom made for an assignment: an organisation's repositories named
// <prefix>-<username>, listed through the REST API (GET /orgs/{org}/repos, every page).

/** The API's answer for one repository: only what is read here. */
interface ApiRepository {
  name: string;
  full_name: string;
}

/** The most the API gives per page. */
const PER_PAGE = 100;

/**
 * The `owner/name` of every repository of `org` whose name is `prefix-` and a username, following
 * the API's `Link: rel="next"` from page to page. `apiUrl` is the API's base (GITHUB_API_URL on a
 * runner). Throws, saying what was asked and what came back, when the API does not answer 200.
 */
export async function classroomRepositories(opts: { apiUrl: string; org: string; prefix: string; token: string }): Promise<string[]> {
  const found: string[] = [];
  let next: string | undefined = `${opts.apiUrl.replace(/\/+$/, "")}/orgs/${encodeURIComponent(opts.org)}/repos?per_page=${PER_PAGE}&type=all`;
  for (let page = 1; next; page++) {
    // A server whose pages never end must not keep the plan waiting: no class needs 1,000 pages.
    if (page > 1000) throw new Error(`listing the repositories of ${opts.org}: still more after 1000 pages of ${PER_PAGE}; expected the listing to end`);
    const response = await fetch(next, { headers: { Accept: "application/vnd.github+json", Authorization: `Bearer ${opts.token}`, "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "checkpoint-lab-regrade" } });
    if (response.status !== 200) throw new Error(`listing the repositories of ${opts.org}: GET ${withoutQuery(next)} answered ${response.status} ${await apiMessage(response)}; expected 200 (${hint(response.status)})`);
    const repositories = (await response.json()) as ApiRepository[];
    if (!Array.isArray(repositories)) throw new Error(`listing the repositories of ${opts.org}: GET ${withoutQuery(next)} answered something other than a list of repositories`);
    for (const r of repositories) if (r.name.toLowerCase().startsWith(`${opts.prefix.toLowerCase()}-`) && r.name.length > opts.prefix.length + 1) found.push(r.full_name);
    next = nextPage(response.headers.get("link"));
  }
  return found;
}

/** The URL of the page after this one, from a `Link` header (RFC 8288), if there is one. */
export function nextPage(link: string | null): string | undefined {
  for (const part of link?.split(",") ?? []) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /\brel="?([^";]*\s)?next(\s[^";]*)?"?/.test(match[2]!)) return match[1];
  }
  return undefined;
}

/** What a failing answer says: its `message` field when it is the API's JSON, else its status text. */
async function apiMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === "string") return JSON.stringify(message);
  } catch {
    // not JSON: the status text says enough
  }
  return response.statusText;
}

/** What an instructor can check for the usual failures. */
function hint(status: number): string {
  if (status === 401) return "is the secret CLASSROOM_TOKEN set, and the token not expired?";
  if (status === 403) return "may the token read the organisation's repositories (Metadata: read)?";
  if (status === 404) return "is the organisation's name right, and may the token see it?";
  return "is GITHUB_API_URL the API of the server the organisation is on?";
}

function withoutQuery(url: string): string {
  return url.replace(/\?.*$/, "");
}
