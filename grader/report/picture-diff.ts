// The "diff" picture's data (report/picture.ts): being written.
export interface DiffPicture {
  kind: "diff";
}
