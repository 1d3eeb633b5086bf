// The "runs" picture's data (report/picture.ts): being written.
export interface RunsPicture {
  kind: "runs";
}
