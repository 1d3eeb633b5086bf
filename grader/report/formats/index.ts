// Every format `npm run grade` and `npm run report` can write, by flag.
import { classroom50Format } from "./classroom50.js";
import type { ReportFormat } from "./format.js";
import { gradescopeFormat } from "./gradescope.js";
import { htmlFormat } from "./html.js";
import { junitFormat } from "./junit.js";
import { markdownFormat } from "./markdown.js";

export const FORMATS: ReportFormat[] = [markdownFormat, junitFormat, classroom50Format, gradescopeFormat, htmlFormat];

/** The format a flag asks for, or undefined. */
export function formatOf(flag: string): ReportFormat | undefined {
  return FORMATS.find((f) => f.flag === flag);
}
