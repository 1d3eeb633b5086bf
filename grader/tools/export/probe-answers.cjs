// Probes every function a compiled module exports for whether it answers a deliverable, outside
// the grader (see answers.ts): `node probe-answers.cjs <bundle> <scratch folder>` prints one JSON line, the exports found
// answering (or doing the work of) one of the lab's functions. It calls functions it knows nothing
// of, so it runs in a child process of its own, as a user of its own where the test is root.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const [bundle, scratch] = process.argv.slice(2);
let n = 0;
const fresh = () => fs.mkdtempSync(path.join(scratch, `p${n++}-`));
const canonical = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));
const quietly = (f) => {
  try {
    return { value: f() };
  } catch (error) {
    return { threw: error };
  }
};

// Histories whose first divergence is known by construction.
const s1 = { step: 1, tags: ["x"], meta: { a: 1, b: [true, null] } };
const s2 = { step: 2, tags: ["x", "y"], meta: { a: 2, b: [true, null] }, done: false };
const DIFF_CASES = [
  { a: [s1, s2], b: [s1, s2], step: null, paths: [] },
  { a: [s1, s2], b: [{ ...s1, meta: { b: [true, null], a: 1 } }, { ...s2, tags: ["x", "z", "w"], done: null }], step: 2, paths: [["tags", 1], ["tags", 2], ["done"]] },
  { a: [s1, s2], b: [s1], step: 2, paths: [[]] },
  { a: [s1, s2, s1], b: [{ ...s1, meta: { a: 1, b: [true, 0] } }, s2, s1], step: 1, paths: [["meta", "b", 1]] },
  { a: [{ k: "0" }], b: [{ k: 0 }], step: 1, paths: [["k"]] },
];
const pathSet = (paths) => (Array.isArray(paths) ? paths.map((p) => JSON.stringify(p)).sort().join("|") : null);

function answersDiff(f) {
  let full = true;
  const offsets = new Set();
  for (const c of DIFF_CASES) {
    const r = quietly(() => f(c.a, c.b));
    if (r.threw) return null;
    const v = r.value;
    const step = v && typeof v === "object" ? v.step : v;
    if (c.step === null) {
      if (v !== null && v !== undefined && v !== -1 && v !== false) return null;
      continue;
    }
    if (typeof step !== "number") return null;
    offsets.add(step - c.step);
    if (!(v && typeof v === "object" && pathSet(v.paths) === pathSet(c.paths))) full = false;
  }
  if (offsets.size !== 1) return null;
  return full && offsets.has(0) ? "firstDivergence" : "the step of firstDivergence";
}

function fakeTask(steps, ran) {
  return { id: "probe-task", steps, initialState: () => ({ n: 0 }), runStep: (i, s) => (ran.push(i), { n: s.n * 10 + i }) };
}

function answersRunner(f) {
  const dir = fresh();
  const ran = [];
  const r = quietly(() => f({ task: fakeTask(3, ran), checkpointPath: path.join(dir, "c.json") }));
  if (r.threw || !r.value || r.value.status !== "done" || r.value.nextStep !== 4 || ran.join() !== "1,2,3") return null;
  // Resumes: two steps, then the rest in a later call.
  const dir2 = fresh();
  const ran2 = [];
  const first = quietly(() => f({ task: fakeTask(3, ran2), checkpointPath: path.join(dir2, "c.json"), maxSteps: 2 }));
  const rest = quietly(() => f({ task: fakeTask(3, ran2), checkpointPath: path.join(dir2, "c.json") }));
  return !first.threw && !rest.threw && ran2.join() === "1,2,3" && rest.value && rest.value.status === "done" ? "runTask" : null;
}

function writes(f) {
  const file = path.join(fresh(), "c.json");
  const text = JSON.stringify({ step: 2, notes: ["a"] });
  const r = quietly(() => f(file, text));
  return !r.threw && quietly(() => fs.readFileSync(file, "utf8")).value === text;
}

function readsBack(write, read) {
  const file = path.join(fresh(), "c.json");
  const state = { step: 3, notes: [{ a: [1, "x"] }] };
  if (quietly(() => write(file, state)).threw) return false;
  const r = quietly(() => read(file));
  return !r.threw && canonical(r.value) === canonical(state);
}

function answersHistory(record, load) {
  const dir = fresh();
  const ran = [];
  if (quietly(() => record(fakeTask(3, ran), dir)).threw || ran.join() !== "1,2,3") return false;
  const r = quietly(() => load(dir));
  return !r.threw && canonical(r.value) === canonical([{ n: 1 }, { n: 12 }, { n: 123 }]);
}

const found = [];
const loaded = quietly(() => require(bundle));
if (loaded.threw) {
  console.log(JSON.stringify({ loaded: false, why: String(loaded.threw && loaded.threw.message).split("\n")[0] }));
  process.exit(0);
}
const fns = Object.entries(loaded.value).filter(([, v]) => typeof v === "function" && !/^class\s/.test(Function.prototype.toString.call(v)));
const ones = fns.filter(([, f]) => f.length === 1);
const twos = fns.filter(([, f]) => f.length === 2);
for (const [name, f] of twos) {
  const diff = answersDiff(f);
  if (diff) found.push({ name, answers: diff });
  if (writes(f)) found.push({ name, answers: "a file writer" });
  for (const [other, g] of ones) {
    if (readsBack(f, g)) found.push({ name: `${name} + ${other}`, answers: "atomicCheckpoint + loadCheckpoint" });
    if (answersHistory(f, g)) found.push({ name: `${name} + ${other}`, answers: "recordHistory + loadHistory" });
  }
}
for (const [name, f] of ones) if (answersRunner(f)) found.push({ name, answers: "runTask" });
console.log(JSON.stringify({ loaded: true, functions: fns.length, found }));
process.exit(0);
