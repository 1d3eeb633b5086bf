// The live progress of a grade, events in and lines out: a deliverable's row appears once its
// checks and the checks they require are decided, with the score the report gives it; the live
// line tells what still runs; every line fits the width; a plain stream gets one line per
// deliverable and no control characters; a terminal's block is redrawn in place and erased at the end.
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import type { CheckMeta } from "../contract/verdict.js";
import { loadRubric } from "../rubric.js";
import { LiveOutput } from "../report/live/live-output.js";
import { liveLines, plainLine, runningLine } from "../report/live/progress-lines.js";
import { GradeProgress } from "../report/live/progress.js";

const rubric = loadRubric();
const deliverable = (id: string) => rubric.deliverables.find((d) => d.id === id)!;
const all = rubric.deliverables.filter((d) => d.enabled && d.checks.length > 0).map((d) => ({ id: d.id, checks: d.checks.map((c) => c.id) }));
const meta = (id: string, status: CheckMeta["status"] = "passed", crashStates = 0): CheckMeta => ({ id, deliverable: id.split(".")[0]!, status, crashStates, durationMs: 1, span: [0, 1] });
const HEADER = "Checkpoint lab: grading solution (seed 20261129)";
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A clock the test moves. */
function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe("the progress model", () => {
  test("a deliverable's row appears only once every check of it is decided, with the points the report gives", () => {
    const c = clock();
    const p = new GradeProgress(rubric, all, c.now(), c.now);
    const phase2 = deliverable("phase2").checks.map((k) => k.id);
    for (const id of phase2.slice(0, -1)) p.decided(meta(id));
    expect(p.decidedRows()).toEqual([]);
    c.advance(8300);
    p.decided(meta(phase2.at(-1)!, "failed"));
    const last = deliverable("phase2").checks.at(-1)!;
    expect(p.decidedRows()).toEqual([{ id: "phase2", title: deliverable("phase2").title, kind: "core", points: 35 - last.points, maxPoints: 35, cached: false, atMs: 8300 }]);
  });

  test("a row waits for a check of another deliverable that one of its checks requires, and what that one requires, and scores it blocked when one failed", () => {
    const p = new GradeProgress(rubric, all, 0, () => 0);
    const power = deliverable("power-loss");
    const required = [...new Set(power.checks.flatMap((k) => k.requires ?? []))].filter((r) => !r.startsWith("power-loss."));
    expect(required.length).toBeGreaterThan(0);
    for (const k of power.checks) p.decided(meta(k.id));
    for (const r of required) p.decided(meta(r, "failed"));
    // crash-safety requires round-trip: the row is not known until round-trip is.
    expect(p.decidedRows().map((r) => r.id)).toEqual([]);
    for (const r of deliverable("phase1").checks.map((k) => k.id).filter((id) => !required.includes(id))) p.decided(meta(r));
    const row = p.decidedRows().find((r) => r.id === "power-loss")!;
    const blocked = power.checks.filter((k) => (k.requires ?? []).some((r) => required.includes(r))).reduce((n, k) => n + k.points, 0);
    expect(row.points).toBe(power.checks.reduce((n, k) => n + k.points, 0) - blocked);
  });

  test("a row whose requirement passed on its own scores nothing when what that one requires failed", () => {
    const p = new GradeProgress(rubric, all, 0, () => 0);
    const power = deliverable("power-loss");
    for (const k of power.checks) p.decided(meta(k.id));
    for (const k of deliverable("phase1").checks) if (k.id !== "phase1.round-trip") p.decided(meta(k.id));
    expect(p.decidedRows().map((r) => r.id)).toEqual([]);
    p.decided(meta("phase1.round-trip", "failed"));
    expect(p.decidedRows().find((r) => r.id === "power-loss")).toMatchObject({ points: 0, maxPoints: power.checks.reduce((n, k) => n + k.points, 0) });
  });

  test("a cached deliverable's row is there at once; its crash states are not this grade's, a running check's are", () => {
    const p = new GradeProgress(rubric, all, 0, () => 0);
    p.fromCache("stretch-diff", deliverable("stretch-diff").checks.map((k) => meta(k.id, "passed", 100)));
    expect(p.decidedRows()).toMatchObject([{ id: "stretch-diff", cached: true, points: 10 }]);
    p.started("phase1.crash-safety");
    p.crashStates("phase1.crash-safety", 40);
    p.decided(meta("phase1.round-trip", "passed", 2));
    expect(p.crashStatesChecked()).toBe(42);
    // The verdict's count replaces the running count; a late annotation does not undo it.
    p.decided(meta("phase1.crash-safety", "passed", 503));
    p.crashStates("phase1.crash-safety", 7);
    expect(p.crashStatesChecked()).toBe(505);
  });
});

