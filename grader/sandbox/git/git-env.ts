// The environment every command of a target runs with, so git behaves the same on every machine:
// a fixed author, committer and date (a runner has no user name; the hashes of the commits then
// repeat from grade to grade), no global or system configuration (a Codespace may sign commits,
// a machine may set hooks), no search for a repository above the scenario folder, and no
// background work (maintenance, optional index refreshes) that would change the disk unasked.

/** The author and committer of every commit the target makes. */
export const GIT_IDENTITY = { name: "Lab Student", email: "student@lab.invalid", date: "2026-01-01T00:00:00+00:00" };

/** Configuration given on git's "command line", above any the repository holds. */
const GIT_CONFIG: [string, string][] = [
  ["init.templateDir", ""],
  ["init.defaultBranch", "main"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.autocrlf", "false"],
  ["safe.directory", "*"],
  ["advice.detachedHead", "false"],
];

/**
 * `env` without any GIT_ variable of its own, with the grader's: `ceiling` is the folder git
 * must never look above for a repository (the scenario folder).
 */
export function gitEnv(env: NodeJS.ProcessEnv, ceiling?: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (!key.startsWith("GIT_")) out[key] = value;
  Object.assign(out, {
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: GIT_IDENTITY.name,
    GIT_AUTHOR_EMAIL: GIT_IDENTITY.email,
    GIT_AUTHOR_DATE: GIT_IDENTITY.date,
    GIT_COMMITTER_NAME: GIT_IDENTITY.name,
    GIT_COMMITTER_EMAIL: GIT_IDENTITY.email,
    GIT_COMMITTER_DATE: GIT_IDENTITY.date,
    GIT_OPTIONAL_LOCKS: "0",
    GIT_TERMINAL_PROMPT: "0",
    // Git's messages in English, as the handout quotes them.
    LC_ALL: "C",
    // A commit without -m must not wait for an editor nobody will close: it ends, with no message.
    GIT_EDITOR: "true",
    GIT_SEQUENCE_EDITOR: "true",
    GIT_PAGER: "cat",
    GIT_CONFIG_COUNT: String(GIT_CONFIG.length),
  });
  GIT_CONFIG.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${i}`] = key;
    out[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  if (ceiling) out.GIT_CEILING_DIRECTORIES = ceiling;
  return out;
}
