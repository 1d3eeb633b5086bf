// The random numbers of simulated processes. A real process that starts draws numbers nobody drew
// before, even when it gets the id of a process that crashed (a restarted container is PID 1 every
// time). So each simulated process start gets a stream of its own, chosen from the check's seed
// and the process's place in its scenario (which crash states it starts from, and how many
// processes started before it there), never from its process id: a grade stays reproducible, and
// no process replays another's numbers. A crash state's trace is named by its place in its case
// (the case's first recording, its second...), and a case's processes take their ids from where
// every case starts, so a case replayed alone draws what it drew in the grade.
import { createHash } from "node:crypto";

/** Where a scenario starts: the crash states it was rebuilt from (each trace named by its key in its case, when it has one), and its first process id. */
export interface ScenarioPlace {
  from?: { traceId: string; cut: unknown; key?: string }[];
  pid?: number;
}

/** The seed of the `index`-th process started in a scenario at `place`, in a check seeded `seed`. */
export function processSeed(seed: number, place: ScenarioPlace, index: number): number {
  const from = (place.from ?? []).map((p) => [p.key ?? p.traceId, p.cut]);
  return seedOf([seed, from, place.pid ?? null, index]);
}

/** A 32-bit seed from any JSON value that says which process it is for. */
export function seedOf(key: unknown): number {
  return createHash("sha256").update(JSON.stringify(key)).digest().readUInt32LE(0);
}

/** `Math` with a `random()` drawn from `seed` (xoshiro128** over a splitmix32-expanded seed); `drew` is told of each draw. */
export function seededMath(seed: number, drew?: () => void): Math {
  let [a, b, c, d] = expand(seed) as [number, number, number, number];
  if ((a | b | c | d) === 0) a = 1;
  const next = () => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  // 53 bits, as V8's own Math.random gives.
  const random = () => {
    drew?.();
    return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
  };
  return Object.create(Math, { random: { value: random } });
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Four 32-bit words from one seed, so nearby seeds give unrelated streams. */
function expand(seed: number): number[] {
  let state = seed >>> 0;
  return Array.from({ length: 4 }, () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  });
}
