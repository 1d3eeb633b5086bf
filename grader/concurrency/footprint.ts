// Which operations of the writers touch what, and which of them conflict: the one question the
// exploration of orders asks of a run (explore.ts), and the one the world asks before it has the
// reader load again (world.ts). A footprint is the names an operation reads and changes, as the
// writer's sandbox reports them (sandbox/actor-protocol.ts).
import { EVERY_NAME, type Footprint, type StepDid } from "../sandbox/messages/actor.js";

/** One operation let through: whose, what, and what it touched. */
export interface Step {
  writer: number;
  what: string;
  /** The same operation as data (messages/actor.ts). */
  did?: StepDid;
  footprint: Footprint;
  failed: boolean;
}

/** Before a step: the writers still running and the operation each one waits to make. */
export interface Choice {
  pending: Map<number, Footprint>;
}

/** The name a listing of the folder holding `name` goes by ("@/work/*" for "@/work/x"). */
export function listingOf(name: string): string {
  return `${name.slice(0, name.lastIndexOf("/"))}/*`;
}

/** True when the order of two operations can matter: one changes a name the other touches. */
export function conflict(a: Footprint, b: Footprint): boolean {
  // "dir/*" is a listing of dir: every name in dir is part of it. EVERY_NAME is every name.
  const touchesAny = (f: Footprint) => f.reads.length > 0 || f.writes.length > 0;
  if (a.writes.includes(EVERY_NAME)) return touchesAny(b);
  if (b.writes.includes(EVERY_NAME)) return touchesAny(a);
  const touches = (f: Footprint, name: string) => f.reads.includes(name) || f.writes.includes(name) || f.reads.includes(listingOf(name));
  return a.writes.some((n) => touches(b, n)) || b.writes.some((n) => touches(a, n));
}
