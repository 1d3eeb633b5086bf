// The handout's rule for the branch of the git-backed runner: it holds exactly one commit per
// step, in order, each naming its step; the only commit that may name no step is the first (the
// initial state, say). Every check that judges the branch, with or without crashes, judges it here.
import { toldOutcome } from "../../grading/told.js";

/** The step a commit message names ("step 3", "Step #3 of 10", "after step-3"), or null. */
export function stepNamed(subject: string): number | null {
  const m = /\bstep[\s#:_-]*(\d+)/i.exec(subject);
  return m ? Number(m[1]) : null;
}

/**
 * Null when `subjects` (the branch's commits by first parents, oldest first) are exactly one
 * commit per step for steps 1 to `stepsDone`, in order, each naming its step, after at most one
 * first commit that names no step; otherwise what the branch holds, at its first wrong commit.
 */
export function judgeBranch(subjects: readonly string[], stepsDone: number): string | null {
  const named = subjects.map(stepNamed);
  const holds = `the branch (git log --first-parent) holds ${count(subjects.length, "commit")} for ${count(stepsDone, "step")}`;
  // The first commit alone may stand for the state before step 1.
  const offset = named[0] === null ? 1 : 0;
  for (let i = offset; i < Math.max(subjects.length, stepsDone + offset); i++) {
    const want = i - offset + 1;
    if (i >= subjects.length) return judged("a step has no commit at the end of the branch", holds), `${holds}: ${i === 0 ? "" : `after ${commitBefore(subjects, named, i)} it ends, and `}${stepRange(want, stepsDone)} no commit`;
    const got = named[i] as number | null;
    const comes = i === 0 ? `the first commit is ${quote(subjects[0]!)}` : `after ${commitBefore(subjects, named, i)} comes ${quote(subjects[i]!)}`;
    if (got === null) return judged("a commit after the first names no step", holds), `${holds}: ${comes}, which names no step; only the first commit may name no step`;
    if (want > stepsDone) return judged("a commit names a step the task had not done", holds), `${holds}: ${comes}, which names step ${got}, though the task had done ${count(stepsDone, "step")}`;
    if (got === want) continue;
    if (got === 0) return judged("a commit names step 0", holds), `${holds}: ${comes}, which names step 0; the steps are numbered from 1, and a first commit for the state before step 1 must name no step`;
    if (got < want) return judged("a step has more than one commit", holds), `${holds}: ${comes}, which names step ${got} again; each step has exactly one commit`;
    judged("a step has no commit of its own, or the commits are out of step order", holds);
    return `${holds}: ${comes}, which names step ${got}; step ${want} has no commit of its own, and the commits must come in step order`;
  }
  return null;
}

/** What is wrong with the branch, as the failure's outcome (told.ts), said in a picture as `says` (what the branch holds). */
function judged(outcome: string, says: string): void {
  toldOutcome(outcome, { judged: true, place: { says } });
}

/** The commit just before `i`, in words: "step 3's commit", or the first commit that names no step. */
function commitBefore(subjects: readonly string[], named: readonly (number | null)[], i: number): string {
  const before = named[i - 1];
  return before === null || before === undefined ? `the first commit, ${quote(subjects[0]!)},` : `step ${before}'s commit`;
}

/** "step 4 has" or "steps 4 to 10 have". */
function stepRange(from: number, to: number): string {
  return from === to ? `step ${from} has` : `steps ${from} to ${to} have`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A commit message's first line as the message quotes it, cut short when long. */
function quote(subject: string): string {
  return JSON.stringify(subject.length <= 40 ? subject : subject.slice(0, 39) + "…");
}