describe("the progress lines", () => {
  test("the live line says the elapsed seconds, the crash states so far, each running deliverable's check n of N and how many are still to start; it changes as they do", () => {
    const c = clock();
    const p = new GradeProgress(rubric, all, c.now(), c.now);
    expect(runningLine(p)).toBe(`0\u00a0s · 0 crash states · ${all.length} to start`);
    p.started("phase1.round-trip");
    p.decided(meta("phase1.absent"));
    p.crashStates("phase1.round-trip", 1234);
    c.advance(12_400);
    expect(runningLine(p)).toBe(`12\u00a0s · 1,234 crash states · phase1 check 2 of ${all[0]!.checks.length} · ${all.length - 1} to start`);
  });

  test.each([40, 60, 80, 100])("at %i columns every line fits, coloured or not, and without colour has no control character", (width) => {
    const p = new GradeProgress(rubric, all, 0, () => 61_000);
    for (const d of all) p.started(d.checks[0]!);
    for (const d of all.slice(0, 5)) for (const id of d.checks) p.decided(meta(id, "passed", 1000));
    for (const color of [false, true]) {
      const lines = liveLines(p, { header: HEADER, width, color });
      expect(lines.length).toBe(2 + 5 + 2);
      for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(width);
      if (!color) for (const l of lines) expect(l).not.toMatch(CONTROL);
    }
  });

  test("a plain line keeps the whole title, its score and when the row was known since the grade began", () => {
    const p = new GradeProgress(rubric, all, 0, () => 61_000);
    for (const d of all) for (const id of d.checks) p.decided(meta(id, "passed", 1000));
    const rows = p.decidedRows();
    expect(rows.map((row) => plainLine(row))).toEqual(rows.map((row) => `${row.title} · ${row.points}/${row.maxPoints}${row.kind === "bonus" ? " (bonus)" : ""} · at 61.0\u00a0s`));
    for (const row of rows) expect(plainLine(row)).not.toMatch(CONTROL);
  });

  test("a terminal that gives no columns gets the live lines a pipe's width would, not lines cut to nothing", () => {
    const screen = new Screen(0);
    const c = clock();
    const out = new LiveOutput(new GradeProgress(rubric, all.slice(0, 3), c.now(), c.now), screen, { header: HEADER, color: false });
    try {
      out.started("phase1.round-trip");
      expect(screen.text()).toEqual([HEADER, "", "", "0\u00a0s · 0 crash states · phase1 check 1 of 6 · 2 to start"]);
    } finally {
      out.finish();
    }
  });

  test("once every row is known the block is the header and the rows, in the order they became known, with no live line", () => {
    const p = new GradeProgress(rubric, all.slice(0, 2), 0, () => 0);
    for (const id of all[1]!.checks) p.decided(meta(id));
    for (const id of all[0]!.checks) p.decided(meta(id));
    const lines = liveLines(p, { header: HEADER, width: 80, color: false });
    expect(lines).toEqual([HEADER, "", expect.stringMatching(/^Phase 2: crash recovery +35\/35$/), expect.stringMatching(/^Phase 1: atomic checkpoint +35\/35$/)]);
    expect(lines[2]!.indexOf("35/35")).toBe(lines[3]!.indexOf("35/35"));
  });
});

