// A measurement: what a deliverable reports beside its checks without scoring it (the stretch-git
// comparison of the file and git checkpoints), as a small table plus its raw numbers.

/** One row of a measurement's table: a label, then one cell per column. */
export interface MeasurementRow {
  label: string;
  cells: string[];
  /** True when the row changes from run to run (a time): left out when two reports are compared. */
  varies?: boolean;
}

export interface MeasurementReport {
  id: string;
  title: string;
  columns: string[];
  rows: MeasurementRow[];
  /** A line under the table (what the numbers mean, why a cell is empty). */
  note?: string;
  /** The numbers behind the table, for machines. */
  data: unknown;
}

/** What a measurement's test stores in `task.meta.measurement`. */
export interface MeasurementMeta {
  deliverable: string;
  report: MeasurementReport;
}

declare module "vitest" {
  interface TaskMeta {
    measurement?: MeasurementMeta;
  }
}
