// A finding's story, as a student reads it under a failed check: what the check did, what came
// back against what was expected, and what explains it, rendered from the Finding alone.
import type { AfterFault, ChainLink, ConcurrentWriters, CrashChain, DiskSaidNo, TaskRun, Finding, KilledEnteringStep, KilledProcesses, Note, PowerCutInCall, Setting, When, Wrong } from "../contract/finding.js";
import { describePolicy, missingStep, modelAt } from "../crash/power-loss.js";
import { describeCut, describeDisk } from "../crash/describe.js";
import { callWords, callWrongWords, returnedUnfinishedWords, saveCall } from "./call-words.js";
import { runStory, wentWords } from "./run-story.js";
import { faultWords } from "./fault-words.js";
import { afterCrashesWords, budgetStepsWords, ranWhenDoneWords, recordWrongWords, stepsByProcessWords, taskCrashesWords, taskResultWords } from "./task-words.js";

export function storyOf({ setting, when, wrong, notes = [] }: Finding): string {
  // A run of concurrent writers is told as one piece: its failure follows the calls it ran after.
  if (setting?.kind === "concurrent-writers") return wrong.kind === "run" ? runStory(setting, wrong) : wrongWords(wrong);
  // The handout's scenario is told as one line: the kill, then what went wrong.
  if (setting?.kind === "killed-entering-step") return [killedEnteringWords(setting, wrong), ...notes.map(noteWords)].join("\n");
  const lines = setting ? [settingWords(setting)].filter(Boolean) : [];
  lines.push(setting?.kind === "killed-processes" ? killedProcessWrong(setting, wrong) : when ? happenedWhen(when, wrong, setting) : wrongWords(wrong));
  for (const note of notes) lines.push(noteWords(note));
  return lines.join("\n");
}

function noteWords(note: Note): string {
  return note.kind === "hint" ? note.says : returnedUnfinishedWords(note.fn);
}

/** "Process 1 ran runTask and was killed with SIGKILL as it entered runStep(6). Process 2 ran runTask again: ..."; or what process 1 did instead of being killed. */
function killedEnteringWords({ step, killed }: KilledEnteringStep, wrong: Wrong): string {
  if (killed) return `Process 1 ran runTask and was killed with SIGKILL as it entered runStep(${step}). Process 2 ran runTask again: ${wrongWords(wrong)}.`;
  return `Process 1 ran runTask, to be killed when it entered runStep(${step}), but it never did${wrong.kind === "never-entered" ? "" : `: ${wrongWords(wrong)}`}.`;
}

function settingWords(setting: Exclude<Setting, ConcurrentWriters | KilledEnteringStep>): string {
  switch (setting.kind) {
    case "writes-in-turn":
      return `Wrote ${setting.shown.join(", then ")}, loading after each write.`;
    case "nothing-written":
      return `Called loadCheckpoint on a path in ${setting.where}, where nothing was ever written.`;
    case "killed-processes":
      return killedProcessesSoFar(setting);
    case "power-cut-in-call":
      return powerCutWords(setting);
    case "crash-chain":
      return chainWords(setting);
    case "task-crashes":
      return taskCrashesWords(setting);
    case "disk-said-no":
      return diskSaidNoWords(setting);
    case "crash-in-call": {
      const killed = describeCut(setting.trace, setting.cut, setting.start, { call: "atomicCheckpoint" });
      return `${callOver(setting.old, setting.call)} ${killed}.\nOn disk after the crash: ${describeDisk(setting.disk)}.`;
    }
  }
}

/**
 * A power cut in a save: the step the save is missing, when one explains the failure; where the
 * power failed; what was not yet durable then; how the cut went; and the disk it left.
 */
function powerCutWords({ old, call, trace, cut, start, end, disk }: PowerCutInCall): string {
  const missing = missingStep(trace, start, end);
  const where = cut.at >= end ? "called, and the power failed right after it returned" : describeCut(trace, cut, start, { call: "atomicCheckpoint", interruption: "interrupted by a power cut" });
  const volatile = modelAt(trace, cut).volatile();
  return [
    missing ? `${missing.words.charAt(0).toUpperCase()}${missing.words.slice(1)}.` : "",
    `${callOver(old, call)} ${where}.`,
    volatile.length ? `Not yet durable at that moment: ${volatile.join("; ")}.` : "",
    `The power cut went this way: ${describePolicy(cut.power!)}.`,
    `On disk after the power cut: ${describeDisk(disk)}.`,
  ].filter(Boolean).join("\n");
}

/** "With the old checkpoint X on disk, atomicCheckpoint(path, Y) ran on a disk that said no: ... It threw ... On disk after it: ...". */
function diskSaidNoWords(setting: DiskSaidNo): string {
  const { old, call, result, disk } = setting;
  const outcome = result.status === "returned" ? "atomicCheckpoint returned normally" : callWords(saveCall(result));
  return `${onDisk(old)}, ${call} ran on a disk that said no: ${faultWords(setting)}.\n${outcome}. On disk after it: ${describeDisk(disk)}.`;
}

