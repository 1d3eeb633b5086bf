// Phase 3, three sessions: grades the target's session.ts as a program, each session a real process.
import { gradeDeliverable } from "../grading/harness.js";
import { afterCompletion } from "./phase3/after-completion.js";
import { killedSession } from "./phase3/killed-session.js";
import { randomSplits } from "./phase3/random-splits.js";
import { threeSessions } from "./phase3/three-sessions.js";

gradeDeliverable("phase3", { main: "session", earlier: ["runner", "checkpoint"] }, [threeSessions, randomSplits, afterCompletion, killedSession]);