/** A terminal of `columns` columns that keeps what is on its screen: text, \n, \r, cursor up (ESC [n A) and erase line (ESC [2K), as the block uses them; anything else fails the test. */
class Screen {
  readonly isTTY = true;
  lines: string[] = [];
  private row = 0;
  private col = 0;
  constructor(readonly columns: number) {}
  write(text: string): boolean {
    for (let i = 0; i < text.length; ) {
      const esc = /^\x1b\[(\d*)([A-Za-z])/.exec(text.slice(i));
      if (esc) {
        if (esc[2] === "A") this.row = Math.max(0, this.row - Number(esc[1] || 1));
        else if (esc[2] === "K" && esc[1] === "2") this.lines[this.row] = "";
        else if (esc[2] !== "m") throw new Error(`unexpected control sequence ${JSON.stringify(esc[0])}`);
        i += esc[0].length;
        continue;
      }
      const ch = text[i++]!;
      if (ch === "\n") (this.row++, (this.col = 0));
      else if (ch === "\r") this.col = 0;
      else {
        const line = (this.lines[this.row] ?? "").padEnd(this.col);
        this.lines[this.row] = line.slice(0, this.col) + ch + line.slice(this.col + 1);
        this.col++;
      }
    }
    return true;
  }
  /** What is on the screen, trailing empty lines aside. */
  text(): string[] {
    const lines = [...this.lines].map((l) => l ?? "");
    while (lines.length > 0 && lines.at(-1) === "") lines.pop();
    return lines;
  }
  get cursorRow(): number {
    return this.row;
  }
}

describe("the progress output", () => {
  test("on a terminal the block is redrawn in place (one header, the rows so far, the live line) and erased at the end, the cursor where it began", () => {
    const screen = new Screen(80);
    screen.write("$ npm run grade\n");
    const c = clock();
    const p = new GradeProgress(rubric, all.slice(0, 3), c.now(), c.now);
    const out = new LiveOutput(p, screen, { header: HEADER, color: false });
    try {
      expect(screen.text()).toEqual(["$ npm run grade", HEADER, "", "", "0\u00a0s · 0 crash states · 3 to start"]);
      for (const id of all[1]!.checks) out.decided(meta(id));
      c.advance(5000);
      out.started("phase1.crash-safety");
      out.crashStates("phase1.crash-safety", 99);
      const shown = screen.text();
      expect(shown.filter((l) => l === HEADER)).toHaveLength(1);
      expect(shown.slice(3)).toEqual([expect.stringMatching(/^Phase 2: crash recovery +35\/35$/), "", expect.stringMatching(/^5\u00a0s · 99 crash states · phase1 check 1 of \d+/)]);
      for (const d of all.slice(0, 3)) for (const id of d.checks) out.decided(meta(id));
      expect(screen.text().slice(1)).toEqual([HEADER, "", expect.stringMatching(/^Phase 2/), expect.stringMatching(/^Phase 1/), expect.stringMatching(/^Phase 3/)]);
    } finally {
      out.finish();
    }
    expect(screen.text()).toEqual(["$ npm run grade"]);
    expect(screen.cursorRow).toBe(1);
  });

  test("not on a terminal: one plain line per deliverable as it finishes, a blank line at the end, and no control character", () => {
    let written = "";
    const stream = { isTTY: false, write: (t: string) => ((written += t), true) };
    const c = clock();
    const p = new GradeProgress(rubric, all.slice(0, 3), c.now(), c.now);
    const out = new LiveOutput(p, stream, { header: HEADER, color: true });
    out.started("phase1.round-trip");
    out.crashStates("phase1.round-trip", 5);
    expect(written).toBe("");
    out.fromCache("phase3", all[2]!.checks.map((id) => meta(id)));
    c.advance(7250);
    for (const id of all[0]!.checks) out.decided(meta(id));
    for (const id of all[1]!.checks) out.decided(meta(id));
    out.finish();
    expect(written).toBe(
      [`Phase 3: three sessions · 30/30 · from the cache`, `Phase 1: atomic checkpoint · 35/35 · at 7.3\u00a0s`, `Phase 2: crash recovery · 35/35 · at 7.3\u00a0s`, "", ""].join("\n"),
    );
    expect(written).not.toMatch(CONTROL);
  });
});
