// Phase 3, three sessions: grades the target's session.ts as a program, each session a real process.
import type { DeliverableDefinition } from "../../grading/harness.js";
import { afterCompletion } from "./after-completion.js";
import { killedSession } from "./killed-session.js";
import { randomSplits } from "./random-splits.js";
import { threeSessions } from "./three-sessions.js";

export const phase3: DeliverableDefinition = {
  id: "phase3",
  checks: [threeSessions, randomSplits, afterCompletion, killedSession],
};
