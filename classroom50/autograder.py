#!/usr/bin/env python3
"""Classroom 50 autograder for the checkpoint lab (see README.md beside it).

Classroom 50's runner starts it with no arguments in the student's checkout. It installs the
lab's packages (npm ci), grades starter/ with `npm run grade`, and leaves ./result.json (the
score, one test per check) and ./release-body.md (every lost point, in plain words, with the
command that replays it). It exits 0 whenever it wrote them, a failed or broken submission
included; only a missing runner variable, which leaves it nothing to write, exits 1.

When the grade cannot finish (npm ci fails, the grade crashes or meets its time limit), every
check is written as failed with 0 points, and release-body.md says what happened.

Environment: CLASSROOM, ASSIGNMENT, SUBMISSION_TAG, COMMIT_URL, RELEASE_URL, OWNER (or USERNAME)
from the runner; REVIEW_URL and ASSIGNMENT_TYPE when it sets them. Optional:
  CLASSROOM50_INSTALL_TIMEOUT  seconds for npm ci (default 240)
  CLASSROOM50_GRADE_TIMEOUT    seconds for the grade (default 540); the job's limit is 15 minutes
  CLASSROOM50_SKIP_INSTALL=1   for the lab's own tests only: the checkout already has node_modules
Standard library only, Python 3.8 or newer.
"""
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
from typing import List, Optional

RESULT = pathlib.Path("result.json")
RELEASE_BODY = pathlib.Path("release-body.md")
REQUIRED = ("CLASSROOM", "ASSIGNMENT", "SUBMISSION_TAG", "COMMIT_URL", "RELEASE_URL")


def seconds(name: str, default: int) -> int:
    """A time limit from the environment, or its default."""
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else default


def run(command: List[str], limit: int) -> Optional[str]:
    """Runs a command (its output goes to the log); None when it finished, else why not."""
    # A session of its own, so a time limit ends the command and every process it started.
    process = subprocess.Popen(command, start_new_session=True)
    try:
        code = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, None)):
            try:
                os.killpg(process.pid, sig)
                process.wait(timeout=grace)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
        return "`{}` did not finish within {} s".format(" ".join(command[:3]), limit)
    # `npm run grade` exits 1 when a check failed: that is a grade, not a failure to grade.
    return None if code in (0, 1) else "`{}` stopped with exit code {}".format(" ".join(command[:3]), code)


def stand_in(why: str, report: pathlib.Path) -> None:
    """Writes result.json and release-body.md for a grade that wrote no report: every check failed."""
    for path in (RESULT, RELEASE_BODY):
        path.unlink(missing_ok=True)
    # `npm run report` stands in for a missing report, every check an error with its points.
    run(["npm", "run", "report", "--", "--from", str(report), "--classroom50", str(RESULT), "--markdown", str(RELEASE_BODY)], 120)
    if not RESULT.exists():
        write_without_node()
    story = RELEASE_BODY.read_text(encoding="utf-8") if RELEASE_BODY.exists() else ""
    note = (
        "## The grade did not finish\n\n"
        "{}, so no check could be graded: each one counts as failed, with 0 points. "
        "Run `npm ci` and `npm run grade` on your own machine to see what happens; "
        "if it finishes there, tell your instructor.\n\n".format(why[0].upper() + why[1:])
    )
    RELEASE_BODY.write_text(note + story, encoding="utf-8")


def write_without_node() -> None:
    """The last resort, when even Node cannot run: result.json from the rubric, every check failed."""
    import datetime

    try:
        deliverables = json.loads(pathlib.Path("grader/rubric.json").read_text(encoding="utf-8"))["deliverables"]
    except (OSError, ValueError, KeyError):
        deliverables = []
    tests = [
        {"test-name": "{}{}: {}".format("" if d["kind"] == "core" else "(bonus) ", c["id"], c["title"]), "passed": False, "score": 0, "max-score": int(c["points"] + 0.5), "core": d["kind"] == "core"}
        for d in deliverables
        if d.get("enabled", True)
        for c in d.get("checks", [])
    ]
    env = os.environ
    result = {
        "schema": "classroom50/result/v1",
        "classroom": env["CLASSROOM"],
        "assignment": env["ASSIGNMENT"],
        "assignment_type": env.get("ASSIGNMENT_TYPE") or "individual",
        "owner": env.get("OWNER") or env["USERNAME"],
        "submission": env["SUBMISSION_TAG"],
        "commit": env["COMMIT_URL"],
        "release": env["RELEASE_URL"],
        "review": env.get("REVIEW_URL") or env["COMMIT_URL"],
        "datetime": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "score": 0,
        "max-score": sum(t["max-score"] for t in tests if t["core"]),
        "tests": [{k: v for k, v in t.items() if k != "core"} for t in tests],
    }
    RESULT.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


def main() -> int:
    """Grades the checkout; 0 when result.json and release-body.md are written."""
    missing = [name for name in REQUIRED if not os.environ.get(name, "").strip()]
    if not os.environ.get("OWNER", "").strip() and not os.environ.get("USERNAME", "").strip():
        missing.append("OWNER")
    if missing:
        print("autograder.py: Classroom 50's runner sets {}; without {} there is no result to write.".format(", ".join(missing), "them" if len(missing) > 1 else "it"), file=sys.stderr)
        return 1
    # Whatever the checkout holds under these names (a student may commit a result.json) is not this grade.
    for path in (RESULT, RELEASE_BODY):
        path.unlink(missing_ok=True)
    # The JSON report goes to a scratch folder of its own, removed whatever happens.
    with tempfile.TemporaryDirectory(prefix="classroom50-") as scratch:
        return grade_into(pathlib.Path(scratch) / "report.json")


def grade_into(report: pathlib.Path) -> int:
    """Installs and grades, with the JSON report at `report`; writes a stand-in result when the grade wrote none."""
    problem = None
    if os.environ.get("CLASSROOM50_SKIP_INSTALL") != "1":
        problem = run(["npm", "ci", "--no-audit", "--no-fund"], seconds("CLASSROOM50_INSTALL_TIMEOUT", 240))
    if problem is None:
        # A grade that counts never takes a verdict from a cache (one could be committed, forged).
        grade = ["npm", "run", "grade", "--", "--no-cache", "--json", str(report), "--classroom50", str(RESULT), "--markdown", str(RELEASE_BODY)]
        problem = run(grade, seconds("CLASSROOM50_GRADE_TIMEOUT", 540))
    if report.exists() and RESULT.exists() and RELEASE_BODY.exists():
        return 0
    why = problem or "the grade wrote no report"
    print("autograder.py: {}; every check is written as failed.".format(why), file=sys.stderr)
    stand_in(why, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
