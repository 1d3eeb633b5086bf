// The disk that says no, without a grade: which operations are fault points, how each fault
// fails, and what the power model keeps of the bytes and entries a failed fsync lost. Runs in
// well under a second.
import { describe, expect, test } from "vitest";
import { powerImage } from "../crash/power-loss.js";
import { PowerModel } from "../crash/power-model.js";
import type { FsOp } from "../crash/model.js";
import { DiskFaults } from "../sandbox/interposition/disk-faults.js";

describe("the faults of a disk that says no", () => {
  test("a survey counts every write, creation and fsync by kind and fails nothing", () => {
    const faults = new DiskFaults();
    expect(faults.create("openSync", "@/work/t", "open", "/x/t")).toBeNull();
    expect(faults.write("writeSync", "@/work/t", 10)).toBeNull();
    expect(faults.write("writeSync", "@/work/t", 0)).toBeNull(); // an empty write is no fault point
    expect(faults.fsync("fsyncSync", "@/work/t")).toBeNull();
    expect(faults.write("writeSync", "@/work/t", 4)).toBeNull();
    expect(faults.report().points.map((p) => `${p.on}${p.index}`)).toEqual(["create0", "write0", "fsync0", "write1"]);
    expect(faults.report().injected).toBeUndefined();
  });

  test("a short write lets only its bytes through, once; later writes are whole", () => {
    const faults = new DiskFaults({ kind: "short-write", index: 1, bytes: 3 });
    expect(faults.write("writeSync", "@/work/t", 10)).toBeNull();
    expect(faults.write("writeSync", "@/work/t", 10)).toEqual({ bytes: 3 });
    expect(faults.write("writeSync", "@/work/t", 7)).toBeNull();
    expect(faults.report().injected).toMatchObject({ on: "write", index: 1, bytes: 10 });
  });

  test("a full disk lets part of a write in, then fails every write and creation with ENOSPC as Node's fs does", () => {
    const faults = new DiskFaults({ kind: "disk-full", on: "write", index: 0, bytes: 4 });
    expect(faults.write("writeSync", "@/work/t", 10)).toEqual({ bytes: 4 });
    const next = faults.write("writeSync", "@/work/t", 6);
    expect(next && "error" in next && next.error).toMatchObject({ code: "ENOSPC", errno: -28, syscall: "write", message: "ENOSPC: no space left on device, write" });
    expect(faults.create("openSync", "@/work/u", "open", "/x/u")).toMatchObject({ code: "ENOSPC", syscall: "open", path: "/x/u", message: "ENOSPC: no space left on device, open '/x/u'" });
    expect(faults.fsync("fsyncSync", "@/work/t")).toBeNull();
  });

  test("a full disk can first show at a creation; an fsync fails with EIO and the next one succeeds", () => {
    const full = new DiskFaults({ kind: "disk-full", on: "create", index: 1 });
    expect(full.create("mkdirSync", "@/work/d", "mkdir", "/x/d")).toBeNull();
    expect(full.create("openSync", "@/work/t", "open", "/x/t")).toMatchObject({ code: "ENOSPC" });
    expect(full.write("writeSync", "@/work/t", 1)).toMatchObject({ error: { code: "ENOSPC" } });
    const eio = new DiskFaults({ kind: "failed-fsync", index: 0 });
    expect(eio.fsync("fsyncSync", "@/work/t")).toMatchObject({ code: "EIO", errno: -5, syscall: "fsync", message: "EIO: i/o error, fsync" });
    expect(eio.fsync("fsyncSync", "@/work/t")).toBeNull();
  });

  test("nothing fails once faults are turned off", () => {
    const faults = new DiskFaults({ kind: "failed-fsync", index: 0 });
    faults.armed = false;
    expect(faults.fsync("fsyncSync", "@/work/t")).toBeNull();
    expect(faults.report().points).toEqual([]);
  });
});

const op = (o: Record<string, unknown>) => ({ api: "t", ...o }) as FsOp;
const open = (path: string, fd: number, flags = "w") => op({ kind: "open", path, flags, fd });
const write = (fd: number, text: string) => op({ kind: "write", fd, bytes: Buffer.from(text), position: null });
const fsync = (fd: number, failed = false) => op({ kind: "fsync", fd, data: false, failed });
const text = (model: PowerModel, name: string, policy: { data: "lost" | "partial" | "kept"; names: "lost" | "kept" }) => {
  const node = powerImage(model, policy).get(name);
  return node?.kind === "file" ? node.data.toString("latin1") : node?.kind;
};

describe("what a failed fsync loses, in the power model", () => {
  test("the bytes a failed fsync was to write never reach the disk, even through a later fsync that succeeds", () => {
    const model = new PowerModel();
    for (const e of [open("@/work/t", 1), write(1, "abc"), fsync(1, true), fsync(1)]) model.apply(e);
    expect(text(model, "@/work/t", { data: "kept", names: "kept" })).toBe("\0\0\0");
    expect(text(model, "@/work/t", { data: "lost", names: "kept" })).toBe("\0\0\0");
    expect(model.volatile().join("; ")).toMatch(/3 bytes of "t" that a failed fsync lost/);
  });

  test("bytes written again after the failure are dirty again, and a later fsync makes them durable", () => {
    const model = new PowerModel();
    for (const e of [open("@/work/t", 1), write(1, "abc"), fsync(1, true), op({ kind: "write", fd: 1, bytes: Buffer.from("xy"), position: 0 }), fsync(1)]) model.apply(e);
    expect(text(model, "@/work/t", { data: "lost", names: "kept" })).toBe("xy\0");
  });

  test("a failed fsync of a folder loses its unsynced entries; a later change of the same name is seen again", () => {
    const model = new PowerModel();
    for (const e of [open("@/work/t", 1), write(1, "new"), fsync(1), op({ kind: "close", fd: 1 }), op({ kind: "rename", from: "@/work/t", to: "@/work/c" }), open("@/work", 2, "r"), fsync(2, true)]) model.apply(e);
    expect(text(model, "@/work/c", { data: "kept", names: "kept" })).toBeUndefined();
    expect(text(model, "@/work/t", { data: "kept", names: "kept" })).toBeUndefined();
    model.apply(op({ kind: "rename", from: "@/work/c", to: "@/work/d" }));
    expect(text(model, "@/work/d", { data: "kept", names: "kept" })).toBe("new");
  });
});
