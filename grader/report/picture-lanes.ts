// The "lanes" picture's data (report/picture.ts): being written.
export interface LanesPicture {
  kind: "lanes";
}