/** The crashes of a chain, a line each, and what the last one left once the last process ran. */
function chainWords({ old, links, disk }: CrashChain): string {
  const lines = [old === null ? "There was no checkpoint yet." : `Process 1 wrote the old checkpoint ${old}.`, ...links.map(crashLine)];
  if (disk) lines.push(`On disk after ${links.at(-1)?.cut.power ? "the last power cut" : "the last crash"}: ${describeDisk(disk)}.`);
  return lines.join("\n");
}

/** "Process 3 called loadCheckpoint, which returned X, then atomicCheckpoint(path, Y), and was killed right after ...". */
function crashLine(link: ChainLink): string {
  const inLoad = link.cut.at < link.writeStart;
  const where = cutWhere(link, inLoad ? link.start : link.writeStart);
  if (inLoad) return `Process ${link.number} called loadCheckpoint and ${where}.`;
  const writing = `atomicCheckpoint(path, ${link.state})`;
  if (!link.loaded) return `Process ${link.number} called ${writing} and ${where}.`;
  const loaded = link.loaded.status === "returned" ? `loadCheckpoint, which returned ${link.loaded.value.preview},` : `loadCheckpoint (${callWords({ fn: "loadCheckpoint", shown: "it", result: link.loaded })}),`;
  return `Process ${link.number} called ${loaded} then ${writing}, and ${where}.`;
}

/** "was killed right after ...", or for a power cut "the power failed right after ... (unsynced data was lost, ...)". */
function cutWhere({ trace, cut, writeEnd }: ChainLink, from: number): string {
  if (!cut.power) return `was ${describeCut(trace, cut, from, { call: "it" })}`;
  const where = cut.at > writeEnd ? "the power failed after it returned" : `was ${describeCut(trace, cut, from, { call: "it", interruption: "interrupted by a power cut" })}`;
  return `${where} (${describePolicy(cut.power)})`;
}

/** The steps of the killed processes, in order; the first three are told as done once a later one fails. */
const KILLED_STEPS: KilledProcesses["at"][] = ["write-old", "kill-in-write", "load-after-kill", "write-new", "load-new", "load-in-next"];

/** What the killed processes did before the step whose failure is told, a line each ("" for none). */
function killedProcessesSoFar({ at, old, next, torn }: KilledProcesses): string {
  const file = JSON.stringify(torn?.shownFile ?? "a file");
  const killedWhere = !torn ? "in the middle of its first write."
    // A SIGKILL ends the process, not the program it is waiting for: that one writes on to its end.
    : torn.command ? `while ${torn.api} wrote ${file}; the program went on to its end (a SIGKILL stops the process, not the programs it started).`
    : `in the middle of ${torn.api}(${file}): ${torn.written} of ${torn.of} bytes had reached the file.`;
  const done = [`Process 1 wrote the old checkpoint ${old}.`, `Process 2 called atomicCheckpoint(path, ${next}) and was killed with SIGKILL ${killedWhere}`, "Process 3 loaded the old checkpoint."];
  return done.slice(0, KILLED_STEPS.indexOf(at)).join("\n");
}

/** The failure of the step `at` of the killed processes, framed by what that process was doing. */
function killedProcessWrong({ at, next, after }: KilledProcesses, wrong: Wrong): string {
  const said = wrongWords(wrong);
  switch (at) {
    case "write-old":
      return `Process 1 tried to write the old checkpoint: ${said}.`;
    case "kill-in-write":
      return `Process 2 called atomicCheckpoint(path, ${next}) to be killed during its first write, but it ${wrong.kind === "no-write-to-kill" ? said : `failed first: ${said}`}.`;
    case "load-after-kill":
      return `Process 3 then ${said}.`;
    case "write-new":
      return `Process 4 tried to write a new checkpoint over what process 2 left: ${said}.`;
    case "load-new":
      return `Process 4 wrote a new checkpoint ${after} over what process 2 left, then loaded it: ${said}.`;
    case "load-in-next":
      return `Process 4 wrote ${after}. Process 5 then: ${said}.`;
  }
}

/** "With the old checkpoint {...} on disk, atomicCheckpoint(path, {...}) was": how a crash or a power cut in a save begins (`old` null: no checkpoint). */
function callOver(old: string | null, call: string): string {
  return `${onDisk(old)}, ${call} was`;
}

function onDisk(old: string | null): string {
  return old === null ? "With no checkpoint on disk" : `With the old checkpoint ${old} on disk`;
}

