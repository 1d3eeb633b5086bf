// The Codespaces container (.devcontainer/devcontainer.json): a file in JSON with comments that
// names a Node 22 or 24 image, installs with `npm ci` once it is made, and shows the grade command.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";

const FILE = path.join(REPO_ROOT, ".devcontainer/devcontainer.json");

/** Settings read as the editors read them: JSON with comments and trailing commas. */
function parseJsonc(name: string, text: string): Record<string, unknown> {
  const { config, error } = ts.parseConfigFileTextToJson(name, text);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  return config as Record<string, unknown>;
}

test("the dev container parses, runs Node 22 or 24 with TypeScript, installs with npm ci and shows how to grade", () => {
  const container = parseJsonc(FILE, fs.readFileSync(FILE, "utf8"));
  expect(container.image).toMatch(/^mcr\.microsoft\.com\/devcontainers\/typescript-node:(\d+-)?(22|24)(-\w+)?$/);
  expect(container.postCreateCommand).toMatch(/^npm ci\b/);
  expect(container.postAttachCommand).toMatch(/npm run grade/);
});

test("the reader takes comments and trailing commas and rejects a file that does not parse", () => {
  expect(parseJsonc("ok.json", '// a comment\n{ "image": "node", /* another */ "postCreateCommand": "npm ci", }\n')).toEqual({ image: "node", postCreateCommand: "npm ci" });
  expect(() => parseJsonc("broken.json", '{ "image": "node" "postCreateCommand": "npm ci" }')).toThrow();
});
