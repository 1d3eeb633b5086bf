// Submitted code without the network. As root, every process that runs target code starts in a
// network namespace of its own, made by util-linux's `unshare --net`: its one interface is a
// loopback left down, so no address answers, not even 127.0.0.1, and every program it runs (git,
// cp, a shell) is in the same namespace. unshare runs as root, makes the namespace, takes the lent
// user's group and user ids (dropping every supplementary group) and execs the command, so the
// process keeps the pid the grader started. The lent user has no capability left to bring an
// interface up or to enter another namespace. This file runs in the grader's processes, never in a target's.
//
// A namespace per process, rather than one per grade entered with nsenter: it costs the same to
// start (about 1 ms each, see README "What submitted code can reach"), leaves nothing to clean up
// after a grade that was killed, and keeps sibling processes from meeting on an abstract socket.
// The loopback stays down: nothing the lab asks for talks over the network, git included.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

/** The ids a process of submitted code takes (a lent user's, target-user.ts). */
type Ids = { uid: number; gid: number };

/** Whether submitted code is kept off the network, and why not when it is not. */
export type NetworkAccess = { cut: true; unshare: string } | { cut: false; why: string };

/** Where util-linux puts unshare (/bin is /usr/bin on most systems now). */
const UNSHARE_PLACES = ["/usr/bin/unshare", "/bin/unshare"];

/** `command` started as `user`, in a network namespace of its own: to be spawned as root, without uid or gid. */
export function withoutNetwork(command: { file: string; args: string[] }, user: Ids, unshare: string): { file: string; args: string[] } {
  // --setgid before --setuid is unshare's own order, whatever the order given; spelled out for the reader.
  return { file: unshare, args: ["--net", `--setgid=${user.gid}`, `--setuid=${user.uid}`, "--", command.file, ...command.args] };
}

/**
 * Whether `user` can run Node without the network here: unshare must be installed, support
 * --setuid (util-linux 2.34, 2019), and be allowed to make a namespace (a container without
 * CAP_SYS_ADMIN, or whose seccomp profile refuses unshare, is not).
 */
export function probeNetworkCut(user: Ids): NetworkAccess {
  const unshare = UNSHARE_PLACES.find((file) => fs.existsSync(file));
  if (!unshare) return { cut: false, why: "util-linux's unshare is not installed" };
  const probe = withoutNetwork({ file: process.execPath, args: ["-e", "0"] }, user, unshare);
  const ran = spawnSync(probe.file, probe.args, { cwd: "/", env: {}, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", timeout: 30_000 });
  if (ran.status === 0) return { cut: true, unshare };
  // Its own words, without its name: "unshare: unshare failed: Operation not permitted" says "Operation not permitted".
  const said = (ran.stderr ?? "").split("\n").find((line) => line.trim())?.replace(/^unshare:\s*(unshare failed:\s*)?/, "").trim();
  return { cut: false, why: `no network namespace could be made (unshare --net: ${said || ran.error?.message || `exit ${ran.status}`})` };
}