/** What came back, against what was expected: "loadCheckpoint returned null; expected the state just written {...}". */
export function wrongWords(wrong: Wrong): string {
  switch (wrong.kind) {
    case "call":
      return callWrongWords(wrong);
    case "run":
      return wentWords(wrong.went);
    case "record":
      return recordWrongWords(wrong);
    case "task-result":
      return taskResultWords(wrong);
    case "ran-when-done":
      return ranWhenDoneWords(wrong);
    case "never-entered":
      return `runTask never entered runStep(${wrong.step})`;
    case "steps-by-process":
      return stepsByProcessWords(wrong);
    case "budget-steps":
      return budgetStepsWords(wrong);
    case "process":
      return wrong.said;
    case "no-write-to-kill":
      return "finished without writing any bytes, through Node's fs or a program it ran";
    case "too-many-calls":
      return `${wrong.fn ? `${wrong.fn} ` : ""}made more file-system calls than the grader records (${wrong.limits})`;
    case "sandbox": {
      const text = `The process running your code ${wrong.said}`;
      return /[.?!)]$/.test(text) ? text : `${text}.`;
    }
  }
}

/** What went wrong, with when it happened (after what the setting tells). */
function happenedWhen(when: When, wrong: Wrong, setting: Setting | undefined): string {
  const said = wrongWords(wrong);
  switch (when.kind) {
    case "no-fault":
    case "after-fault":
    case "written-out":
    case "disk-fine-again":
      return afterFault(when, said, setting);
    case "after-restart":
      return `After a restart (a fresh process), ${said}`;
    case "on-restart":
      return `On restart, ${said}.`;
    case "recovering":
      return `The next process (with the same process id, as a restarted container gets) loaded, ${recoveredSoFar(when)}: ${said}.`;
    case "task-run":
      return `${TASK_RUN_WORDS[when.run](when.steps)}: ${said}.`;
    case "after-crashes":
      return `${afterCrashesWords(when)}: ${said}.`;
    case "budgeted-runs":
      return `Ran runTask in ${when.budgets.length + 1} processes with maxSteps ${when.budgets.join(", ")}, then none: ${when.inRun === undefined ? "" : `in run ${when.inRun}, `}${said}.`;
    case "in-chain":
      // A process that made too many calls to record did nothing else worth telling.
      if (wrong.kind === "too-many-calls") return `Process ${when.process} ${said}.`;
      return `Process ${when.process} ${when.did === "nothing" ? "then" : when.did === "loaded" ? "loaded, then" : `loaded, wrote ${when.wrote}, then`}: ${said}.`;
  }
}

/** How a story begins the run a task's failure happened in. */
const TASK_RUN_WORDS: Record<TaskRun["run"], (steps: number) => string> = {
  "whole-once": (steps) => `runTask ran the ${steps}-step task once, with no crash`,
  "first-to-end": () => "The first run, to completion",
  "again-when-done": () => "After the task was done, a new process ran runTask again on the finished checkpoint",
  "crash-free": () => "A run with no crash failed first",
  "crash-free-git": () => "A run of runTask (git-checkpoint.ts) with no crash failed first",
};

/** What the recovering process did, up to the call that went wrong: only what happened is told as done. */
function recoveredSoFar({ reached, wrote, again }: Extract<When, { kind: "recovering" }>): string {
  const wroteNew = `wrote ${wrote}`;
  const rewrote = `wrote again the state it was writing when it crashed, ${again}`;
  switch (reached) {
    case "write-new":
      return "then tried to write a new state";
    case "load-new":
      return `${wroteNew}, then loaded it back`;
    case "write-again":
      return `${wroteNew} and loaded it back, then tried to write again the state it was writing when it crashed`;
    case "load-again":
      return `${wroteNew} and loaded it back, ${rewrote}, then loaded it back`;
    case "load-after-restart":
      return `${wroteNew}, ${rewrote}, and loaded each back; after a further restart`;
  }
}

/** What went wrong in or after a call the disk said no to (`said`: the wrong in words). */
function afterFault(when: AfterFault, said: string, setting: Setting | undefined): string {
  // A call that returned said the state was saved: a load that finds another state is its fault.
  const returned = setting?.kind === "disk-said-no" && setting.result.status === "returned" ? " (atomicCheckpoint returned normally, so the new state must be saved: it must throw whenever it may not be)" : "";
  switch (when.kind) {
    case "no-fault":
      return `With no fault, ${said}.`;
    case "after-fault":
      return when.in === "same-process" ? `Then, in the same process, ${said}${returned}.` : `Then a new process's ${said}${returned}.`;
    case "written-out":
      return (
        `The machine then wrote out everything it still could (the bytes and folder entries a failed fsync lost never reach the disk). ` +
        `On disk then: ${describeDisk(when.disk)}.\nA new process's ${said}${returned}.`
      );
    case "disk-fine-again": {
      const who = `With the disk fine again, the ${when.process} process saved`;
      if (when.reached === "save") return `${who} another state: ${said}.`;
      return when.reached === "load" ? `${who} ${when.after}; then ${said}.` : `${who} ${when.after} and loaded it back; then a further new process's ${said}.`;
    }
  }
}
